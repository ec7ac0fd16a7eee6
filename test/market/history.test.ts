// GET /api/score/history: a fixed grid of points per window, gaps shown as stale nulls.
import { describe, expect, test } from 'bun:test';
import type { SnapshotRow } from '../../src/market/store.ts';
import { makeApp } from '../helpers.ts';
import { MINT, marketApp, storeSnapshot } from './fakes.ts';

const MIN5 = 300_000;
const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-23T12:00:00Z');
const PUBLIC = { 'x-agent-protocol': '', accept: '', 'content-type': '' }; // a plain browser-less reader

type App = ReturnType<typeof makeApp>;

const store = (t: App, slot: number, over: Partial<SnapshotRow> = {}): void => storeSnapshot(t.db, slot, over);

const STALE_NUMBERS = { price_usd: null, market_cap_usd: null, volume_1h_usd: null, liquidity_usd: null, buys_1h: null, sells_1h: null, stale: true };

const history = (t: App, query = '', headers: Record<string, string> = {}) =>
  t.call('GET', `/api/score/history${query}`, { headers: { ...PUBLIC, ...headers } });

describe('GET /api/score/history', () => {
  test.each([
    ['1h', 12, 300],
    ['6h', 72, 300],
    ['24h', 288, 300],
    ['7d', 288, 2100],
  ])('window %s has %i points %i s apart, oldest first, ending at the latest 300 s boundary', async (window, n, step) => {
    const t = marketApp({ start: '2026-11-23T12:03:20Z' });
    const r = await history(t, `?window=${window}`);
    expect(r.status).toBe(200);
    const to = Date.parse('2026-11-23T12:00:00Z');
    const from = to - (n - 1) * step * 1000;
    expect(r.json).toMatchObject({ version: 1, generated_at: '2026-11-23T12:03:20.000Z', mint: MINT, window, step_seconds: step, snapshot_every_seconds: 300 });
    expect(r.json.from).toBe(new Date(from).toISOString());
    expect(r.json.to).toBe(new Date(to).toISOString());
    expect(r.json.points).toHaveLength(n);
    expect(r.json.points.map((p: { at: string }) => Date.parse(p.at))).toEqual(Array.from({ length: n }, (_, i) => from + i * step * 1000));
  });

  test('without window it is 24h', async () => {
    const r = await history(marketApp());
    expect(r.json).toMatchObject({ window: '24h', step_seconds: 300 });
    expect(r.json.points).toHaveLength(288);
  });

  test('each point shows its own snapshot; a step without one is stale with nulls', async () => {
    const t = marketApp();
    store(t, NOW, { price_usd: 0.03, buys_1h: 9 });
    store(t, NOW - MIN5, { stale: 1, price_usd: null, market_cap_usd: null, volume_1h_usd: null, liquidity_usd: null, buys_1h: null, sells_1h: null });
    store(t, NOW - 3 * MIN5, { price_usd: 0.02 });
    const points = (await history(t, '?window=1h')).json.points;
    expect(points.at(-1)).toEqual({
      at: '2026-11-23T12:00:00.000Z',
      price_usd: 0.03,
      market_cap_usd: 100_000,
      volume_1h_usd: 50,
      liquidity_usd: 40_000,
      buys_1h: 9,
      sells_1h: 3,
      stale: false,
    });
    expect(points.at(-2)).toEqual({ at: '2026-11-23T11:55:00.000Z', ...STALE_NUMBERS }); // the read failed
    expect(points.at(-3)).toEqual({ at: '2026-11-23T11:50:00.000Z', ...STALE_NUMBERS }); // nothing was taken
    expect(points.at(-4)).toMatchObject({ at: '2026-11-23T11:45:00.000Z', price_usd: 0.02, stale: false });
  });

  test('a 7d point takes the latest good snapshot of its 35 minutes, skipping stale ones', async () => {
    const t = marketApp();
    const at = NOW - 2100_000; // the second-to-last point
    store(t, at - 2100_000, { price_usd: 9 }); // the step before: not this point's
    store(t, at - 2100_000 + MIN5, { price_usd: 1 });
    store(t, at - 2 * MIN5, { price_usd: 2 });
    store(t, at - MIN5, { price_usd: 3 });
    store(t, at, { stale: 1, price_usd: null });
    const points = (await history(t, '?window=7d')).json.points;
    expect(points.at(-2)).toMatchObject({ at: new Date(at).toISOString(), price_usd: 3, stale: false });
    expect(points.at(-3)).toMatchObject({ price_usd: 9, stale: false });
  });

  test('a 7d window with a day of missing snapshots shows that day as stale points with nulls', async () => {
    const t = marketApp();
    const gapStart = NOW - 4 * 24 * HOUR;
    const gapEnd = gapStart + 24 * HOUR;
    t.db.transaction(() => {
      for (let slot = NOW - 7 * 24 * HOUR; slot <= NOW; slot += MIN5) if (slot <= gapStart || slot > gapEnd) store(t, slot, { price_usd: slot / 1e15 });
    })();
    const r = await history(t, '?window=7d');
    expect(r.status).toBe(200);
    const points: { at: string; stale: boolean; price_usd: number | null }[] = r.json.points;
    expect(points).toHaveLength(288);
    for (const p of points) {
      const at = Date.parse(p.at);
      // A point covers (at − 35 min, at]: it is in the gap when all of that lies inside it.
      const inGap = at - 2100_000 >= gapStart && at <= gapEnd;
      if (inGap) expect(p, p.at).toEqual({ at: p.at, ...STALE_NUMBERS });
      else expect(p.stale, p.at).toBe(false);
    }
    const stale = points.filter((p) => p.stale).length;
    expect(stale).toBeGreaterThanOrEqual(40); // 24 h / 35 min ≈ 41
    expect(stale).toBeLessThanOrEqual(41);
    // Each good point shows the latest snapshot of its step: the one at its own time.
    const last = points.at(-1)!;
    expect(last.price_usd).toBe(NOW / 1e15);
  });

  test('snapshots older than the window do not appear', async () => {
    const t = marketApp();
    store(t, NOW - HOUR); // exactly one step before the first 1h point (11:05)
    const points = (await history(t, '?window=1h')).json.points;
    expect(points.every((p: { stale: boolean }) => p.stale)).toBe(true);
  });

  test.each(['2h', '', '24H', '1d', '7d;drop'])('window=%s → 400 INVALID_WINDOW with the allowed values', async (window) => {
    const r = await history(marketApp(), `?window=${encodeURIComponent(window)}`);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_WINDOW');
    expect(r.json.error.details).toMatchObject({ allowed: ['1h', '6h', '24h', '7d'], default: '24h', example: '/api/score/history?window=24h' });
  });

  test('mint is null when none is configured, and every point is stale', async () => {
    const t = makeApp();
    const r = await history(t, '?window=1h');
    expect(r.json.mint).toBeNull();
    expect(r.json.points.every((p: object) => JSON.stringify(p) === JSON.stringify({ at: (p as { at: string }).at, ...STALE_NUMBERS }))).toBe(true);
  });

  test('is cached 60 s with an ETag; a new snapshot is in it once they are over', async () => {
    const t = marketApp();
    const first = await history(t, '?window=1h');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.headers.get('content-type')).toContain('application/json');
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    t.clock.advance(30_000);
    const again = await history(t, '?window=1h', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('age')).toBe('30');
    store(t, NOW);
    expect((await history(t, '?window=1h', { 'if-none-match': etag })).status).toBe(304);
    t.clock.advance(30_000);
    const fresh = await history(t, '?window=1h', { 'if-none-match': etag });
    expect(fresh.status).toBe(200);
    expect(fresh.json.points.at(-1).stale).toBe(false);
  });

  test('each window is cached on its own', async () => {
    const t = marketApp();
    expect((await history(t, '?window=1h')).json.window).toBe('1h');
    expect((await history(t, '?window=6h')).json.window).toBe('6h');
    expect((await history(t)).json.window).toBe('24h');
  });

  test('needs no key and no protocol header, and allows any origin', async () => {
    const r = await history(marketApp(), '?window=1h');
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a failed read is 503 SCORE_UNAVAILABLE, never a partial history', async () => {
    const t = marketApp();
    t.db.exec('DROP TABLE market_snapshots');
    const err = console.error;
    console.error = () => {};
    try {
      const r = await history(t, '?window=6h');
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe('SCORE_UNAVAILABLE');
    } finally {
      console.error = err;
    }
  });

  test('is described in the OpenAPI document with its error codes', async () => {
    const op = (await makeApp().call('GET', '/openapi.json')).json.paths['/api/score/history'].get;
    expect(op['x-svc-errors']).toEqual(expect.arrayContaining(['INVALID_WINDOW', 'SCORE_UNAVAILABLE']));
    expect(op.responses['200'].content['application/json'].schema.properties.step_seconds).toBeDefined();
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain('window');
  });
});
