// The console in a real headless Chromium (Debian's chromium driven by playwright-core, flags as
// in test/pages/browser.test.ts): sign in with the form, remove a thread from the Board page,
// see it in the Log; every page fits 390 and 1280 px without sideways scrolling and breaks no CSP.
// The first Tab reaches the skip link; on a phone each Log cell shows its column's name, and the
// column headers stay in the accessibility tree at both widths.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { runAdmin } from '../../src/admin/cli.ts';
import { createFetcherCredential } from '../../src/ext/credential.ts';
import { join } from 'node:path';
import { HAS_CHROMIUM, launchChromium } from '../chromium.ts';
import { makeApp } from '../helpers.ts';
import { addCrew } from '../../src/accounts/admin.ts';
import { recordBackup } from '../../src/ops/store.ts';
import { rootOf } from '../show/harness.ts';

// Screenshots for a person to look at, when asked: SVC_SCREENSHOTS=DIR.
const SHOTS = process.env.SVC_SCREENSHOTS;

setDefaultTimeout(60_000);
let browser: Browser;
let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  chromium = await launchChromium();
  browser = chromium.browser;
});

afterAll(async () => {
  await chromium?.close();
});

describe.skipIf(!HAS_CHROMIUM)('the console in Chromium', () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: sign in, remove a thread with a reason, see it in the log`, async () => {
      let handle: (req: Request) => Promise<Response> = async () => new Response('starting', { status: 503 });
      const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => handle(req) });
      const origin = `http://127.0.0.1:${server.port}`;
      const t = makeApp({ SVC_BASE_URL: origin, SVC_EXT_ACCOUNT_ID: '1000' });
      handle = (req) => t.app.handle(req);
      try {
        const boss = await t.register('boss');
        runAdmin(t.ctx, ['role', 'grant', 'boss', 'owner']);
        const spammer = await t.register('spammer-with-a-long-name_0123456789'.slice(0, 32));
        const post = await t.call('POST', '/v1/posts', {
          key: spammer.key,
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: {
            topic: 'general',
            title: 'Cheap zeppelin tickets',
            body: `Tickets here: ${'https://example.org/'.repeat(3)}zeppelin-tickets-for-everyone-who-reads-this-post-today`,
          },
        });
        if (post.status !== 200) throw new Error(post.text);
        const id = post.json.post.id as string;
        // One outside post with a long unbroken word, delivered the way the fetcher does.
        const fetcher = createFetcherCredential(t.ctx).credential;
        const lease = await t.call('POST', '/v1/ext/ingest/lease', { key: fetcher });
        const outside = { id: '5000', author_id: '2000', created_at: '2026-11-23T11:00:00.000Z', text: `Look ${'zeppelin'.repeat(20)} <b>here</b>` };
        await t.call('POST', '/v1/ext/ingest', { key: fetcher, body: { lease_id: lease.json.lease_id, posts: [outside], users: [], cursor: null } });
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(String(e)));
        const fits = async (name: string) => {
          const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(over, `${name} at ${width}`).toBeLessThanOrEqual(0);
          if (SHOTS) await page.screenshot({ path: join(SHOTS, `console-${name}-${width}.png`), fullPage: true });
        };
        // A Show root nobody picked, and a backup on record for the Health page.
        const author = await t.register('showy');
        addCrew(t.ctx, 'showy', 'research');
        const show = await t.call('POST', '/v1/posts', { key: author.key, headers: { 'idempotency-key': crypto.randomUUID() }, body: rootOf() });
        if (show.status !== 200) throw new Error(show.text);
        recordBackup(t.db, {
          at: Date.parse('2026-11-23T09:00:00Z'),
          file: '/srv/backups/svc/nightly/svc-2026-11-23T09-00-00Z.sqlite',
          bytes: 3 << 20,
          schema_version: 37,
        });
        await page.goto(`${origin}/console`);
        await fits('sign-in');
        await page.fill('input[name=key]', boss.key);
        await Promise.all([page.waitForURL(`${origin}/console/queue`), page.click('button:text("Sign in")')]);
        await fits('queue');
        // The first Tab reaches "Skip to content", shown while focused; Enter leads past the
        // console's navigation: the next Tab is in <main>.
        await page.keyboard.press('Tab');
        const skip = await page.evaluate(() => {
          const a = document.activeElement as HTMLElement;
          const r = a.getBoundingClientRect();
          return { text: a.textContent, href: a.getAttribute('href'), inView: r.top >= 0 && r.bottom <= innerHeight && r.width > 1 && r.height > 1 };
        });
        expect(skip).toEqual({ text: 'Skip to content', href: '#main', inView: true });
        await page.keyboard.press('Enter');
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => [location.hash, !!document.activeElement?.closest('main#main')])).toEqual(['#main', true]);
        // The owner picks and approves from the browser: the editor role first (a Pick counts from it).
        await Promise.all([page.waitForEvent('load'), page.click('button:text("Make boss an editor")')]);
        await fits('queue-drafts');
        await page.fill('input[name=note]', 'A hook people will repeat.');
        await Promise.all([page.waitForEvent('load'), page.click('button:text("Pick (Pick:)")')]);
        expect(await page.textContent('.done')).toContain('show pick');
        await fits('queue-picked');
        await Promise.all([page.waitForEvent('load'), page.click('button:text("Approve (Picked:)")')]);
        expect(await page.textContent('.done')).toContain('"status": "approved"');
        await page.goto(`${origin}/console/board?q=zeppelin`);
        await page.fill('input[name=reason]', 'Spam: ticket selling.');
        await Promise.all([page.waitForEvent('load'), page.click('button:text("Remove thread")')]);
        expect(await page.textContent('.done')).toContain('posts remove');
        await fits('board');
        expect((await t.call('GET', `/api/thread/${id}`)).status).toBe(404);
        await page.goto(`${origin}/console/agents`);
        await fits('agents');
        await page.goto(`${origin}/console/articles`);
        await fits('articles');
        await page.goto(`${origin}/console/mirror`);
        await fits('mirror');
        await Promise.all([page.waitForEvent('load'), page.click('button:text("Read original (audited)")')]);
        expect(await page.textContent('.done')).toContain('<b>here</b>');
        await fits('mirror-original');
        await page.fill('input[name=reason]', 'Personal details.');
        await Promise.all([page.waitForEvent('load'), page.click('button:text("Withdraw")')]);
        expect(await page.textContent('.done')).toContain('mirror withdraw');
        await fits('mirror-withdrawn');
        await page.goto(`${origin}/console/outreach`);
        await fits('outreach');
        await page.goto(`${origin}/console/log`);
        expect(await page.textContent('table')).toContain('Spam: ticket selling.');
        await fits('log');
        // Each value shows its column's name before it on a phone (the header row is out of sight
        // there), and only there: on a desktop the header row shows it.
        const cells = await page.$$eval('.wide tbody td', (tds) =>
          tds.map((td) => ({
            label: td.getAttribute('data-label'),
            before: getComputedStyle(td, '::before').content,
            shown: getComputedStyle(td).display !== 'none',
            empty: td.textContent === '',
          })),
        );
        expect(cells.length).toBeGreaterThan(6);
        for (const c of cells) {
          if (width === 390) expect(c).toEqual({ label: c.label, before: `"${c.label}: "`, shown: !c.empty, empty: c.empty });
          else expect([c.before, c.shown]).toEqual(['none', true]);
        }
        expect(cells.filter((c) => c.shown && c.label === 'Reason').length).toBeGreaterThan(0);
        const head = await page.$eval('.wide thead', (el) => {
          const r = el.getBoundingClientRect();
          return { display: getComputedStyle(el).display, visible: r.width > 1 && r.height > 1 };
        });
        expect(head).toEqual({ display: width === 390 ? 'block' : 'table-header-group', visible: width !== 390 });
        // A screen reader still gets the column headers at both widths (Chromium's own accessibility tree).
        const cdp = await context.newCDPSession(page);
        const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value: string }; name?: { value: string } }[] };
        const headers = nodes.filter((n) => n.role?.value === 'columnheader').map((n) => n.name?.value);
        expect(headers).toEqual(['Time', 'Actor', 'Action', 'Target', 'Reason', 'Moderation log']);
        await cdp.detach();
        await page.selectOption('select[name=action]', 'posts remove');
        await page.fill('input[name=actor]', 'boss');
        await Promise.all([page.waitForURL(/action=posts\+remove/), page.click('button:text("Filter")')]);
        expect(await page.textContent('table')).toContain('Spam: ticket selling.');
        await fits('log-filtered');
        await page.goto(`${origin}/console/health`);
        expect(await page.textContent('main')).toContain('/srv/backups/svc/nightly/');
        await fits('health');
        await page.goto(`${origin}/modlog`);
        expect(await page.textContent('main')).toContain('Spam: ticket selling.');
        expect(await page.textContent('main')).toContain('Mirror post withdrawn');
        await fits('modlog');
        expect(problems).toEqual([]);
        await context.close();
      } finally {
        server.stop(true);
      }
    });
  }
});
