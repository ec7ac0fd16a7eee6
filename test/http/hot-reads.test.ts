// The hot path of cached public reads (src/http/hot-reads.ts): once a route served a document at
// an address, the next anonymous GET of that address gets the same bytes and headers from the
// cache before routing, and only while the cache would still serve that document itself.
import { describe, expect, test } from 'bun:test';
import { HotReads } from '../../src/http/hot-reads.ts';
import { publicCache } from '../../src/http/public-cache.ts';
import { renderMetrics } from '../../src/metrics/collect.ts';
import { parseExposition, sampleOf } from '../metrics/exposition.ts';
import { makeApp } from '../helpers.ts';
import { board, deletePost, read, seedThread } from '../public/fixtures.ts';

const comparable = (h: Headers) => {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (k !== 'x-request-id' && k !== 'date') out[k] = v;
  });
  return out;
};

describe('the hot path of a cached public document', () => {
  test('the second read is answered by the hot path with the same bytes and headers as the route', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    seedThread(t, alice!);
    const hot = publicCache(t.ctx).hot;
    expect(hot.size).toBe(0);
    const first = await read(t, '/api/activity?limit=5');
    expect(first.status).toBe(200);
    expect(hot.size).toBe(1);
    t.clock.advance(3_000);
    const builds = publicCache(t.ctx).builds;
    expect(hot.answered).toBe(0);
    const second = await read(t, '/api/activity?limit=5');
    expect(publicCache(t.ctx).builds).toBe(builds);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(comparable(second.headers)).toEqual({ ...comparable(first.headers), age: '3' });
    expect(second.headers.get('access-control-allow-origin')).toBe('*');
    expect(second.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(hot.answered).toBe(1);
  });

  test('If-None-Match with the tag: 304 from the hot path, with the tag, Age and CORS', async () => {
    const { t } = await board();
    const first = await read(t, '/api/activity');
    const etag = first.headers.get('etag')!;
    const again = await read(t, '/api/activity', { 'if-none-match': `W/${etag}` });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect(publicCache(t.ctx).hot.answered).toBe(1);
  });

  test('only the exact address: another query string takes the route', async () => {
    const { t } = await board();
    await read(t, '/api/activity?limit=5');
    const other = await read(t, '/api/activity?limit=6');
    expect(other.status).toBe(200);
    expect(publicCache(t.ctx).hot.answered).toBe(0);
    const refused = await read(t, '/api/activity?limit=nope');
    expect(refused.status).toBe(400);
    expect(publicCache(t.ctx).hot.answered).toBe(0);
  });

  test('a removal since the build: the hot path steps aside and the route rebuilds without the post', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const post = seedThread(t, alice!);
    const first = await read(t, '/api/activity');
    expect(first.text).toContain(post.id);
    deletePost(t, post.id);
    const after = await read(t, '/api/activity');
    expect(after.text).not.toContain(post.id);
    expect(publicCache(t.ctx).hot.answered).toBe(0);
  });

  test('past its max-age the route rebuilds; the new copy is then served hot', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    await read(t, '/api/activity');
    const post = seedThread(t, alice!);
    t.clock.advance(15_000);
    const rebuilt = await read(t, '/api/activity');
    expect(rebuilt.text).toContain(post.id);
    expect(publicCache(t.ctx).hot.answered).toBe(0);
    const hot = await read(t, '/api/activity');
    expect(hot.text).toBe(rebuilt.text);
    expect(publicCache(t.ctx).hot.answered).toBe(1);
  });

  test('a request with a cookie or a key, and a HEAD, take the route', async () => {
    const { t } = await board();
    await read(t, '/api/activity');
    expect((await read(t, '/api/activity', { cookie: 'a=b' })).status).toBe(200);
    expect((await read(t, '/api/activity', { authorization: 'Bearer x' })).status).toBe(200);
    expect((await read(t, '/api/activity', {}, 'HEAD')).status).toBe(200);
    expect(publicCache(t.ctx).hot.answered).toBe(0);
  });

  test('Vary: Accept keeps the home page and the JSON start document apart', async () => {
    const { t } = await board();
    const html = { accept: 'text/html' };
    const page = await read(t, '/', html);
    expect(page.headers.get('content-type')).toContain('text/html');
    const json = await read(t, '/', { accept: 'application/json' });
    expect(json.headers.get('content-type')).toContain('application/json');
    const again = await read(t, '/', html);
    expect(again.text).toBe(page.text);
    expect(again.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(publicCache(t.ctx).hot.answered).toBe(1);
    expect((await read(t, '/', { accept: 'application/json' })).headers.get('content-type')).toContain('application/json');
    expect(publicCache(t.ctx).hot.answered).toBe(1);
  });

  test('the per-address read limit counts hot answers and refuses past it', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '3' });
    const ip = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 3; i++) expect((await read(t, '/api/activity', ip)).status).toBe(200);
    expect(publicCache(t.ctx).hot.answered).toBe(2);
    const refused = await read(t, '/api/activity', ip);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('EDGE_RATE_LIMIT');
  });

  test('each hot answer is counted in the request metrics', async () => {
    const { t } = await board();
    const answered = () => sampleOf(parseExposition(renderMetrics(t.ctx)), 'svc_http_requests_total', { family: 'public', status: '200' }) ?? 0;
    await read(t, '/api/activity');
    await Bun.sleep(0); // the route's answer is counted after it was sent
    const before = answered();
    await read(t, '/api/activity');
    await read(t, '/api/activity');
    await Bun.sleep(0);
    expect(publicCache(t.ctx).hot.answered).toBe(2);
    expect(answered() - before).toBe(2);
  });

  test("a hot answer reads each of the request's getters once (each is a call into Bun)", async () => {
    const { t } = await board();
    await read(t, '/api/activity');
    const reads = { url: 0, headers: 0, method: 0 };
    class Counted extends Request {
      override get url() {
        reads.url++;
        return super.url;
      }
      override get headers() {
        reads.headers++;
        return super.headers;
      }
      override get method() {
        reads.method++;
        return super.method;
      }
    }
    const answer = await t.app.handle(new Counted('http://localhost/api/activity', { headers: { 'if-none-match': '"nope"' } }));
    expect(answer.status).toBe(200);
    expect(publicCache(t.ctx).hot.answered).toBe(1);
    // app.handle routes through Elysia's own fetch, which reads url and method once more; over a
    // socket Bun's router picks the route and the hot path's reads are the only ones.
    expect(reads).toEqual({ url: 2, headers: 1, method: 2 });
  });

  test('with SVC_LOG_REQUESTS=all a hot answer is logged once, with its status', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'all' });
    await read(t, '/api/activity');
    await Bun.sleep(0);
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: unknown) => void lines.push(String(line));
    try {
      await read(t, '/api/activity', { 'x-request-id': 'hot-read-0001' });
      await Bun.sleep(0);
    } finally {
      console.log = log;
    }
    expect(publicCache(t.ctx).hot.answered).toBe(1);
    const mine = lines.map((l) => JSON.parse(l)).filter((l) => l.request_id === 'hot-read-0001');
    expect(mine).toEqual([
      {
        event: 'request',
        request_id: 'hot-read-0001',
        method: 'GET',
        path: '/api/activity',
        status: 200,
        client: expect.any(String),
        duration_ms: expect.any(Number),
      },
    ]);
  });
});

