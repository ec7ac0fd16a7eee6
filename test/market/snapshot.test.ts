// The snapshot job: one row per 5-minute slot, stale rows (nulls) for failed reads, 14 days kept.
import { afterAll, describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { marketStore, type SnapshotRow } from '../../src/market/store.ts';
import { SNAPSHOT_JOB, takeSnapshot } from '../../src/market/snapshot.ts';
import { runJob, slotOf } from '../../src/scheduler/scheduler.ts';
import { closedUrl, dexAnswer, fakeServer, marketApp, pair, supplyAnswer } from './fakes.ts';

const market = fakeServer(() => dexAnswer([pair()]));
const rpc = fakeServer(() => supplyAnswer('999990000'));
afterAll(() => {
  market.stop();
  rpc.stop();
});

const DAY = 24 * 3_600_000;
const rows = (db: { query: (sql: string) => { all: () => unknown[] } }) => db.query('SELECT * FROM market_snapshots ORDER BY slot').all() as SnapshotRow[];

describe('the snapshot job', () => {
  test('is one of the service jobs as "snapshot", every 5 minutes', () => {
    const job = marketApp().ctx.parts.jobs.find((j) => j.name === 'snapshot');
    expect(job).toBeDefined();
    expect(job!.pattern).toBe('*/5 * * * *');
  });

  test('stores the reading and the burned amount under its slot', async () => {
    market.answer(() => dexAnswer([pair()]));
    rpc.answer(() => supplyAnswer('999990000'));
    const t = marketApp({ market: market.url, rpc: rpc.url });
    const slot = slotOf(SNAPSHOT_JOB.pattern, t.clock.now());
    t.clock.advance(4_000);
    const summary = await takeSnapshot(t.ctx, slot);
    expect(summary).toEqual({
      slot: '2026-11-23T12:00:00.000Z',
      stored: true,
      stale: false,
      error: null,
      pairs: 1,
      price_usd: 0.0123,
      liquidity_usd: 50_000,
      burned_amount: 10_000,
      pruned: 0,
    });
    expect(rows(t.db)).toEqual([
      {
        slot,
        taken_at: slot + 4_000,
        stale: 0,
        price_usd: 0.0123,
        market_cap_usd: 120_000,
        price_change_1h_pct: 1.5,
        price_change_6h_pct: -2,
        price_change_24h_pct: 10,
        volume_1h_usd: 100,
        volume_6h_usd: 600,
        volume_24h_usd: 2400,
        liquidity_usd: 50_000,
        buys_1h: 10,
        sells_1h: 4,
        burned_amount: 10_000,
      },
    ]);
  });

  test('a failed read is stored as a stale row with null numbers, never zeros', async () => {
    const t = marketApp({ market: closedUrl() });
    const summary = await takeSnapshot(t.ctx, t.clock.now());
    expect(summary).toMatchObject({ stored: true, stale: true, error: 'unreachable', price_usd: null, burned_amount: null });
    const [row] = rows(t.db);
    expect(row!.stale).toBe(1);
    for (const [k, v] of Object.entries(row!)) if (!['slot', 'taken_at', 'stale'].includes(k)) expect(v, k).toBeNull();
  });

  test('without a market configured every run stores a stale row', async () => {
    const t = marketApp();
    expect(await takeSnapshot(t.ctx, t.clock.now())).toMatchObject({ stored: true, stale: true, error: 'not configured' });
    expect(rows(t.db)[0]!.stale).toBe(1);
  });

  test('two runs racing for one slot store one row', async () => {
    market.answer(() => dexAnswer([pair()]));
    const t = marketApp({ market: market.url });
    const slot = t.clock.now();
    const [a, b] = await Promise.all([takeSnapshot(t.ctx, slot), takeSnapshot(t.ctx, slot)]);
    expect(market.calls).toBe(2); // both really read
    expect([a.stored, b.stored].sort()).toEqual([false, true]);
    expect(rows(t.db)).toHaveLength(1);
  });

  test('rows older than 14 days are pruned; a row exactly 14 days old stays', async () => {
    const t = marketApp();
    const start = t.clock.now();
    await takeSnapshot(t.ctx, start - 300_000);
    await takeSnapshot(t.ctx, start);
    t.clock.set(start + 14 * DAY);
    const summary = await takeSnapshot(t.ctx, start + 14 * DAY);
    expect(summary.pruned).toBe(1);
    expect(rows(t.db).map((r) => r.slot)).toEqual([start, start + 14 * DAY]);
  });

  test('the scheduler runs a slot once: a second claim of the same slot does not run', async () => {
    market.answer(() => dexAnswer([pair()]));
    const t = marketApp({ market: market.url });
    const first = await runJob(t.ctx, SNAPSHOT_JOB, 'schedule');
    t.clock.advance(60_000);
    const again = await runJob(t.ctx, SNAPSHOT_JOB, 'catch_up');
    expect(first).toMatchObject({ job: 'snapshot', slot: '2026-11-23T12:00:00.000Z', ran: true, status: 'done', result: { stored: true, stale: false } });
    expect(again).toMatchObject({ ran: false });
    expect(market.calls).toBe(1);
    const runs = t.db.query("SELECT job, slot, status FROM job_runs WHERE job = 'snapshot'").all();
    expect(runs).toEqual([{ job: 'snapshot', slot: Date.parse('2026-11-23T12:00:00Z'), status: 'done' }]);
    t.clock.advance(240_000);
    expect(await runJob(t.ctx, SNAPSHOT_JOB, 'schedule')).toMatchObject({ ran: true, slot: '2026-11-23T12:05:00.000Z' });
    expect(rows(t.db)).toHaveLength(2);
  });

  test('`svc admin run snapshot` runs it now and returns what it did', async () => {
    market.answer(() => dexAnswer([pair()]));
    const t = marketApp({ market: market.url, start: '2026-11-23T12:07:30Z' });
    const outcome = (await runAdmin(t.ctx, ['run', 'snapshot'])) as { ran: boolean; result: unknown };
    expect(outcome).toMatchObject({ job: 'snapshot', trigger: 'manual', ran: true, status: 'done' });
    expect(outcome.result).toMatchObject({ slot: '2026-11-23T12:05:00.000Z', stored: true, stale: false, price_usd: 0.0123 });
    expect(marketStore(t.db).latest.get()!.slot).toBe(Date.parse('2026-11-23T12:05:00Z'));
  });
});
