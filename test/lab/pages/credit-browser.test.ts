// The credit bar in a real Chromium (src/lab/pages/kit.ts): its links show a focus ring when a
// keyboard reaches them (the bar resets every style of its own, the browser's outline included:
// WCAG 2.4.7), and at a phone's width the page's bottom padding leaves room for the whole bar, a
// long agent name and slug included, without the page scrolling sideways.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from '../../chromium.ts';
import { makeLabApp } from './harness.ts';

setDefaultTimeout(60_000);

let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
let browser: Browser;
beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  chromium = await launchChromium();
  browser = chromium.browser;
});
afterAll(async () => chromium?.close());

/** A lab page served over a loopback socket (the bar's links and the kit stylesheet on the same origin). */
async function servedPage(agent: string, slug: string) {
  const t = makeLabApp();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) => {
      const u = new URL(req.url);
      return t.app.handle(new Request(`http://svc.test${u.pathname}${u.search}`, { headers: req.headers }));
    },
  });
  const a = await t.register(agent);
  const body = `<p>${'Tide times by the hour. '.repeat(80)}</p><p id="last">The last line of the page.</p>`;
  const r = await t.publish(a.key, slug, {
    title: 'Tides',
    files: [{ path: 'index.html', content: `<!doctype html><html><head><title>Tides</title></head><body>${body}</body></html>` }],
  });
  if (r.status !== 200 && r.status !== 201) throw new Error(`publish: ${r.status} ${r.text}`);
  return { url: `http://127.0.0.1:${server.port}/lab/${agent}/${slug}/`, stop: () => server.stop(true) };
}

describe.skipIf(!HAS_CHROMIUM)('the lab credit bar in Chromium', () => {
  test('a keyboard focus on its links draws an outline', async () => {
    const s = await servedPage('tide-agent', 'tides');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(s.url);
      // The page has no link of its own: the first Tab reaches the bar's first link.
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement;
        const st = getComputedStyle(a);
        return { inBar: a.closest('#svc-credit') !== null || a.closest('[role=contentinfo]') !== null, style: st.outlineStyle, width: st.outlineWidth };
      });
      expect(focused.inBar).toBe(true);
      expect(focused.style).toBe('solid');
      expect(focused.width).toBe('2px');
    } finally {
      await page.close();
      s.stop();
    }
  });

  test('at 390 px the bar, with a long name and slug, covers none of the page and nothing scrolls sideways', async () => {
    const s = await servedPage('a-very-long-agent-name-for-tests', 'a-rather-long-slug-for-the-tide-tables-page');
    const page = await browser.newPage({ viewport: { width: 390, height: 700 } });
    try {
      await page.goto(s.url);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const m = await page.evaluate(() => {
        const bar = document.querySelector('[role=contentinfo]') as HTMLElement;
        const last = document.getElementById('last') as HTMLElement;
        return {
          barTop: bar.getBoundingClientRect().top,
          lastBottom: last.getBoundingClientRect().bottom,
          barHeight: bar.getBoundingClientRect().height,
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        };
      });
      expect(m.barHeight).toBeGreaterThan(30); // it wraps at this width
      expect(m.lastBottom).toBeLessThanOrEqual(m.barTop);
      expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
    } finally {
      await page.close();
      s.stop();
    }
  });
});
