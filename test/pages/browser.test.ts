// The pages in a real headless Chromium (Debian's chromium driven by playwright-core, no browser
// download): they render, log no console error and no CSP violation, a planted <script> or
// <img onerror> in an article or a comment never runs, the guest comment form works end to end
// (with the ALTCHA check at a low cost, and with it off), a lost answer is retried under the same
// request_id without a duplicate, and with JavaScript off the article still reads.
// One browser for the whole file; each app is served on its own loopback port.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ICON_PATH } from '../../src/pages/html.ts';
import { envelope, pagesApp, richArticle, XSS } from './harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`test/pages/browser.test.ts: skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// A page test takes a second or two; the proof of work and a cold browser start take longer.
setDefaultTimeout(60_000);

let browser: Browser;
let profile: string;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  const { chromium } = await import('playwright-core');
  // A fresh, empty profile for this file (removed afterwards).
  profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, `--disk-cache-dir=${join(profile, 'cache')}`], headless: true });
});

afterAll(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/**
 * An app of the page tests served on a random loopback port, its base URL the server's own.
 * `defaultInstall`: no SVC_BASE_URL (the default http://127.0.0.1:PORT), served on both stacks so
 * that localhost, 127.0.0.1 and [::1] all reach it.
 */
async function servedApp(env: Record<string, string> = {}, opts: { defaultInstall?: boolean } = {}) {
  let handle: (req: Request) => Promise<Response> = async () => new Response('starting', { status: 503 });
  const server = Bun.serve({ hostname: opts.defaultInstall ? '::' : '127.0.0.1', port: 0, fetch: (req) => handle(req) });
  const origin = `http://127.0.0.1:${server.port}`;
  const p = await pagesApp(opts.defaultInstall ? { ...env, SVC_BASE_URL: '', SVC_PORT: String(server.port) } : { SVC_BASE_URL: origin, ...env });
  // The browser (the ALTCHA widget drops a challenge whose expiresAt has passed by its Date.now())
  // and altcha-lib's verifySolution judge expiry on the machine's clock, so the server under test
  // shares that clock: its manual clock moves forward to the real now (whatever the date, or a
  // faketime offset), and the test still moves it by hand from there.
  p.t.clock.set(Math.max(p.t.clock.now(), Date.now()));
  handle = (req) => p.t.app.handle(req);
  return { ...p, origin, stop: () => server.stop(true) };
}

interface Watched {
  page: Page;
  context: BrowserContext;
  problems: string[]; // console errors, page errors, CSP violations, failed requests
}

/** A page in a fresh context that records every console error, page error and CSP violation. */
async function watchedPage(opts: { javaScriptEnabled?: boolean } = {}): Promise<Watched> {
  const context = await browser.newContext({ javaScriptEnabled: opts.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    // A cancelled load is no failure: the ALTCHA widget ends its solver workers as soon as one finds
    // the answer, and a worker script still loading then shows as net::ERR_ABORTED.
    // Nor is the site icon's: the browser asks for it after the page's load, and a next navigation
    // started at once cancels that request.
    if (r.failure()?.errorText === 'net::ERR_ABORTED' && ['/assets/altcha/pbkdf2.js', ICON_PATH].includes(new URL(r.url()).pathname)) return;
    problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  // Runs before the page's own scripts, outside its CSP (the driver injects it).
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, context, problems };
}

/**
 * Whether the figure shows its image. It loads lazily, so it is scrolled into view as a reader
 * would, then decoded (which waits for its load and fails on a broken image).
 */
async function figureShown(page: Page): Promise<boolean> {
  const img = page.locator('figure img');
  await img.scrollIntoViewIfNeeded();
  return img.evaluate((i: HTMLImageElement) =>
    i.decode().then(
      () => i.naturalWidth > 0,
      () => false,
    ),
  );
}

/** No CSP violation on the current document, no planted script run, nothing in the log. */
async function expectClean(w: Watched) {
  expect(await w.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
  expect(await w.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(w.problems).toEqual([]);
}

describe.skipIf(!HAS_CHROMIUM)('the pages in headless Chromium', () => {
  test('home, articles and an article render with their stylesheet and image, no error, no CSP violation, no planted script run', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE: 'off' });
    try {
      const { itemId } = await a.publish();
      const w = await watchedPage();
      for (const path of ['/', '/pubs/', `/pubs/${itemId}`]) {
        const res = await w.page.goto(`${a.origin}${path}`, { waitUntil: 'networkidle' });
        expect(res!.status(), path).toBe(200);
        // The site's stylesheet applied (the body's font comes from it).
        expect(await w.page.evaluate(() => getComputedStyle(document.body).maxWidth)).not.toBe('none');
      }
      expect(await w.page.locator('h1').textContent()).toBe(`Measured ${XSS.script}`);
      expect(await w.page.locator('article ol li').nth(1).textContent()).toBe(`two ${XSS.img}`);
      // The svg asset loads as an image from the asset route.
      expect(await figureShown(w.page)).toBe(true);
      // The script ran (the form is shown, the notice hidden) and nothing planted did.
      expect(await w.page.locator('#comment-form').isVisible()).toBe(true);
      expect(await w.page.locator('#js-needed').isVisible()).toBe(false);
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('a thread page, an agent page and /outreach render cleanly; planted script in a thread never runs', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE: 'off' });
    try {
      const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
      const root = await a.t.call('POST', '/v1/posts', {
        key: a.author.key,
        headers: idem(),
        body: { topic: 'general', title: `Thread ${XSS.script}`, body: `Body ${XSS.img}` },
      });
      expect(root.status).toBe(200);
      const reply = await a.t.call('POST', `/v1/posts/${root.json.post.id}/replies`, {
        key: a.reviewers[0]!.key,
        headers: idem(),
        body: { body: XSS.textarea },
      });
      expect(reply.status).toBe(200);
      const w = await watchedPage();
      for (const path of [`/threads/${root.json.post.id}`, `/agents/${a.author.name}`, '/outreach']) {
        const res = await w.page.goto(`${a.origin}${path}`, { waitUntil: 'networkidle' });
        expect(res!.status(), path).toBe(200);
        expect(await w.page.evaluate(() => getComputedStyle(document.body).maxWidth), path).not.toBe('none');
        await expectClean(w);
      }
      await w.page.goto(`${a.origin}/threads/${root.json.post.id}`, { waitUntil: 'networkidle' });
      expect(await w.page.locator('body').textContent()).toContain(`Thread ${XSS.script}`);
      expect(await w.page.locator('body').textContent()).toContain(XSS.textarea);
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('the comment form posts a hostile guest comment end to end with the ALTCHA check (low cost); it shows as text and never runs', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE_COST: '200' });
    try {
      const { itemId } = await a.publish();
      const w = await watchedPage();
      await w.page.goto(`${a.origin}/pubs/${itemId}`, { waitUntil: 'networkidle' });
      await w.page.locator('altcha-widget').waitFor({ state: 'attached' });
      await w.page.fill('#cf-nickname', XSS.nick);
      await w.page.fill('#cf-comment', `Hello ${XSS.textarea}`);
      await w.page.click('#comment-form button[type=submit]');
      await w.page.locator('#cf-status', { hasText: 'published' }).waitFor({ timeout: 30_000 });
      const shown = w.page.locator('#comment-list li.comment');
      expect(await shown.count()).toBe(1);
      expect(await shown.locator('.who').textContent()).toBe(XSS.nick);
      expect(await shown.locator('p.text').textContent()).toBe(`Hello ${XSS.textarea}`);
      expect(await w.page.inputValue('#cf-comment')).toBe('');
      // Stored once, the challenge spent; the page (once its cached copy is old) shows it as text too.
      const list = await a.t.call('GET', `/api/pubs/posts/${itemId}/comments`);
      expect(list.json.comments.map((c: { author: { nickname: string } }) => c.author.nickname)).toEqual([XSS.nick]);
      expect(a.t.db.query('SELECT count(*) AS n FROM guest_challenges_used').get()).toEqual({ n: 1 });
      a.t.clock.advance(16_000);
      await w.page.reload({ waitUntil: 'networkidle' });
      expect(await w.page.locator('#comment-list li.comment p.text').textContent()).toBe(`Hello ${XSS.textarea}`);
      expect(await w.page.locator('#comment-list li.comment .who').textContent()).toBe(XSS.nick);
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('by keyboard: the ALTCHA box says its states in a live region, stays verified on Space, and the result of Post comment takes focus', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE_COST: '200' });
    try {
      const { itemId } = await a.publish();
      const w = await watchedPage();
      await w.page.goto(`${a.origin}/pubs/${itemId}`, { waitUntil: 'networkidle' });
      await w.page.locator('altcha-widget').waitFor({ state: 'attached' });
      // What the live region says, in order (a screen reader reads each change).
      await w.page.evaluate(() => {
        const said: string[] = [];
        (window as unknown as { __said: string[] }).__said = said;
        const region = document.getElementById('cf-challenge-state')!;
        new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, { childList: true, characterData: true, subtree: true });
      });
      expect(await w.page.getAttribute('#cf-challenge-state', 'role')).toBe('status');
      await w.page.focus('#cf-nickname');
      await w.page.keyboard.type('Keyboard reader');
      await w.page.keyboard.press('Tab');
      await w.page.keyboard.type('Posted without a mouse.');
      const box = w.page.locator('altcha-widget input[type=checkbox]');
      await w.page.keyboard.press('Tab'); // onto the anti-spam box: the check starts on focus
      expect(await box.evaluate((b) => b === document.activeElement || b === (b.getRootNode() as Document | ShadowRoot).activeElement)).toBe(true);
      await w.page.locator('#cf-challenge-state', { hasText: 'Verified' }).waitFor({ state: 'attached', timeout: 30_000 });
      const said = await w.page.evaluate(() => (window as unknown as { __said: string[] }).__said);
      expect(said.some((t) => t.startsWith('Verifying'))).toBe(true);
      expect(await w.page.getAttribute('#cf-challenge', 'aria-busy')).toBe('false');
      expect(await box.isChecked()).toBe(true);
      await w.page.keyboard.press('Space'); // a verified box stays verified
      expect(await box.isChecked()).toBe(true);
      expect(await w.page.textContent('#cf-challenge-state')).toStartWith('Verified');
      await w.page.focus('#comment-form button[type=submit]');
      await w.page.keyboard.press('Enter');
      await w.page.locator('#cf-status', { hasText: 'published' }).waitFor({ timeout: 30_000 });
      expect(await w.page.evaluate(() => document.activeElement?.id)).toBe('cf-status');
      expect(await w.page.getAttribute('#cf-status', 'role')).toBe('status');
      expect(await w.page.locator('#comment-list li.comment p.text').textContent()).toBe('Posted without a mouse.');
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('a guest who posts and reloads sees the comment at once (no 15 s wait), and so does a later visit by link', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE: 'off' });
    try {
      const { itemId } = await a.publish(envelope({ title: 'Reload' }));
      const w = await watchedPage();
      const url = `${a.origin}/pubs/${itemId}`;
      await w.page.goto(url, { waitUntil: 'networkidle' });
      expect(await w.page.locator('#no-comments').count()).toBe(1);
      await w.page.fill('#cf-nickname', 'Ada');
      await w.page.fill('#cf-comment', 'Still here after the reload.');
      // The script's refresh of the browser's copy: the page's own address, fetched again by the script.
      const refreshed = w.page.waitForResponse((r) => r.url() === url && r.request().resourceType() === 'fetch', { timeout: 30_000 });
      await w.page.click('#comment-form button[type=submit]');
      await w.page.locator('#cf-status', { hasText: 'published' }).waitFor({ timeout: 30_000 });
      expect((await refreshed).status()).toBe(200);
      await (await refreshed).finished();
      // Away and back by an ordinary navigation, which takes the browser's cached copy while it is
      // fresh: the script replaced that copy, so the comment is there, rendered by the server (the
      // list is the page's, not the script's).
      await w.page.goto(`${a.origin}/pubs/`, { waitUntil: 'networkidle' });
      await w.page.goto(url, { waitUntil: 'networkidle' });
      expect(await w.page.locator('#no-comments').count()).toBe(0);
      expect(await w.page.locator('#comment-list li.comment p.text').allTextContents()).toEqual(['Still here after the reload.']);
      // The server's clock has not moved: the page's 15 s are not over, yet a reload (which asks the
      // server, If-None-Match) shows it: the server's cached page was replaced.
      await w.page.reload({ waitUntil: 'networkidle' });
      expect(await w.page.locator('#comment-list li.comment p.text').allTextContents()).toEqual(['Still here after the reload.']);
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  // Issue 36.2: on a default install the README's localhost address is this service for a person too.
  test('without SVC_BASE_URL, a person comments from the page opened at localhost, 127.0.0.1 or [::1]', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE: 'off' }, { defaultInstall: true });
    try {
      const port = new URL(a.origin).port;
      for (const name of ['localhost', '127.0.0.1', '[::1]']) {
        const { itemId } = await a.publish(envelope({ title: `Opened at ${name}` }));
        const w = await watchedPage();
        await w.page.goto(`http://${name}:${port}/pubs/${itemId}`, { waitUntil: 'networkidle' });
        await w.page.fill('#cf-nickname', 'Ada');
        await w.page.fill('#cf-comment', `Commented at ${name}.`);
        await w.page.click('#comment-form button[type=submit]');
        await w.page.locator('#cf-status', { hasText: 'published' }).waitFor({ timeout: 30_000 });
        expect(await w.page.locator('#comment-list li.comment p.text').allTextContents()).toEqual([`Commented at ${name}.`]);
        await expectClean(w);
        await w.context.close();
      }
      expect(a.t.db.query('SELECT count(*) AS n FROM pubs_comments').get()).toEqual({ n: 3 });
    } finally {
      a.stop();
    }
  });

  test('with the check off, a comment posts; a lost answer is retried under the same request_id and stored once', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE: 'off' });
    try {
      const { itemId } = await a.publish(envelope({ title: 'Plain' }));
      const w = await watchedPage();
      // The first answer is lost on the way back: the comment is stored, the page never hears it.
      let posts = 0;
      const ids: string[] = [];
      await w.page.route('**/human-comments', async (route) => {
        posts++;
        ids.push(JSON.parse(route.request().postData() ?? '{}').request_id);
        if (posts === 1) {
          await route.fetch();
          await route.abort('connectionreset');
        } else await route.continue();
      });
      await w.page.goto(`${a.origin}/pubs/${itemId}`, { waitUntil: 'networkidle' });
      expect(await w.page.locator('altcha-widget').count()).toBe(0);
      await w.page.fill('#cf-nickname', 'Ada');
      await w.page.fill('#cf-comment', 'Retried once, stored once.');
      await w.page.click('#comment-form button[type=submit]');
      await w.page.locator('#cf-status', { hasText: 'published' }).waitFor({ timeout: 30_000 });
      expect(posts).toBe(2);
      expect(ids[0]).toBe(ids[1]!);
      expect(a.t.db.query('SELECT count(*) AS n FROM pubs_comments').get()).toEqual({ n: 1 });
      expect(await w.page.locator('#comment-list li.comment').count()).toBe(1);
      // The lost request shows as a failed request in the log; nothing else may.
      expect(w.problems.filter((p) => !p.startsWith('request failed:') && !p.includes('ERR_CONNECTION_RESET'))).toEqual([]);
      w.problems.length = 0;
      await w.page.unroute('**/human-comments');
      // Refusals are shown in words, and nothing is stored: the form's own check, then the server's content rules.
      await w.page.fill('#cf-nickname', 'x');
      await w.page.fill('#cf-comment', 'Too short a nickname.');
      await w.page.click('#comment-form button[type=submit]');
      await w.page.locator('#cf-status.error', { hasText: 'nickname' }).waitFor();
      await w.page.fill('#cf-nickname', 'Ada');
      await w.page.fill('#cf-comment', 'my token ghp_Zq8rT2vLw9XkP4mN7bYc3HdF6sJ1aE5gU0oR');
      await w.page.click('#comment-form button[type=submit]');
      await w.page.locator('#cf-status.error', { hasText: /secret|key|token/i }).waitFor();
      expect(a.t.db.query('SELECT count(*) AS n FROM pubs_comments').get()).toEqual({ n: 1 });
      // The refused text stays in the form for the reader to fix.
      expect(await w.page.inputValue('#cf-comment')).toContain('my token');
      // The browser logs the refused request (422) itself; nothing else may appear.
      expect(w.problems).toEqual(['console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
      w.problems.length = 0;
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('Reply answers a comment (parent_id) and Report files a private report on a comment and on the article, with the ALTCHA check, by keyboard-reachable buttons', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE_COST: '200' });
    try {
      const { itemId, revisionId } = await a.publish(envelope({ title: 'Replies' }));
      const seeded = await a.t.call('POST', `/v1/pubs/posts/${itemId}/comments`, {
        key: a.reviewers[1]!.key,
        body: {
          schema_version: 1,
          language: 'en',
          idempotency_key: crypto.randomUUID(),
          article_revision_id: revisionId,
          blocks: [{ type: 'paragraph', text: 'Which warm-up?' }],
        },
      });
      expect(seeded.status).toBe(201);
      const parentId: string = seeded.json.comment.id;
      const w = await watchedPage();
      await w.page.goto(`${a.origin}/pubs/${itemId}`, { waitUntil: 'networkidle' });
      await w.page.locator('altcha-widget').waitFor({ state: 'attached' });
      // Reply: the control names whom it answers; the form says so and takes the focus.
      await w.page.getByRole('button', { name: 'Reply to rev2' }).click();
      expect(await w.page.locator('#cf-replying').textContent()).toContain('Replying to rev2.');
      expect(await w.page.evaluate(() => document.activeElement?.id)).toBe('cf-comment');
      await w.page.fill('#cf-nickname', XSS.nick);
      await w.page.fill('#cf-comment', 'The first five runs.');
      await w.page.click('#comment-form button[type=submit]');
      await w.page.locator('#cf-status', { hasText: 'published' }).waitFor({ timeout: 30_000 });
      const reply = w.page.locator('#comment-list li.comment').nth(1);
      expect(await reply.locator('.meta a[href^="#c-"]').getAttribute('href')).toBe(`#c-${parentId}`);
      expect(await reply.locator('.meta a[href^="#c-"]').textContent()).toBe('rev2');
      expect(await w.page.locator('#cf-replying').isVisible()).toBe(false);
      const stored = a.t.db.query('SELECT id, parent_id FROM pubs_comments WHERE author_kind = ?').get('human_guest') as { id: string; parent_id: string };
      expect(stored.parent_id).toBe(parentId);

      // Report the new comment (a control the script added), hostile reason text kept as text.
      await w.page.getByRole('button', { name: `Report the comment by ${XSS.nick}` }).click();
      expect(await w.page.locator('#rf-target').textContent()).toBe(`You are reporting the comment by ${XSS.nick}.`);
      expect(await w.page.evaluate(() => document.activeElement?.id)).toBe('rf-reason');
      await w.page.fill('#rf-reason', `Spam ${XSS.textarea}`);
      await w.page.click('#report-form button[type=submit]');
      await w.page.locator('#rf-status', { hasText: 'sent to the operator' }).waitFor({ timeout: 30_000 });
      // The article: Escape closes the form and gives the focus back to its control; then a report is sent.
      const reportArticle = w.page.getByRole('button', { name: 'Report this article' });
      await reportArticle.click();
      expect(await w.page.locator('#rf-target').textContent()).toBe('You are reporting this article.');
      await w.page.keyboard.press('Escape');
      expect(await w.page.locator('#report').isVisible()).toBe(false);
      expect(await reportArticle.evaluate((b) => b === document.activeElement)).toBe(true);
      await w.page.keyboard.press('Enter');
      await w.page.fill('#rf-reason', 'Misleading figures.');
      await w.page.click('#report-form button[type=submit]');
      await w.page.locator('#rf-status', { hasText: 'sent to the operator' }).waitFor({ timeout: 30_000 });

      const reports = a.t.db.query('SELECT comment_id, reason FROM pubs_reports ORDER BY seq').all();
      expect(reports).toEqual([
        { comment_id: stored.id, reason: `Spam ${XSS.textarea}` },
        { comment_id: null, reason: 'Misleading figures.' },
      ]);
      // Three writes, three challenges spent; a report hides nothing.
      expect(a.t.db.query('SELECT count(*) AS n FROM guest_challenges_used').get()).toEqual({ n: 3 });
      const list = await a.t.call('GET', `/api/pubs/posts/${itemId}/comments`);
      expect(list.json.comments.map((c: { id: string }) => c.id)).toEqual([parentId, stored.id]);
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('a refused comment marks the field in error (aria-invalid, described by the message) and moves focus to it', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE: 'off' });
    try {
      const { itemId } = await a.publish();
      const w = await watchedPage();
      await w.page.goto(`${a.origin}/pubs/${itemId}`, { waitUntil: 'networkidle' });
      const state = () =>
        w.page.evaluate(() => {
          const f = (id: string) => {
            const e = document.getElementById(id)!;
            return `${e.getAttribute('aria-invalid')} ${e.getAttribute('aria-describedby')}`;
          };
          return { focus: document.activeElement?.id, nickname: f('cf-nickname'), comment: f('cf-comment') };
        });
      await w.page.focus('#comment-form button[type=submit]');
      await w.page.keyboard.press('Enter'); // both fields empty: the nickname is the first to fix
      await w.page.locator('#cf-status', { hasText: 'nickname' }).waitFor();
      expect(await state()).toEqual({ focus: 'cf-nickname', nickname: 'true cf-status', comment: 'null null' });
      await w.page.keyboard.type('Reader');
      await w.page.focus('#comment-form button[type=submit]');
      await w.page.keyboard.press('Enter'); // now the comment is the one missing
      await w.page.locator('#cf-status', { hasText: 'comment of at least' }).waitFor();
      expect(await state()).toEqual({ focus: 'cf-comment', nickname: 'null null', comment: 'true cf-status' });
      await w.page.keyboard.type('Now it is long enough.');
      await w.page.focus('#comment-form button[type=submit]');
      await w.page.keyboard.press('Enter');
      await w.page.locator('#cf-status', { hasText: 'published' }).waitFor({ timeout: 30_000 });
      expect(await state()).toEqual({ focus: 'cf-status', nickname: 'null null', comment: 'null null' });
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('by keyboard: the first Tab shows "Skip to content", which leads past the navigation; reply permalinks are 24 px targets', async () => {
    const a = await servedApp({ SVC_GUEST_CHALLENGE: 'off' });
    try {
      const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
      const root = await a.t.call('POST', '/v1/posts', { key: a.author.key, headers: idem(), body: { topic: 'general', title: 'A thread', body: 'Body.' } });
      const id = root.json.post.id as string;
      for (const k of [0, 1]) {
        const r = await a.t.call('POST', `/v1/posts/${id}/replies`, { key: a.reviewers[k]!.key, headers: idem(), body: { body: `Reply ${k}.` } });
        expect(r.status).toBe(200);
      }
      const w = await watchedPage();
      await w.page.setViewportSize({ width: 390, height: 844 });
      await w.page.goto(`${a.origin}/threads/${id}`, { waitUntil: 'networkidle' });
      const skip = w.page.locator('a.skip');
      const onScreen = () => skip.evaluate((e) => e.getBoundingClientRect().bottom > 0);
      expect(await onScreen()).toBe(false);
      await w.page.keyboard.press('Tab');
      expect(await skip.evaluate((e) => e === document.activeElement)).toBe(true);
      expect(await onScreen()).toBe(true);
      expect(await skip.textContent()).toBe('Skip to content');
      await w.page.keyboard.press('Enter');
      await w.page.keyboard.press('Tab'); // the first link inside <main>, not the site navigation
      expect(await w.page.evaluate(() => !!document.activeElement?.closest('main') && !document.activeElement.closest('nav'))).toBe(true);
      const boxes = await w.page.locator('a.permalink').evaluateAll((links) => links.map((l) => l.getBoundingClientRect()).map((r) => [r.width, r.height]));
      expect(boxes.length).toBe(2);
      for (const [width, height] of boxes) {
        expect(width).toBeGreaterThanOrEqual(24);
        expect(height).toBeGreaterThanOrEqual(24);
      }
      await expectClean(w);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('with JavaScript off the article reads fully and says commenting needs JavaScript', async () => {
    const a = await servedApp();
    try {
      const { itemId } = await a.publish(richArticle());
      const w = await watchedPage({ javaScriptEnabled: false });
      const res = await w.page.goto(`${a.origin}/pubs/${itemId}`, { waitUntil: 'networkidle' });
      expect(res!.status()).toBe(200);
      expect(await w.page.locator('h1').textContent()).toBe(`Measured ${XSS.script}`);
      expect(await w.page.locator('blockquote').isVisible()).toBe(true);
      expect(await figureShown(w.page)).toBe(true);
      expect(await w.page.locator('#js-needed').isVisible()).toBe(true);
      expect(await w.page.locator('#comment-form').isVisible()).toBe(false);
      expect(w.problems).toEqual([]);
      await w.context.close();
    } finally {
      a.stop();
    }
  });

  test('the 404 and 410 pages and an author preview render cleanly', async () => {
    const a = await servedApp();
    try {
      const { itemId } = await a.publish();
      const candidate = await a.submit(richArticle());
      const preview = await a.t.call('POST', `/v1/pubs/revisions/${candidate.json.revision_id}/preview-session`, { key: a.author.key, body: {} });
      const w = await watchedPage();
      const p = await w.page.goto(preview.json.preview_url, { waitUntil: 'networkidle' });
      expect(p!.status()).toBe(200);
      expect(await w.page.locator('.notice').textContent()).toContain('Private preview');
      expect(await figureShown(w.page)).toBe(true);
      await expectClean(w);
      await a.t.call('POST', `/v1/pubs/posts/${itemId}/withdraw`, { key: a.author.key, body: {} });
      const gone = await w.page.goto(`${a.origin}/pubs/${itemId}`, { waitUntil: 'networkidle' });
      expect(gone!.status()).toBe(410);
      expect(await w.page.locator('h1').textContent()).toBe('Withdrawn');
      const missing = await w.page.goto(`${a.origin}/pubs/${crypto.randomUUID()}`, { waitUntil: 'networkidle' });
      expect(missing!.status()).toBe(404);
      expect(await w.page.locator('h1').textContent()).toBe('Not found');
      // The browser logs the 404 and 410 answers themselves as failed resources; nothing else may appear.
      expect(w.problems.filter((m) => !/status of 4(04|10)/.test(m))).toEqual([]);
      await w.context.close();
    } finally {
      a.stop();
    }
  });
});
