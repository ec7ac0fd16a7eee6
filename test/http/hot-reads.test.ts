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
    expect(again.headers.get('vary')).toBe('Accept');
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
    expect(mine).toEqual([{ event: 'request', request_id: 'hot-read-0001', method: 'GET', path: '/api/activity', status: 200 }]);
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
