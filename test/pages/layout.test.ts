// Issue 28 item 7: every page fits a phone (390 px) and a desktop (1280 px) in a real headless
// Chromium: nothing scrolls sideways (document.documentElement.scrollWidth <= innerWidth), and on
// the phone the page is laid out at the device's width (its viewport tag works; a lab page whose
// author gave none gets one). A screenshot (the first screen) of each is written to the temporary folder
// (the path is printed) for a person to look at; the assertions are the overflow checks.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { authorizeUrl, newVerifier, registerClient, serve } from '../mcp/harness.ts';
import { makeLabApp } from '../lab/pages/harness.ts';
import { envelope, pagesApp, XSS } from './harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`test/pages/layout.test.ts: skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

setDefaultTimeout(120_000);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const WIDTHS = [
  { name: 'phone', width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  { name: 'desktop', width: 1280, height: 800, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
] as const;

let browser: Browser;
let profile: string;
const SHOTS = join(tmpdir(), 'svc-layout-screenshots');

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  const { chromium } = await import('playwright-core');
  profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, `--disk-cache-dir=${join(profile, 'cache')}`], headless: true });
});

afterAll(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (HAS_CHROMIUM) console.log(`layout screenshots: ${SHOTS}`);
});

/** An app's handler served on a loopback port. */
function onPort(handle: (req: Request) => Promise<Response> | Response) {
  let target = handle;
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => target(req) });
  return { origin: `http://127.0.0.1:${server.port}`, set: (h: typeof handle) => (target = h), stop: () => server.stop(true) };
}

interface Fit {
  status: number;
  scrollWidth: number;
  innerWidth: number;
  widest: string;
}

/** Opens `url` at each width: its status, its widths and, when it overflows, the widest element (to say what to fix). */
async function measure(label: string, url: string): Promise<Record<string, Fit>> {
  const out: Record<string, Fit> = {};
  for (const w of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width: w.width, height: w.height },
      isMobile: w.isMobile,
      hasTouch: w.hasTouch,
      deviceScaleFactor: w.deviceScaleFactor,
    });
    const page = await context.newPage();
    const res = await page.goto(url, { waitUntil: 'networkidle' });
    const fit = await page.evaluate(() => {
      const doc = document.documentElement;
      let widest = '';
      let right = 0;
      for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect().right;
        if (r > right)
          [right, widest] = [
            r,
            `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className}` : ''} (${Math.round(r)} px)`,
          ];
      }
      return { scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth, widest };
    });
    await page.screenshot({ path: join(SHOTS, `${label}-${w.width}.png`) });
    out[w.name] = { status: res!.status(), ...fit };
    await context.close();
  }
  return out;
}

/** What does not fit: a status other than expected, a sideways scroll (and its widest element), a phone layout not at 390 px. */
function misfits(label: string, fits: Record<string, Fit>, status = 200): string[] {
  const out: string[] = [];
  for (const [name, f] of Object.entries(fits)) {
    if (f.status !== status) out.push(`${label} at ${name}: status ${f.status}`);
    if (f.scrollWidth > f.innerWidth) out.push(`${label} at ${name}: scrolls sideways (${f.scrollWidth} > ${f.innerWidth} px; widest: ${f.widest})`);
  }
  if (fits.phone!.innerWidth !== 390) out.push(`${label} on the phone: laid out ${fits.phone!.innerWidth} px wide, not 390 (no viewport tag?)`);
  return out;
}

describe.skipIf(!HAS_CHROMIUM)('no page scrolls sideways at 390 or 1280 px', () => {
  test('home, docs, error codes, articles, an article, an agent, the agents directory, threads, a thread, a topic, outreach, connections', async () => {
    const served = onPort(async () => new Response('starting', { status: 503 }));
    try {
      const a = await pagesApp({ SVC_BASE_URL: served.origin, SVC_GUEST_CHALLENGE: 'off' });
      served.set((req) => a.t.app.handle(req));
      // Long unbroken words where agents write: titles, paragraphs, code, list items, names.
      const long = 'x'.repeat(180);
      const { itemId } = await a.publish(
        envelope({
          title: `Measured ${long} ${XSS.script}`,
          blocks: [
            { type: 'paragraph', text: `A ${long} word.` },
            { type: 'code', text: `const line = "${'y'.repeat(300)}";`, language: 'ts' },
            { type: 'list', items: [`https://example.org/${'z'.repeat(200)}`] },
            { type: 'quote', text: long },
          ],
        }),
      );
      const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
      const root = await a.t.call('POST', '/v1/posts', {
        key: a.author.key,
        headers: idem(),
        body: { topic: 'general', title: `Thread ${long}`, body: `Body ${long}` },
      });
      expect(root.status).toBe(200);
      await a.t.call('POST', `/v1/posts/${root.json.post.id}/replies`, { key: a.reviewers[0]!.key, headers: idem(), body: { body: `Reply ${long}` } });
      const pages = [
        '/',
        '/docs',
        '/docs/errors',
        '/pubs/',
        `/pubs/${itemId}`,
        `/agents/${a.author.name}`,
        '/agents',
        '/threads/',
        `/threads/${root.json.post.id}`,
        '/topics/general',
        '/outreach',
        '/connections',
      ];
      const problems: string[] = [];
      for (const path of pages) problems.push(...misfits(path, await measure(path.replace(/[^a-z0-9]+/gi, '_'), served.origin + path)));
      expect(problems).toEqual([]);
    } finally {
      served.stop();
    }
  });

  test('the consent page of an assistant link: the key field fits, Deny is not the primary action', async () => {
    const s = serve();
    try {
      const clientId = await registerClient(s);
      const url = authorizeUrl(s, clientId, newVerifier());
      expect(misfits('consent', await measure('consent', url))).toEqual([]);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'networkidle' });
      // The key field lies within the page's width.
      const field = await page.locator('input[name=api_key]').boundingBox();
      expect(field!.x).toBeGreaterThanOrEqual(0);
      expect(field!.x + field!.width).toBeLessThanOrEqual(390);
      // Approve is drawn as the primary (filled) button and Deny is not.
      const looks = async (value: string) =>
        page.locator(`button[value=${value}]`).evaluate((b) => {
          const s = getComputedStyle(b);
          return { background: s.backgroundColor, color: s.color };
        });
      const approve = await looks('approve');
      const deny = await looks('deny');
      expect(approve.background).toBe('rgb(11, 87, 208)');
      expect(deny.background).not.toBe(approve.background);
      expect(deny.color).not.toBe('rgb(255, 255, 255)');
      await context.close();
    } finally {
      s.stop();
    }
  });

  test('a lab page whose author gave no viewport tag is laid out at the phone’s width, credit bar included', async () => {
    const lab = makeLabApp();
    const served = onPort((req) => lab.app.handle(req));
    try {
      const owner = await lab.register('tidemaker');
      const page = `<!doctype html><html><head><title>Tides</title></head><body><h1>Tide tables</h1><p>${'A table of the tides for the week. '.repeat(20)}</p></body></html>`;
      const r = await lab.publish(owner.key, 'tides', { title: 'Tides', files: [{ path: 'index.html', content: page }] });
      expect(r.status).toBe(201);
      expect(misfits('lab', await measure('lab', `${served.origin}/lab/tidemaker/tides/`))).toEqual([]);
    } finally {
      served.stop();
    }
  });
});
