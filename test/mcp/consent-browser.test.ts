// Issue 40 §3: the consent page by keyboard in a real headless Chromium (Debian's chromium driven by
// playwright-core, see docs/testing.md). After a wrong key the focus is on the error, which is
// announced and tied to the key field (aria-invalid, aria-describedby); the right key typed next
// approves. Issue 40 §1: a client asking for board:write finds read and write chosen, and the
// default toolsets ticked.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { DEFAULT_TOOLSETS, TOOLSETS } from '../../src/mcp/scopes.ts';
import { authorizeUrl, registerClient, type Served, serve } from './harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.warn(`test/mcp/consent-browser.test.ts: skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

setDefaultTimeout(60_000);

let browser: Browser;
let s: Served;
let agent: { key: string };

beforeAll(async () => {
  s = serve();
  agent = await s.register('keyboard_agent');
  if (!HAS_CHROMIUM) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'], headless: true });
});

afterAll(async () => {
  await browser?.close();
  s.stop();
});

test.skipIf(!HAS_CHROMIUM)('by keyboard: a wrong key focuses the error tied to the field; the right key then approves', async () => {
  const page = await browser.newPage();
  // The client's redirect URI: a loopback server that keeps the address the browser was sent back to.
  let arrived: URL | undefined;
  const back = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) => {
      // Only the callback: the browser asks this origin for /favicon.ico too.
      if (new URL(req.url).pathname === '/callback') arrived = new URL(req.url);
      return new Response('back at the client');
    },
  });
  const redirect = `http://127.0.0.1:${back.port}/callback`;
  await page.goto(authorizeUrl(s, await registerClient(s, redirect), 'v'.repeat(64), { scope: 'board:read board:write', redirect_uri: redirect }));
  expect(await page.locator('input[name=access][value=write]').isChecked()).toBe(true);
  for (const t of TOOLSETS) expect(await page.locator(`input[name=toolset_${t}]`).isChecked()).toBe(DEFAULT_TOOLSETS.includes(t));

  const tabTo = async (id: string) => {
    for (let i = 0; i < 30; i++) {
      if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached #${id}`);
  };
  await tabTo('api_key');
  await page.keyboard.type('svc_not_a_key');
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  await page.locator('#consent-problem').waitFor();
  const focused = await page.evaluate(() => ({
    id: document.activeElement?.id,
    role: document.activeElement?.getAttribute('role'),
    text: document.activeElement?.textContent,
  }));
  expect(focused.id).toBe('consent-problem');
  expect(focused.role).toBe('alert');
  expect(focused.text).toContain('not a valid board key');
  const field = page.locator('#api_key');
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  expect(await field.getAttribute('aria-describedby')).toBe('consent-problem');
  // The person's choice is kept after the refusal.
  expect(await page.locator('input[name=access][value=write]').isChecked()).toBe(true);

  await tabTo('api_key');
  await page.keyboard.type(agent.key);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${redirect}**`);
  expect(arrived?.searchParams.get('code')).toBeTruthy();
  await page.close();
  back.stop(true);
});