describe('the hot path keeps its memory bounded', () => {
  const docs = new Map<string, { body: string; builtAt: number; etag: string } | null>();
  const req = (path: string) => new Request(`http://localhost${path}`);
  const headers = { 'content-type': 'text/plain' };

  test('at most `addresses` remembered, the oldest forgotten first', () => {
    const hot = new HotReads((key) => docs.get(key) ?? null, { addresses: 2, bytes: 1_000_000 });
    for (const p of ['/a', '/b', '/c']) {
      docs.set(p, { body: p, builtAt: 0, etag: `"${p}"` });
      hot.remember(req(p), p, headers);
    }
    expect(hot.size).toBe(2);
    expect(hot.lookup(req('/a'))).toBeNull();
    expect(hot.lookup(req('/c'))?.doc.body).toBe('/c');
  });

  test('the encoded bytes held stay under `bytes`: the oldest address goes, and a stale copy lets go of its bytes', async () => {
    const hot = new HotReads((key) => docs.get(key) ?? null, { addresses: 100, bytes: 100 });
    for (const p of ['/x', '/y']) {
      docs.set(p, { body: 'é'.repeat(30), builtAt: 0, etag: `"${p}"` }); // 60 bytes in UTF-8
      hot.remember(req(p), p, headers);
      const answer = hot.answer(hot.lookup(req(p))!, req(p), 0, 'id-0000001');
      expect((await answer.arrayBuffer()).byteLength).toBe(60);
    }
    expect(hot.heldBytes).toBe(60);
    expect(hot.size).toBe(1);
    expect(hot.lookup(req('/y'))).not.toBeNull();
    docs.set('/y', null);
    expect(hot.lookup(req('/y'))).toBeNull();
    expect(hot.heldBytes).toBe(0);
  });
});

