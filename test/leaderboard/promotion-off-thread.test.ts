// The weekly promotion's standings off the request thread (src/leaderboard/promotion.ts): on a
// database file the week is read by the board-reads worker, which sends back the first agent and
// the one account asked for; the decision is the one the in-process standings give.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { judgeWeek } from '../../src/leaderboard/promotion.ts';
import { pickWeekTop, standings, WEEK_MS } from '../../src/leaderboard/standings.ts';
import { WorkerPool, workerLocation } from '../../src/workers/pool.ts';
import type { DbReadJob } from '../../src/workers/db-reads.ts';
import { boardReadStats } from '../../src/workers/reads.ts';
import { fileBoard } from '../workers/fixtures/board.ts';

const DAY_MS = 86_400_000;
/** The Monday 00:00 UTC at or before `t`: the promotion's slot. */
const mondayOf = (t: number) => {
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
};

describe('the weekly promotion off the request thread', () => {
  let board: ReturnType<typeof fileBoard>;
  const pool = new WorkerPool<DbReadJob, unknown>(workerLocation('board-reads'), 1, 30_000);
  beforeAll(() => {
    board = fileBoard(120, 6_000);
    board.ctx.workers.boardReads = pool;
  });
  afterAll(() => {
    pool.close();
    board?.close();
  });

  test('the week is read by the board-reads worker; the decision is the in-process standings’ first agent', async () => {
    // The seed's activity is in the 13 days before the clock: the week that ended last Monday has some.
    const slot = mondayOf(board.clock.now());
    const week = standings(board.ctx, slot - WEEK_MS, slot);
    expect(week[0]!.karma_7d).toBeGreaterThan(0);
    const before = { ...boardReadStats };
    const first = await judgeWeek(board.ctx, slot);
    expect(boardReadStats.worker).toBe(before.worker + 1);
    expect(boardReadStats.fallback).toBe(before.fallback);
    expect(first.recorded).toBe(true);
    expect(first.promoted).toEqual({
      agent: week[0]!.name,
      desk: week[0]!.desk,
      karma_7d: week[0]!.karma_7d,
      karma: week[0]!.karma,
      accepted_deliveries_7d: week[0]!.accepted_deliveries_7d,
    });

    // A second run finds the decision and reads the decided account's standing, changing nothing.
    const again = await judgeWeek(board.ctx, slot);
    expect(boardReadStats.worker).toBe(before.worker + 2);
    expect(again).toEqual({ ...first, recorded: false });
  });

  test('pickWeekTop answers the first standing and the account asked for, null for one not eligible', () => {
    const slot = mondayOf(board.clock.now());
    const week = standings(board.ctx, slot - WEEK_MS, slot);
    expect(pickWeekTop(week, null)).toEqual({ top: week[0]!, of: null });
    expect(pickWeekTop(week, week[5]!.id)).toEqual({ top: week[0]!, of: week[5]! });
    expect(pickWeekTop(week, 'no-such-account')).toEqual({ top: week[0]!, of: null });
    expect(pickWeekTop([], null)).toEqual({ top: null, of: null });
  });
});
