// Public reads: no key, no protocol, CORS `*`, per-address edge limits; /healthz without CORS.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

const plain = (t: ReturnType<typeof makeApp>, path: string, init: RequestInit = {}) => t.app.handle(new Request(`http://localhost${path}`, init));

describe('/healthz', () => {
  test('answers status, service and protocol with no CORS header and no key', async () => {
    const t = makeApp();
    const res = await plain(t, '/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      service: 'svc',
      protocol: 'svc/1',
      waiting: 0,
      policy: 'svc-policy/1',
      version: '1.0.0',
      commit: expect.any(String),
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS on /api', () => {
  test('errors of public routes carry CORS too', async () => {
    const t = makeApp();
    const res = await plain(t, '/api/does-not-exist', { headers: { origin: 'https://reader.example' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a preflight is answered 204 with the allowed methods and asked headers', async () => {
    const t = makeApp();
    const res = await plain(t, '/api/activity', {
      method: 'OPTIONS',
      headers: { origin: 'https://reader.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type, x-trace' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, x-trace');
  });

  test('agent routes never send CORS headers', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const res = await t.call('GET', '/v1/me', { key: a.key });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('edge rate limit', () => {
  test('past the per-minute limit: 429 EDGE_RATE_LIMIT with Retry-After and retry_at; an earlier retry is refused again', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++) expect((await plain(t, '/healthz')).status).toBe(200);
    const refused = await plain(t, '/healthz');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as any;
    expect(body.error.code).toBe('EDGE_RATE_LIMIT');
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(body.error.details.retry_at).toBe('2026-11-23T12:01:00.000Z');
    t.clock.advance(30_000);
    const early = await plain(t, '/healthz');
    expect(early.status).toBe(429);
    expect(((await early.json()) as any).error.details.retry_at).toBe('2026-11-23T12:01:00.000Z');
    expect(early.headers.get('retry-after')).toBe('30');
    t.clock.advance(30_000);
    expect((await plain(t, '/healthz')).status).toBe(200);
  });

  test('0 turns the limit off', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '0' });
    for (let i = 0; i < 50; i++) expect((await plain(t, '/healthz')).status).toBe(200);
  });

  test('behind a trusted proxy each X-Forwarded-For client has its own allowance', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '1', SVC_TRUST_PROXY: '1' });
    const from = (ip: string) => plain(t, '/healthz', { headers: { 'x-forwarded-for': `6.6.6.6, ${ip}` } });
    expect((await from('10.0.0.1')).status).toBe(200);
    expect((await from('10.0.0.2')).status).toBe(200);
    expect((await from('10.0.0.1')).status).toBe(429);
  });

  test('without proxy trust X-Forwarded-For is ignored', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '1' });
    expect((await plain(t, '/healthz', { headers: { 'x-forwarded-for': '10.0.0.1' } })).status).toBe(200);
    expect((await plain(t, '/healthz', { headers: { 'x-forwarded-for': '10.0.0.2' } })).status).toBe(429);
  });
});