describe('the hot path answers exactly what the route answers', () => {
  // The whole answer: status, body and every header (the caller sends its own request id, so the
  // ids match too; over a socket Date is the clock's, not the answer's).
  const whole = async (r: Response) => {
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (k !== 'date') headers[k] = v;
    });
    return { status: r.status, headers, body: await r.text() };
  };

  /** The same request answered by the route (the hot path forgotten) and by the hot path. */
  async function bothWays(t: ReturnType<typeof makeApp>, send: (headers: Record<string, string>) => Promise<Response>, headers: Record<string, string>) {
    const hot = publicCache(t.ctx).hot;
    hot.clear();
    const answered = hot.answered;
    const byRoute = await whole(await send(headers));
    expect(hot.answered).toBe(answered);
    expect(hot.size).toBeGreaterThan(0); // a 200 is remembered; a 304 or a 429 is not: remember it
    if (byRoute.status !== 200) throw new Error('the route answered first with a 200');
    const byHot = await whole(await send(headers));
    expect(hot.answered).toBe(answered + 1);
    return { byRoute, byHot };
  }

  const PATHS: [string, boolean][] = [
    ['/api/activity', true],
    ['/api/leaderboard', true],
    ['/api/pubs/feed', true],
    ['/api/activity?limit=5', true],
  ];

  for (const [path, with304] of PATHS) {
    test(`GET ${path}: ${with304 ? '200 and 304' : '200'} alike, CORS and the caller's request id kept`, async () => {
      const {
        t,
        agents: [alice],
      } = await board('alice');
      seedThread(t, alice!);
      const send = (headers: Record<string, string>) => t.app.handle(new Request(`http://localhost${path}`, { headers }));
      const { byRoute, byHot } = await bothWays(t, send, { 'x-request-id': 'parity-0000001' });
      expect(byHot).toEqual(byRoute);
      expect(byHot.headers['access-control-allow-origin']).toBe('*');
      expect(byHot.headers['x-request-id']).toBe('parity-0000001');
      if (!with304) return;
      // 304: the route's (the hot path forgotten, the document still cached) and the hot path's.
      const held = { 'x-request-id': 'parity-0000002', 'if-none-match': byRoute.headers.etag! };
      const hot = publicCache(t.ctx).hot;
      const routed = (await t.app.handle(new Request(`http://localhost${path}`, { headers: { 'x-request-id': 'parity-0000002' } }))).status;
      expect(routed).toBe(200); // now remembered again (hot)
      hot.clear();
      const answered = hot.answered;
      const route304 = await whole(await send(held));
      expect(hot.answered).toBe(answered);
      await send({}); // remember the address again (a route 304 does not)
      const hot304 = await whole(await send(held));
      expect(hot.answered).toBe(answered + 1);
      expect(route304.status).toBe(304);
      expect(hot304).toEqual(route304);
    });
  }

  test('Vary: Accept: the home page as HTML, alike both ways', async () => {
    const { t } = await board();
    const send = (headers: Record<string, string>) => t.app.handle(new Request('http://localhost/', { headers }));
    const { byRoute, byHot } = await bothWays(t, send, { accept: 'text/html', 'x-request-id': 'parity-0000003' });
    expect(byRoute.headers['content-type']).toContain('text/html');
    expect(byHot).toEqual(byRoute);
  });

  test('a fresh request id each way when the caller sends none; all else alike', async () => {
    const { t } = await board();
    const send = (headers: Record<string, string>) => t.app.handle(new Request('http://localhost/api/activity', { headers }));
    const { byRoute, byHot } = await bothWays(t, send, {});
    expect(byHot.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(byHot.headers['x-request-id']).not.toBe(byRoute.headers['x-request-id']);
    const { 'x-request-id': _a, ...route } = byRoute.headers;
    const { 'x-request-id': _b, ...hot } = byHot.headers;
    expect({ ...byHot, headers: hot }).toEqual({ ...byRoute, headers: route });
  });

  test('the read limit refuses alike: the same 429 envelope, Retry-After and CORS both ways', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '1' });
    const hot = publicCache(t.ctx).hot;
    const ip = { 'x-forwarded-for': '203.0.113.7', 'x-request-id': 'parity-0000004' };
    const send = () => t.app.handle(new Request('http://localhost/api/activity', { headers: ip }));
    expect((await send()).status).toBe(200); // the route, remembered; the address's one read
    const byHot = await whole(await send());
    hot.clear();
    const byRoute = await whole(await send());
    expect(byHot.status).toBe(429);
    expect(JSON.parse(byHot.body).error.code).toBe('EDGE_RATE_LIMIT');
    expect(byHot.headers['retry-after']).toBeDefined();
    expect(byHot.headers['access-control-allow-origin']).toBe('*');
    expect(byHot).toEqual(byRoute);
    expect(hot.answered).toBe(0);
  });

  test('a remembered address whose copy went stale counts once against the read limit, then takes the route', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '2' });
    const ip = { 'x-forwarded-for': '203.0.113.8' };
    expect((await read(t, '/api/activity', ip)).status).toBe(200);
    t.clock.advance(15_000); // past the activity's max-age, inside the limit's minute
    const rebuilt = await read(t, '/api/activity', ip);
    expect(rebuilt.status).toBe(200); // the address's second read, not its third
    expect(publicCache(t.ctx).hot.answered).toBe(0);
    expect((await read(t, '/api/activity', ip)).status).toBe(429);
  });

  test('over a socket (Bun routes the request): the hot path answers, alike, and counts the read limit', async () => {
    const t = makeApp({ SVC_PUBLIC_READS_PER_MINUTE: '3' });
    const server = t.app.listen({ hostname: '127.0.0.1', port: 0 }).server!;
    try {
      const hot = publicCache(t.ctx).hot;
      const send = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${server.port}/api/activity`, { headers });
      const { byRoute, byHot } = await bothWays(t, send, { 'x-request-id': 'parity-0000005' });
      expect(byHot).toEqual(byRoute);
      // Two reads so far from this address (the socket's, no proxy trusted); the third is the last.
      expect((await send({})).status).toBe(200);
      const refused = await send({});
      expect(refused.status).toBe(429);
      expect(hot.answered).toBe(2);
      // Counted under the socket's address, on either path (not a shared stand-in).
      expect(t.ctx.limiters.publicReads.hit('127.0.0.1').ok).toBe(false);
      expect(t.ctx.limiters.publicReads.hit('local').ok).toBe(true);
    } finally {
      await t.app.stop(true);
    }
  });
});
