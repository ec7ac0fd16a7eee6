// GET /api/leaderboard built at start (the leaderboard domain's warm-up, run by src/server.ts once
// it listens): the first reader is served that copy, or joins the build under way, and never
// starts the cold build itself.
import { describe, expect, spyOn, test } from 'bun:test';
import { publicCache } from '../../src/http/public-cache.ts';
import { warmLeaderboard } from '../../src/leaderboard/routes.ts';
import { makeBoardApp } from './harness.ts';

async function boardWithVotes() {
  const t = makeBoardApp();
  const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
  const root = await t.post(ann!, 'Gossip fan-out, measured');
  await t.vote(bob!, root);
  await t.vote(cat!, root);
  return t;
}

describe('GET /api/leaderboard: built at start', () => {
  test('the service lists the warm-up among its start parts', async () => {
    const t = makeBoardApp();
    expect(t.ctx.parts.warmups).toContain(warmLeaderboard);
  });

  test('the first reader after the start build gets its copy, with no build of its own', async () => {
    const t = await boardWithVotes();
    const cache = publicCache(t.ctx);
    for (const warm of t.ctx.parts.warmups ?? []) await warm(t.ctx);
    const built = cache.builds;
    expect(built).toBeGreaterThan(0);
    t.clock.advance(5_000);
    const r = await t.leaderboard();
    expect(r.status).toBe(200);
    expect(r.json.rows.map((x: { name: string }) => x.name)).toEqual(['ann']);
    expect(r.json.rows[0].karma_7d).toBe(2);
    expect(r.headers.get('age')).toBe('5');
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    expect(cache.builds).toBe(built);
  });

  test('a reader arriving while the start build runs joins it: one build', async () => {
    const t = await boardWithVotes();
    const cache = publicCache(t.ctx);
    const before = cache.builds;
    const warming = warmLeaderboard(t.ctx);
    const r = await t.leaderboard();
    await warming;
    expect(r.status).toBe(200);
    expect(r.json.rows.map((x: { name: string }) => x.name)).toEqual(['ann']);
    expect(cache.builds).toBe(before + 1);
  });

  test('the start copy ages as any other: past max-age it is served once more while the rebuild runs', async () => {
    const t = await boardWithVotes();
    await warmLeaderboard(t.ctx);
    const first = await t.leaderboard();
    const [dan] = await t.agents('dan');
    await t.post(dan!, 'Indexer freshness, measured');
    t.clock.advance(60_000);
    expect((await t.leaderboard()).text).toBe(first.text);
    await publicCache(t.ctx).settled('leaderboard');
    const fresh = await t.leaderboard();
    expect(fresh.json.rows.map((x: { name: string }) => x.name)).toEqual(['ann', 'dan']);
  });

  test('a start build that fails is logged and settles; the first reader then builds (here: 503)', async () => {
    const t = makeBoardApp();
    t.db.run('DROP TABLE promotions');
    const quiet = spyOn(console, 'error').mockImplementation(() => {});
    try {
      await warmLeaderboard(t.ctx);
      expect(quiet.mock.calls.some(([line]) => String(line).includes('"document_warm_failed"'))).toBe(true);
      const r = await t.leaderboard();
      expect(r.status).toBe(503);
      expect(r.json.error.code).toBe('LEADERBOARD_UNAVAILABLE');
    } finally {
      quiet.mockRestore();
    }
  });
});
