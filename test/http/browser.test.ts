// The browser signals of docs/decisions.md#identity-and-roles, from the exact header sets real clients send.
import { describe, expect, test } from 'bun:test';
import { browserSignal } from '../../src/http/browser.ts';
import { makeApp } from '../helpers.ts';

const SPEC = { 'x-agent-protocol': 'svc/1', accept: 'application/json' };

// What each plain client sends on its own (plus the spec's two headers, which agents add).
const PLAIN_CLIENTS: [string, Record<string, string>][] = [
  ['curl', { 'user-agent': 'curl/8.5.0', accept: '*/*' }],
  ['python requests', { 'user-agent': 'python-requests/2.32.3', 'accept-encoding': 'gzip, deflate', accept: '*/*', connection: 'keep-alive' }],
  ['go net/http', { 'user-agent': 'Go-http-client/1.1', 'accept-encoding': 'gzip' }],
  ['bun fetch', { 'user-agent': 'Bun/1.4.5', accept: '*/*', 'accept-encoding': 'gzip, deflate, br, zstd', connection: 'keep-alive' }],
  ['node fetch (undici)', { 'user-agent': 'node', accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'accept-encoding': 'gzip, deflate' }],
  ['httpx', { 'user-agent': 'python-httpx/0.27.0', accept: '*/*', 'accept-encoding': 'gzip, deflate' }],
  ['no user agent at all', {}],
];

const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';

const BROWSERS: [string, Record<string, string>, string][] = [
  [
    'chrome navigation',
    {
      'user-agent': CHROME_UA,
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-user': '?1',
      'sec-fetch-dest': 'document',
    },
    'sec_fetch_site',
  ],
  [
    'chrome page fetch, same origin',
    { 'user-agent': CHROME_UA, accept: 'application/json', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
    'sec_fetch_site',
  ],
  ['only Sec-Fetch-Dest', { 'sec-fetch-dest': 'empty' }, 'sec_fetch_dest'],
  ['only Sec-Fetch-User', { 'sec-fetch-user': '?1' }, 'sec_fetch_user'],
  ['cross-site fetch with Origin', { origin: 'https://evil.example', accept: 'application/json' }, 'origin'],
  ['Origin null from a sandboxed frame', { origin: 'null' }, 'origin'],
  ['an HTML Accept', { accept: 'text/html' }, 'html_accept'],
  ['an XHTML Accept', { accept: 'application/xhtml+xml' }, 'html_accept'],
  ['firefox user agent', { 'user-agent': FIREFOX_UA, accept: 'application/json' }, 'browser_user_agent'],
  ['safari user agent', { 'user-agent': SAFARI_UA, accept: 'application/json' }, 'browser_user_agent'],
  ['chrome user agent without fetch metadata', { 'user-agent': CHROME_UA, accept: 'application/json' }, 'browser_user_agent'],
];

describe('browser signals', () => {
  test.each(PLAIN_CLIENTS)('%s is not a browser', (_name, headers) => {
    expect(browserSignal(new Headers({ ...headers, ...SPEC }))).toBeNull();
  });

  test.each(BROWSERS)('%s is a browser', (_name, headers, reason) => {
    expect(browserSignal(new Headers(headers))?.reason).toBe(reason as never);
  });

  test('a user agent that only says Mozilla is not enough', () => {
    expect(browserSignal(new Headers({ 'user-agent': 'Mozilla/5.0 (compatible; somebot/1.0)' }))).toBeNull();
  });
});

describe('browser-shaped requests to agent routes', () => {
  test.each(PLAIN_CLIENTS)('%s registers and reads /v1/me', async (name, headers) => {
    const t = makeApp();
    const all = { ...headers, ...SPEC, 'content-type': 'application/json' };
    const reg = await t.app.handle(
      new Request('http://localhost/v1/agents', {
        method: 'POST',
        headers: all,
        body: JSON.stringify({ name: `agent-${name.replace(/\W/g, '')}`.slice(0, 30) }),
      }),
    );
    expect(reg.status).toBe(200);
    const { api_key } = (await reg.json()) as { api_key: string };
    const me = await t.app.handle(new Request('http://localhost/v1/me', { headers: { ...all, authorization: `Bearer ${api_key}` } }));
    expect(me.status).toBe(200);
  });

  test.each(BROWSERS)('%s gets 403 naming the signal', async (_name, headers, reason) => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/me', { headers });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('BROWSER_REQUEST');
    expect(res.json.error.details.reason).toBe(reason);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('the browser check comes before the key check', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/votes', { headers: { origin: 'https://x.example' }, body: {} });
    expect(res.status).toBe(403);
  });
});
