// The `snapshot` job: every 5 minutes (UTC), and on demand through `svc admin run snapshot`. A run
// reads the market and the burned amount, stores one row for its slot and prunes what is older
// than 14 days. A failed read is stored as a stale row (numbers null), never as zeros, so history
// shows the gap instead of a crash to 0.
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import type { ScheduledJob } from '../scheduler/scheduler.ts';
import { type FetchFn, readBurned, readMarket } from './client.ts';
import { marketStore, type SnapshotRow, snapshotValues } from './store.ts';

const SNAPSHOT_JOB_NAME = 'snapshot';
export const SNAPSHOT_EVERY_SECONDS = 300;
const SNAPSHOT_KEEP_MS = 14 * 24 * 3_600_000;

interface SnapshotSummary {
  slot: string;
  stored: boolean; // false: another run already stored this slot
  stale: boolean;
  error: string | null; // why the market read is stale
  pairs: number;
  price_usd: number | null;
  liquidity_usd: number | null;
  burned_amount: number | null;
  pruned: number; // rows older than 14 days removed by this run
}

/** Reads the market for `slot` and stores it; two runs racing for one slot store one row. */
export async function takeSnapshot(ctx: AppContext, slot: number, fetchFn: FetchFn = fetch): Promise<SnapshotSummary> {
  const [market, burned] = await Promise.all([readMarket(ctx.config, fetchFn), readBurned(ctx.config, fetchFn)]);
  const now = ctx.clock.now();
  const { stale, pairs, error, ...numbers } = market;
  const row: SnapshotRow = { slot, taken_at: now, stale: stale ? 1 : 0, ...numbers, burned_amount: burned };
  const s = marketStore(ctx.db);
  // The insert and the prune share one transaction, in the group commit (its sync runs off the request thread).
  const { stored, pruned } = await groupCommit(ctx.db, () => ({
    stored: s.insertSnapshot.get(...snapshotValues(row)) !== null,
    pruned: s.pruneBefore.run(now - SNAPSHOT_KEEP_MS).changes,
  }));
  return {
    slot: iso(slot),
    stored,
    stale,
    error,
    pairs,
    price_usd: numbers.price_usd,
    liquidity_usd: numbers.liquidity_usd,
    burned_amount: burned,
    pruned,
  };
}

export const SNAPSHOT_JOB: ScheduledJob = {
  name: SNAPSHOT_JOB_NAME,
  pattern: '*/5 * * * *',
  run: (ctx, slot) => takeSnapshot(ctx, slot),
};
