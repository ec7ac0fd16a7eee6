// Issue 28 item 10: /connections, where a person pastes the board key once, sees the linked
// assistants and revokes one (CSRF-protected, no-store, the key never stored nor echoed); a
// revoked token stops at once. Over HTTP, and once in a real headless Chromium at 390 px.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { EVERYTHING, link, mcpStatus, type Served, serve } from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };
let other: { id: string; name: string; key: string };
beforeAll(async () => {
  s = serve();
  agent = await s.register('page_agent');
  other = await s.register('other_agent');
});
afterAll(() => s?.stop());

const field = (html: string, name: string) => [...html.matchAll(new RegExp(`name="${name}" value="([^"]*)"`, 'g'))].map((m) => m[1]!);
const post = (path: string, cookie: string, params: Record<string, string>) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(params).toString(),
  });

async function openKeyForm() {
  const res = await fetch(`${s.url}/connections`);
  const html = await res.text();
  return { res, html, csrf: field(html, 'csrf_token')[0]!, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
}

describe('over HTTP', () => {
  test('the key form: no-store, strict CSP, an HttpOnly SameSite=Strict CSRF cookie, no script', async () => {
    const form = await openKeyForm();
    expect(form.res.status).toBe(200);
    expect(form.res.headers.get('cache-control')).toBe('no-store');
    expect(form.res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(form.res.headers.get('set-cookie')).toMatch(/^svc_connections_csrf=[^;]+; Path=\/connections; .*HttpOnly; SameSite=Strict/);
    expect(form.html).toContain('method="post" action="/connections"');
    expect(form.html).not.toContain('<script');
  });

  test('without the matching cookie the key is not even checked (403); a wrong key is told so', async () => {
    const form = await openKeyForm();
    expect((await post('/connections', '', { csrf_token: form.csrf, api_key: agent.key })).status).toBe(403);
    expect((await post('/connections', 'svc_connections_csrf=forged', { csrf_token: 'forged2', api_key: agent.key })).status).toBe(403);
    const wrong = await post('/connections', form.cookie, { csrf_token: form.csrf, api_key: 'svc_0000000000000000000000000000000000000000' });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('not a valid board key');
  });

  test('the list shows each linked assistant with its scope, toolsets and times; Revoke stops its token at once', async () => {
    const readOnly = await link(s, agent.key, undefined, { access: 'read', toolset_board: 'on', toolset_pubs: 'on' });
    const full = await link(s, agent.key, undefined, EVERYTHING);
    await link(s, other.key); // another agent's: never listed here
    expect(await mcpStatus(s, readOnly.tokens.access_token)).toBe(200);

    const form = await openKeyForm();
    const list = await post('/connections', form.cookie, { csrf_token: form.csrf, api_key: agent.key });
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const html = await list.text();
    expect(html).not.toContain(agent.key);
    expect(html).toContain('Raw client');
    expect(html).toContain('read only');
    expect(html).toContain('read and write');
    expect(html).toContain('<code>board</code> <code>pubs</code></dd>');
    expect(html).toContain('Last used</dt><dd><time');
    const ids = field(html, 'connection_id');
    expect(ids.length).toBe(2);
    const session = field(html, 'session')[0]!;

    // A forged revoke (no cookie, or a token of another page) changes nothing.
    expect((await post('/connections/revoke', '', { session, csrf_token: form.csrf, connection_id: ids[0]! })).status).toBe(403);
    const another = await openKeyForm();
    expect((await post('/connections/revoke', another.cookie, { session, csrf_token: another.csrf, connection_id: ids[0]! })).status).toBe(403);
    expect(await mcpStatus(s, readOnly.tokens.access_token)).toBe(200);

    // Newest first: ids[1] is the read-only one linked first.
    const revoked = await post('/connections/revoke', form.cookie, { session, csrf_token: form.csrf, connection_id: ids[1]! });
    expect(revoked.status).toBe(200);
    const after = await revoked.text();
    expect(after).toContain('Revoked at');
    expect(field(after, 'connection_id')).toEqual([ids[0]!]);
    expect(await mcpStatus(s, readOnly.tokens.access_token)).toBe(401);
    expect(await mcpStatus(s, full.tokens.access_token)).toBe(200);
    // Revoking it again: not found, the list again.
    expect((await post('/connections/revoke', form.cookie, { session, csrf_token: form.csrf, connection_id: ids[1]! })).status).toBe(404);
  });

  test("the page's session expires, and ends with the key", async () => {
    const form = await openKeyForm();
    const html = await (await post('/connections', form.cookie, { csrf_token: form.csrf, api_key: agent.key })).text();
    const session = field(html, 'session')[0]!;
    s.clock.advance(s.ctx.config.mcp.consentMinutes * 60_000 + 1);
    const late = await post('/connections/revoke', form.cookie, { session, csrf_token: form.csrf, connection_id: field(html, 'connection_id')[0] ?? 'x' });
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('This page expired');

    const leaving = await s.register('leaving_agent');
    const again = await openKeyForm();
    const page = await (await post('/connections', again.cookie, { csrf_token: again.csrf, api_key: leaving.key })).text();
    expect((await s.call('POST', '/v1/me/revoke', { key: leaving.key, body: {} })).status).toBe(200);
    const ended = await post('/connections/revoke', again.cookie, { session: field(page, 'session')[0]!, csrf_token: again.csrf, connection_id: 'x' });
    expect(ended.status).toBe(400);
  });

  test('every answer matched the description', () => {
    expect(s.faults).toEqual([]);
  });
});

const CHROMIUM = '/usr/bin/chromium';
describe.skipIf(!existsSync(CHROMIUM))('in Chromium at 390 px', () => {
  let browser: Browser;
  let profile: string;
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', `--disk-cache-dir=${join(profile, 'cache')}`],
      headless: true,
    });
  });
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test('a person pastes the key, sees the assistant, revokes it; nothing scrolls sideways', async () => {
    const linked = await link(s, agent.key, undefined, { access: 'read', toolset_board: 'on' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await page.goto(`${s.url}/connections`);
    expect(await fits()).toBe(true);
    await page.fill('#api_key', agent.key);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(page.url()).toBe(`${s.url}/connections`);
    expect(await page.textContent('h1')).toBe('Assistants linked to page_agent');
    expect(await fits()).toBe(true);
    const before = await page.locator('ul.connections > li').count();
    expect(before).toBeGreaterThan(0);
    await Promise.all([page.waitForNavigation(), page.locator('ul.connections > li').first().locator('button').click()]);
    expect(await page.textContent('[role=status]')).toContain('Revoked at');
    expect(await page.locator('ul.connections > li').count()).toBe(before - 1);
    expect(await fits()).toBe(true);
    expect(await mcpStatus(s, linked.tokens.access_token)).toBe(401);
    await context.close();
  });
});
