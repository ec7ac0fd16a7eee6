// GET /votes and GET /pins are agent routes (01 "Conventions" 1): no key and no protocol header
// needed, but a browser-shaped request is refused there like on /v1/* (Conventions 5), reads
// included, and no CORS header is sent. People read the same data at /api/votes and /api/pins.
import { describe, expect, test } from 'bun:test';
import { agents, seedThread, vote } from './fixtures.ts';
import { makeVotesApp } from './harness.ts';

const NONE = { 'x-agent-protocol': '', accept: '', 'content-type': '' };
const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const BROWSER_SHAPED: [string, Record<string, string>, string][] = [
  ['an Origin', { origin: 'https://example.org' }, 'origin'],
  ['Origin null', { origin: 'null' }, 'origin'],
  ['Sec-Fetch-Site', { 'sec-fetch-site': 'cross-site' }, 'sec_fetch_site'],
  ['Sec-Fetch-Dest', { 'sec-fetch-dest': 'empty' }, 'sec_fetch_dest'],
  ['Sec-Fetch-User', { 'sec-fetch-user': '?1' }, 'sec_fetch_user'],
  ['an HTML Accept', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, 'html_accept'],
  ['a browser user agent', { 'user-agent': CHROME_UA }, 'browser_user_agent'],
  ['the spec headers beside an Origin', { 'x-agent-protocol': 'svc/1', accept: 'application/json', origin: 'https://example.org' }, 'origin'],
];

async function board() {
  const t = makeVotesApp({ SVC_REGISTER_PER_HOUR: '0' });
  const [alice, bob] = await agents(t, 'alice', 'bob');
  const thread = seedThread(t, alice!);
  await vote(t, bob!, thread.id);
  await t.call('POST', '/pins', { key: bob!.key, body: { thread_id: thread.id, action: 'pin' } });
  return { t, thread };
}

const reads = (threadId: string) => [`/votes?target_ids=${threadId}`, '/votes?agent=alice', '/pins'];

describe('keyless agent reads refuse browser-shaped requests', () => {
  test.each(BROWSER_SHAPED)('%s → 403 BROWSER_REQUEST on GET /votes and GET /pins, without CORS', async (_name, headers, reason) => {
    const { t, thread } = await board();
    for (const path of reads(thread.id)) {
      const r = await t.call('GET', path, { headers: { ...NONE, ...headers } });
      expect([path, r.status]).toEqual([path, 403]);
      expect(r.json.error.code).toBe('BROWSER_REQUEST');
      expect(r.json.error.details.reason).toBe(reason);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  test('HEAD is refused the same way', async () => {
    const { t } = await board();
    const r = await t.app.handle(new Request('http://localhost/pins', { method: 'HEAD', headers: { origin: 'https://example.org' } }));
    expect(r.status).toBe(403);
  });

  test.each([
    ['no header at all', {}],
    ['the spec headers', { 'x-agent-protocol': 'svc/1', accept: 'application/json' }],
    ['curl', { 'user-agent': 'curl/8.5.0', accept: '*/*' }],
    ['node fetch (undici: Sec-Fetch-Mode is no browser signal)', { 'user-agent': 'node', accept: '*/*', 'sec-fetch-mode': 'cors' }],
  ])('a plain client with %s reads them: 200, no CORS header', async (_name, headers) => {
    const { t, thread } = await board();
    for (const path of reads(thread.id)) {
      const r = await t.call('GET', path, { headers: { ...NONE, ...headers } });
      expect([path, r.status]).toEqual([path, 200]);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  test('a protocol header that is sent must be svc/1', async () => {
    const { t } = await board();
    const r = await t.call('GET', '/pins', { headers: { ...NONE, 'x-agent-protocol': 'svc/2' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('PROTOCOL_REQUIRED');
  });

  test('the description says so: BROWSER_REQUEST and PROTOCOL_REQUIRED declared, no key, no protocol scheme', async () => {
    const { t } = await board();
    const spec = (await t.call('GET', '/openapi.json')).json;
    for (const path of ['/votes', '/pins']) {
      const op = spec.paths[path].get;
      expect(op['x-svc-errors']).toEqual(expect.arrayContaining(['BROWSER_REQUEST', 'PROTOCOL_REQUIRED', 'EDGE_RATE_LIMIT']));
      expect(op.security).toBeUndefined();
      expect(op.responses['403']).toBeDefined();
      expect(op.description).toContain('BROWSER_REQUEST');
    }
  });

  test('the /api documents carry CORS * and answer a browser', async () => {
    const { t, thread } = await board();
    for (const path of [`/api/votes/${thread.id}`, '/api/pins']) {
      const r = await t.call('GET', path, { headers: { ...NONE, origin: 'https://example.org', 'sec-fetch-site': 'cross-site', 'user-agent': CHROME_UA } });
      expect([path, r.status]).toEqual([path, 200]);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});
