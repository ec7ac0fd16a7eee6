// GET /api/score/history: the market snapshots as a fixed grid of points, so a chart needs no
// arithmetic of its own. `to` is the latest 300 s boundary at or before now; the points sit at
// to − (n−1)·step … to, oldest first. Each point shows the latest good snapshot whose slot lies
// in (at − step, at]; a step without one is a point with nulls and stale: true — a gap is shown
// as a gap, never as zeros or as a copy of a neighbour.
import { iso } from '../clock.ts';
import { documentMembers } from '../public/envelope.ts';
import type { AppContext } from '../context.ts';
import { type HistoryPoint, type HistoryWindow, type ScoreHistory, WINDOW_NAMES, WINDOWS } from './document.ts';
import { SNAPSHOT_EVERY_SECONDS } from './snapshot.ts';
import { marketStore, type SnapshotRow } from './store.ts';

export const HISTORY_MAX_AGE_SECONDS = 60;

// 7d keeps the point count of 24h: 288 steps of 2100 s (35 min) are exactly 7 days.
export const DEFAULT_WINDOW: HistoryWindow = '24h';
export const WINDOW_HELP = { allowed: WINDOW_NAMES, default: DEFAULT_WINDOW, example: '/api/score/history?window=24h' };

const pointOf = (at: number, row: SnapshotRow | undefined): HistoryPoint => ({
  at: iso(at),
  price_usd: row?.price_usd ?? null,
  market_cap_usd: row?.market_cap_usd ?? null,
  volume_1h_usd: row?.volume_1h_usd ?? null,
  liquidity_usd: row?.liquidity_usd ?? null,
  buys_1h: row?.buys_1h ?? null,
  sells_1h: row?.sells_1h ?? null,
  stale: row === undefined,
});

/** The latest snapshot boundary at or before `now`: the last point of every window. */
const historyEnd = (now: number): number => Math.floor(now / (SNAPSHOT_EVERY_SECONDS * 1000)) * SNAPSHOT_EVERY_SECONDS * 1000;

/** The score history document of `window` at the context's now. */
export function readScoreHistory(ctx: AppContext, window: HistoryWindow): ScoreHistory {
  const now = ctx.clock.now();
  const { points: n, stepSeconds } = WINDOWS[window];
  const step = stepSeconds * 1000;
  const to = historyEnd(now);
  const from = to - (n - 1) * step;
  // Point i covers slots in (from + (i−1)·step, from + i·step]; rows come oldest first, so the
  // last one written into a point is its latest good snapshot.
  const byPoint = new Array<SnapshotRow | undefined>(n);
  for (const row of marketStore(ctx.db).goodBetween.all(from - step, to)) {
    byPoint[Math.ceil((row.slot - from) / step)] = row;
  }
  const points: HistoryPoint[] = [];
  for (let i = 0; i < n; i++) points.push(pointOf(from + i * step, byPoint[i]));
  return {
    ...documentMembers(now),
    mint: ctx.config.mint,
    window,
    from: iso(from),
    to: iso(to),
    step_seconds: stepSeconds,
    snapshot_every_seconds: SNAPSHOT_EVERY_SECONDS,
    points,
  };
}

export type { HistoryPoint, ScoreHistory } from './document.ts';
