// Every answer carries X-Request-Id (the caller quotes it; the server's log lines carry it), and a
// 401 names its scheme (RFC 6750).
import { describe, expect, spyOn, test } from 'bun:test';
import { AGENT_HEADERS, makeApp } from '../helpers.ts';

describe('X-Request-Id', () => {
  const cases: [string, string, string, boolean][] = [
    ['a JSON answer', 'GET', '/healthz', false],
    ['an agent answer', 'GET', '/v1/me', true],
    ['a public document', 'GET', '/api/activity', false],
    ['an HTML page', 'GET', '/threads/00000000-0000-7000-8000-000000000000', false],
    ['an error in the envelope', 'GET', '/v1/me', false],
    ['an unknown path', 'GET', '/nope', false],
    ['a wrong method', 'PATCH', '/v1/posts', true],
    ['the description', 'GET', '/openapi.json', false],
  ];
  for (const [name, method, path, withKey] of cases) {
    test(`${name} (${method} ${path}) carries one`, async () => {
      const t = makeApp();
      const a = await t.register('alice');
      const r = await t.call(method, path, withKey ? { key: a.key } : {});
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  }

  test('two requests get two ids; a sane id sent by the caller is kept, a hostile one is replaced', async () => {
    const t = makeApp();
    const [a, b] = [await t.call('GET', '/healthz'), await t.call('GET', '/healthz')];
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect((await t.call('GET', '/healthz', { headers: { 'x-request-id': 'trace-1234abcd' } })).headers.get('x-request-id')).toBe('trace-1234abcd');
    for (const bad of ['x', 'a b c d e f g h', `${'a'.repeat(65)}`, '<script>alert(1)</script>']) {
      expect((await t.call('GET', '/healthz', { headers: { 'x-request-id': bad } })).headers.get('x-request-id')).not.toBe(bad);
    }
  });

  test('a refused request is logged with its id, method, path, status and code', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'errors' });
    const log = spyOn(console, 'log').mockImplementation(() => {});
    try {
      const r = await t.call('GET', '/v1/me');
      const line = log.mock.calls.map((c) => JSON.parse(String(c[0]))).find((l) => l.event === 'request');
      expect(line).toEqual({
        event: 'request',
        request_id: r.headers.get('x-request-id'),
        method: 'GET',
        path: '/v1/me',
        status: 401,
        code: 'UNAUTHORIZED',
        client: expect.any(String),
        duration_ms: expect.any(Number),
      });
    } finally {
      log.mockRestore();
    }
  });
});

describe('SVC_LOG_REQUESTS=all', () => {
  test('one line per request with its real status: a refused public read is not logged again as a success', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'all', SVC_PUBLIC_READS_PER_MINUTE: '1' });
    const log = spyOn(console, 'log').mockImplementation(() => {});
    try {
      const ok = await t.call('GET', '/api/activity', { headers: { 'x-agent-protocol': '' } });
      const refused = await t.call('GET', '/api/activity', { headers: { 'x-agent-protocol': '' } });
      const missing = await t.call('GET', '/nope', { headers: { 'x-agent-protocol': '', accept: 'text/html' } });
      expect([ok.status, refused.status, missing.status]).toEqual([200, 429, 404]);
      const lines = () => log.mock.calls.map((c) => JSON.parse(String(c[0]))).filter((l) => l.event === 'request');
      const byId = (r: { headers: Headers }) =>
        lines()
          .filter((l) => l.request_id === r.headers.get('x-request-id'))
          .map((l) => l.status);
      // After-response hooks run once the answer is out: wait for the success's line, then a moment
      // more for any second line a refused request would (wrongly) get.
      for (let i = 0; i < 200 && byId(ok).length === 0; i++) await Bun.sleep(10);
      await Bun.sleep(50);
      expect([byId(ok), byId(refused), byId(missing)]).toEqual([[200], [429], [404]]);
    } finally {
      log.mockRestore();
    }
  });
});

describe('a log line names the client as the limits see it, and the time taken', () => {
  const linesOf = (log: { mock: { calls: unknown[][] } }) => log.mock.calls.map((c) => JSON.parse(String(c[0]))).filter((l) => l.event === 'request');

  test('through a real socket: the peer address and duration_ms', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'errors' });
    const log = spyOn(console, 'log').mockImplementation(() => {});
    const server = t.app.listen({ hostname: '127.0.0.1', port: 0 }).server!;
    try {
      const r = await fetch(`http://127.0.0.1:${server.port}/v1/me`, { headers: AGENT_HEADERS });
      expect(r.status).toBe(401);
      const line = linesOf(log).find((l) => l.request_id === r.headers.get('x-request-id'));
      expect(line.client).toBe('127.0.0.1');
      expect(typeof line.duration_ms).toBe('number');
      expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    } finally {
      log.mockRestore();
      await t.app.stop(true);
    }
  });

  test('behind a trusted proxy: the last X-Forwarded-For hop, the address the read limit counts', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'errors', SVC_TRUST_PROXY: '1' });
    const log = spyOn(console, 'log').mockImplementation(() => {});
    try {
      const r = await t.call('GET', '/v1/me', { headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' } });
      expect(linesOf(log).find((l) => l.request_id === r.headers.get('x-request-id')).client).toBe('203.0.113.9');
    } finally {
      log.mockRestore();
    }
  });

  test('SVC_LOG_ADDRESSES=0 leaves the address out and keeps the rest', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'errors', SVC_TRUST_PROXY: '1', SVC_LOG_ADDRESSES: '0' });
    const log = spyOn(console, 'log').mockImplementation(() => {});
    try {
      const r = await t.call('GET', '/v1/me', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      const line = linesOf(log).find((l) => l.request_id === r.headers.get('x-request-id'));
      expect(line).not.toHaveProperty('client');
      expect(JSON.stringify(line)).not.toContain('203.0.113.9');
      expect(line).toMatchObject({ status: 401, code: 'UNAUTHORIZED', duration_ms: expect.any(Number) });
    } finally {
      log.mockRestore();
    }
  });
});

describe('401 and WWW-Authenticate', () => {
  test('no key: the scheme alone; a refused key: invalid_token', async () => {
    const t = makeApp();
    const none = await t.call('GET', '/v1/me');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    const bad = await t.call('GET', '/v1/me', { headers: { authorization: `Bearer svc_${'a'.repeat(40)}` } });
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="svc", error="invalid_token"');
    expect((await t.call('GET', '/healthz')).headers.get('www-authenticate')).toBeNull();
  });
});
