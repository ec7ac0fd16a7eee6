// axe-core over every console page in a real headless Chromium, signed in as an owner, at a
// phone's width (390 px) and a desktop's (1280 px), and at 1280 px in a dark colour scheme. As in
// test/pages/axe.test.ts, each page's violations are printed (rule, impact, count); here the test
// fails on any violation at all (the console had only moderate and minor ones to fix: tables,
// labels, empty headers). The pages have content: an article, a thread, a Show root, a mirror
// post, a recorded backup and a registered passkey, so every kind of card and table is checked.
// The console's CSP forbids inline and foreign scripts: the test alone bypasses it to inject axe.
// SVC_SCREENSHOTS=DIR writes a full-page screenshot of each page at each width there.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { addCrew } from '../../src/accounts/admin.ts';
import { createFetcherCredential } from '../../src/ext/credential.ts';
import { recordBackup } from '../../src/ops/store.ts';
import { HAS_CHROMIUM, launchChromium } from '../chromium.ts';
import { commentsApp } from '../comments/harness.ts';
import { BASE } from '../helpers.ts';
import { rootOf } from '../show/harness.ts';
import { SoftPasskey } from './authenticator.ts';
import { signedIn } from './console-harness.ts';

setDefaultTimeout(300_000);

const AXE = readFileSync(join(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.SVC_SCREENSHOTS;
const WIDTHS = [
  { name: '390', width: 390, height: 844, isMobile: true, hasTouch: true, colorScheme: 'light' },
  { name: '1280', width: 1280, height: 800, isMobile: false, hasTouch: false, colorScheme: 'light' },
  { name: '1280-dark', width: 1280, height: 800, isMobile: false, hasTouch: false, colorScheme: 'dark' },
] as const;

let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
let browser: Browser;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  chromium = await launchChromium();
  browser = chromium.browser;
});

afterAll(async () => {
  await chromium?.close();
});

interface Violation {
  id: string;
  impact: string | null;
  count: number;
  target: string;
}

describe.skipIf(!HAS_CHROMIUM)('axe-core finds no violation on the console', () => {
  test('sign-in, queue, board, agents, articles, mirror, outreach, log, health, passkeys, a Log error, at 390 and 1280 px (and 1280 dark)', async () => {
    let handle: (req: Request) => Promise<Response> | Response = () => new Response('starting', { status: 503 });
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => handle(req) });
    const origin = `http://127.0.0.1:${server.port}`;
    try {
      const h = await commentsApp({ SVC_BASE_URL: origin, SVC_EXT_ACCOUNT_ID: '1000' });
      const { t } = h;
      handle = (req) => t.app.handle(req);
      await t.register('mira_with_a_rather_long_name_32');
      const s = await signedIn(t);
      const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
      const spam = await t.call('POST', '/v1/posts', {
        key: (await t.register('spammer')).key,
        headers: idem(),
        body: { topic: 'general', title: 'Cheap zeppelin tickets', body: `Tickets: https://example.org/${'zeppelin'.repeat(30)}` },
      });
      expect(spam.status).toBe(200);
      const author = await t.register('showy');
      addCrew(t.ctx, 'showy', 'research');
      expect((await t.call('POST', '/v1/posts', { key: author.key, headers: idem(), body: rootOf() })).status).toBe(200);
      const fetcher = createFetcherCredential(t.ctx).credential;
      const lease = await t.call('POST', '/v1/ext/ingest/lease', { key: fetcher });
      const outside = { id: '5000', author_id: '2000', created_at: new Date(t.clock.now()).toISOString(), text: `Look ${'zeppelin'.repeat(20)} here` };
      await t.call('POST', '/v1/ext/ingest', { key: fetcher, body: { lease_id: lease.json.lease_id, posts: [outside], users: [], cursor: null } });
      recordBackup(t.db, { at: t.clock.now() - 3_600_000, file: '/srv/backups/svc/nightly/svc.sqlite', bytes: 3 << 20, schema_version: 37 });
      const post = async (path: string, body: unknown) => {
        const res = await t.app.handle(
          new Request(`${BASE}${path}`, {
            method: 'POST',
            headers: { accept: 'application/json', 'content-type': 'application/json', cookie: s.cookie },
            body: JSON.stringify(body),
          }),
        );
        return (await res.json()) as any;
      };
      const pk = new SoftPasskey();
      const options = await post('/console/passkeys/options', { csrf: s.csrf });
      expect((await post('/console/passkeys/register', { csrf: s.csrf, credential: pk.create(options, origin) })).credential_id).toBeDefined();

      const [name, value] = s.cookie.split('=') as [string, string];
      const pages: [string, string][] = [
        ['sign-in', '/console'],
        ['queue', '/console/queue'],
        ['board', '/console/board?q=zeppelin'],
        ['agents', '/console/agents'],
        ['articles', '/console/articles'],
        ['mirror', '/console/mirror'],
        ['outreach', '/console/outreach'],
        ['log', '/console/log'],
        ['log-error', '/console/log?from=2026-02-30'],
        ['health', '/console/health'],
        ['passkeys', '/console/passkeys'],
      ];
      const lines: string[] = [];
      const found: string[] = [];
      for (const w of WIDTHS) {
        const context = await browser.newContext({
          viewport: { width: w.width, height: w.height },
          isMobile: w.isMobile,
          hasTouch: w.hasTouch,
          colorScheme: w.colorScheme,
          bypassCSP: true,
        });
        try {
          for (const [label, path] of pages) {
            // The sign-in page is for a browser without the session.
            await context.clearCookies();
            if (label !== 'sign-in') await context.addCookies([{ name, value, domain: '127.0.0.1', path: '/console' }]);
            const page = await context.newPage();
            const res = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
            expect(`${label} ${res!.status()} ${page.url()}`).toBe(`${label} 200 ${origin}${path}`);
            if (SHOTS) await page.screenshot({ path: join(SHOTS, `console-${label}-${w.name}.png`), fullPage: true });
            await page.addScriptTag({ content: AXE });
            const violations: Violation[] = await page.evaluate(async () => {
              const axe = (
                window as unknown as {
                  axe: { run(c: unknown, o: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> };
                }
              ).axe;
              const r = await axe.run(document, { resultTypes: ['violations'] });
              return r.violations.map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length, target: String(v.nodes[0]?.target ?? '') }));
            });
            lines.push(
              `axe console ${label.padEnd(9)} ${w.name.padStart(9)} px: ${violations.length} violation(s)${violations.length ? `: ${violations.map((v) => `${v.id} (${v.impact}, ${v.count})`).join(', ')}` : ''}`,
            );
            for (const v of violations) found.push(`${label} at ${w.name} px: ${v.id} (${v.impact}, ${v.count}; first: ${v.target})`);
            await page.close();
          }
        } finally {
          await context.close();
        }
      }
      console.log(lines.join('\n'));
      expect(found).toEqual([]);
    } finally {
      server.stop(true);
    }
  });
});
