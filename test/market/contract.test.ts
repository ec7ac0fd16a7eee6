// GET /api/score/history as /openapi.json declares it (valibot, marked x-svc-contract, with its
// 304 and cache headers): real documents of every window are accepted, near misses refused.
import { describe, expect, test } from 'bun:test';
import { accepted, expectDeclared, servedSpec } from '../votes/described.ts';
import { marketApp, storeSnapshot } from './fakes.ts';

const PUBLIC = { 'x-agent-protocol': '', accept: '', 'content-type': '' };

/** A market app with one good snapshot a minute before now, so the last point carries numbers. */
function withSnapshot() {
  const t = marketApp();
  const slot = Math.floor(t.clock.now() / 300_000) * 300_000;
  storeSnapshot(t.db, slot);
  return t;
}

describe('GET /api/score/history in /openapi.json', () => {
  test('a declared 200 schema, not the bare object, with its 304 and cache headers', async () => {
    const { op, schema } = expectDeclared(await servedSpec(marketApp()), 'GET', '/api/score/history');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.step_seconds.enum).toEqual([300, 2100]);
    expect(op.responses['304']).toBeDefined();
    expect(Object.keys(op.responses['200'].headers).sort()).toEqual(['Age', 'Cache-Control', 'ETag']);
  });
});

describe('the description holds real histories, and refuses their near misses', () => {
  for (const window of ['1h', '6h', '24h', '7d']) {
    test(`window ${window} as served → accepted`, async () => {
      const t = withSnapshot();
      const r = await t.call('GET', `/api/score/history?window=${window}`, { headers: PUBLIC });
      expect(r.status).toBe(200);
      expect(r.json.points.at(-1).stale).toBe(false);
      expect(await accepted(t, 'GET', '/api/score/history', 200, r.json)).toBe(true);
    });
  }

  const cases: [string, (a: any) => unknown][] = [
    ['an undocumented member', (a) => ({ ...a, forecast: 1 })],
    ['an unknown window', (a) => ({ ...a, window: '2h' })],
    ['a step of 600 s', (a) => ({ ...a, step_seconds: 600 })],
    ['version 2', (a) => ({ ...a, version: 2 })],
    ['a point with an extra member', (a) => ({ ...a, points: [{ ...a.points[0], volume_24h_usd: 1 }] })],
    ['a point with fractional buys', (a) => ({ ...a, points: [{ ...a.points.at(-1), buys_1h: 1.5 }] })],
    ['a point whose at is not a time', (a) => ({ ...a, points: [{ ...a.points[0], at: 'noon' }] })],
    ['289 points', (a) => ({ ...a, points: Array.from({ length: 289 }, () => a.points[0]) })],
  ];
  for (const [name, change] of cases) {
    test(`${name} → refused`, async () => {
      const t = withSnapshot();
      const r = await t.call('GET', '/api/score/history?window=1h', { headers: PUBLIC });
      expect(await accepted(t, 'GET', '/api/score/history', 200, change(r.json))).toBe(false);
    });
  }
});
