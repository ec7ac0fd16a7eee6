// Issue 40 §3: axe-core over every kind of page in a real headless Chromium, at a phone's width
// (390 px) and a desktop's (1280 px). Each page's violations are printed (rule, impact, count) for
// a person to read; the test fails on any violation of serious or critical impact. A third run at
// 1280 px prefers a dark colour scheme (the stylesheets' dark colours are checked for contrast too).
// The article has a code block with a line far wider than a phone (it scrolls in its own box, and
// must be reachable by keyboard: scrollable-region-focusable).
// The pages forbid inline and foreign scripts (their CSP), so the test asks Chromium to bypass the
// CSP for its own injected axe script only (playwright's bypassCSP, a CDP switch of the test's
// browser context); the pages' own behaviour is unchanged.
// Print the figures: node_modules/.bin/bun test --timeout 20000 test/pages/axe.test.ts
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { makeLabApp } from '../lab/pages/harness.ts';
import { pagesApp, richArticle } from './harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`test/pages/axe.test.ts: skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

setDefaultTimeout(300_000);

const AXE = readFileSync(join(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8');
const WIDTHS = [
  { name: '390', width: 390, height: 844, isMobile: true, hasTouch: true, colorScheme: 'light' },
  { name: '1280', width: 1280, height: 800, isMobile: false, hasTouch: false, colorScheme: 'light' },
  { name: '1280-dark', width: 1280, height: 800, isMobile: false, hasTouch: false, colorScheme: 'dark' },
] as const;
/** A line of code far wider than any screen: its block scrolls sideways. */
const LONG_CODE = { type: 'code', text: `const x = "${'y'.repeat(240)}";\nconsole.log(x);`, language: 'js' };
const BLOCKING = new Set(['serious', 'critical']);

let browser: Browser;
/** Each page's first screen at each width, for a person to look at (the path is printed). */
const SHOTS = join(tmpdir(), 'svc-axe-screenshots');

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  const { chromium } = await import('playwright-core');
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'], headless: true });
});

afterAll(async () => {
  await browser?.close();
  if (HAS_CHROMIUM) console.log(`axe screenshots: ${SHOTS}`);
});

/** An app's handler served on a loopback port. */
function onPort(handle: (req: Request) => Promise<Response> | Response) {
  let target = handle;
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => target(req) });
  return { origin: `http://127.0.0.1:${server.port}`, set: (h: typeof handle) => (target = h), stop: () => server.stop(true) };
}

interface Violation {
  id: string;
  impact: string | null;
  count: number;
  target: string;
}

/** axe's violations of the page at `url`, at one width. */
async function audit(label: string, url: string, w: (typeof WIDTHS)[number]): Promise<{ status: number; violations: Violation[] }> {
  const context = await browser.newContext({
    viewport: { width: w.width, height: w.height },
    isMobile: w.isMobile,
    hasTouch: w.hasTouch,
    colorScheme: w.colorScheme,
    bypassCSP: true,
  });
  try {
    const page = await context.newPage();
    const res = await page.goto(url, { waitUntil: 'networkidle' });
    await page.screenshot({ path: join(SHOTS, `${label}-${w.name}.png`) });
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(c: unknown, o: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> };
        }
      ).axe;
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length, target: String(v.nodes[0]?.target ?? '') }));
    });
    return { status: res!.status(), violations };
  } finally {
    await context.close();
  }
}

describe.skipIf(!HAS_CHROMIUM)('axe-core finds no serious or critical violation on any kind of page', () => {
  test('home, threads, a thread, agents, an agent, a topic, articles, an article, docs, a guide, an operation, errors, search, outreach, modlog, policy, a lab page, 404', async () => {
    const served = onPort(async () => new Response('starting', { status: 503 }));
    const lab = makeLabApp();
    const labServed = onPort((req) => lab.app.handle(req));
    try {
      const a = await pagesApp({ SVC_BASE_URL: served.origin, SVC_GUEST_CHALLENGE: 'off' });
      served.set((req) => a.t.app.handle(req));
      const rich = richArticle();
      const { itemId, revisionId } = await a.publish({ ...rich, blocks: [...rich.blocks, LONG_CODE] });
      const comment = await a.t.call('POST', `/v1/pubs/posts/${itemId}/comments`, {
        key: a.reviewers[0]!.key,
        body: {
          schema_version: 1,
          language: 'en',
          idempotency_key: crypto.randomUUID(),
          article_revision_id: revisionId,
          blocks: [{ type: 'paragraph', text: 'The warm-up should be excluded.' }],
        },
      });
      expect(comment.status).toBeLessThan(300);
      const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
      const root = await a.t.call('POST', '/v1/posts', {
        key: a.author.key,
        headers: idem(),
        body: { topic: 'general', title: 'A thread', body: 'Its body.' },
      });
      expect(root.status).toBe(200);
      const reply = await a.t.call('POST', `/v1/posts/${root.json.post.id}/replies`, { key: a.reviewers[1]!.key, headers: idem(), body: { body: 'A reply.' } });
      expect(reply.status).toBe(200);
      const docs = await a.html('/docs');
      const op = /href="(\/docs\/api\/[^"#]+)"/.exec(docs.text)?.[1];
      expect(op).toBeDefined();

      const owner = await lab.register('tidemaker');
      const labHtml =
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Tides</title></head><body><main><h1>Tide tables</h1><p>High water at noon.</p></main></body></html>';
      const published = await lab.publish(owner.key, 'tides', { title: 'Tides', files: [{ path: 'index.html', content: labHtml }] });
      expect(published.status).toBe(201);

      const pages: [string, string, number][] = [
        ['home', `${served.origin}/`, 200],
        ['threads', `${served.origin}/threads`, 200],
        ['thread', `${served.origin}/threads/${root.json.post.id}`, 200],
        ['agents', `${served.origin}/agents`, 200],
        ['agent', `${served.origin}/agents/${a.author.name}`, 200],
        ['topic', `${served.origin}/topics/general`, 200],
        ['pubs', `${served.origin}/pubs/`, 200],
        ['article', `${served.origin}/pubs/${itemId}`, 200],
        ['docs', `${served.origin}/docs`, 200],
        ['guide', `${served.origin}/docs/testing`, 200],
        ['operation', `${served.origin}${op}`, 200],
        ['errors', `${served.origin}/docs/errors`, 200],
        ['search', `${served.origin}/docs/search?q=vote`, 200],
        ['outreach', `${served.origin}/outreach`, 200],
        ['modlog', `${served.origin}/modlog`, 200],
        ['policy', `${served.origin}/policy`, 200],
        ['lab', `${labServed.origin}/lab/tidemaker/tides/`, 200],
        ['404', `${served.origin}/no-such-page`, 404],
      ];
      const blocking: string[] = [];
      const lines: string[] = [];
      for (const [label, url, status] of pages) {
        for (const w of WIDTHS) {
          const r = await audit(label, url, w);
          expect(`${label} ${r.status}`).toBe(`${label} ${status}`);
          const found = r.violations.map((v) => `${v.id} (${v.impact}, ${v.count})`).join(', ');
          lines.push(`axe ${label.padEnd(9)} ${w.name.padStart(9)} px: ${r.violations.length} violation(s)${found ? `: ${found}` : ''}`);
          for (const v of r.violations)
            if (BLOCKING.has(v.impact ?? '')) blocking.push(`${label} at ${w.name} px: ${v.id} (${v.impact}, ${v.count}; first: ${v.target})`);
        }
      }
      console.log(lines.join('\n'));
      expect(blocking).toEqual([]);
    } finally {
      served.stop();
      labServed.stop();
    }
  });
});
