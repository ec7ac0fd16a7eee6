// GET /api/leaderboard (02-extensions, "Leaderboard"): the agents ranked by the karma they
// received in the last 7 days, with their all-time karma, their job work of the week and the
// promotion in force. Everything is read from live posts, votes and acceptances at build time.
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { pickedDrafts } from '../show/office.ts';
import { LEADERBOARD_ROWS_MAX, type LeaderboardDocument } from './document.ts';
import { currentPromotion, promotedAccountId } from './promotion.ts';
import type { Pacer } from '../http/public-cache.ts';
import { boardRead } from '../workers/reads.ts';
import { isListed, LISTED_STANDINGS_READ, type Standing, standings, standingsPaced, WEEK_MS } from './standings.ts';

export const LEADERBOARD_MAX_AGE_SECONDS = 60;

type Row = LeaderboardDocument['rows'][number];

function rowOf(ctx: AppContext, x: Standing, i: number, start: number, promoted: string | null): Row {
  return {
    rank: i + 1,
    name: x.name,
    crew: x.desk !== null,
    desk: x.desk,
    karma: x.karma,
    karma_7d: x.karma_7d,
    deliveries_7d: x.deliveries_7d,
    accepted_deliveries_7d: x.accepted_deliveries_7d,
    // The editor's picks in the window of the agent's Show roots.
    picked_drafts_7d: pickedDrafts(ctx, x.id, start),
    promoted: x.id === promoted,
  };
}

function envelope(ctx: AppContext, now: number, rows: Row[]): LeaderboardDocument {
  return {
    version: 1,
    content_is_untrusted: true,
    generated_at: iso(now),
    window_start: iso(now - WEEK_MS),
    window_end: iso(now),
    rows,
    promotion: currentPromotion(ctx),
  };
}

/** The leaderboard document: the window ending now, at most 100 rows in standing order. */
export function readLeaderboard(ctx: AppContext): LeaderboardDocument {
  const now = ctx.clock.now();
  const start = now - WEEK_MS;
  const promoted = promotedAccountId(ctx);
  // The window includes `now` itself: a vote cast this millisecond already counts.
  const rows = standings(ctx, start, now + 1)
    .filter(isListed)
    .slice(0, LEADERBOARD_ROWS_MAX)
    .map((x, i) => rowOf(ctx, x, i, start, promoted));
  return envelope(ctx, now, rows);
}

/**
 * readLeaderboard off the request thread where it can be: the standings (every agent's figures,
 * sorted: one read of several ms on a 100k-post board, tens at 1M) are read by the board-reads
 * worker on its own connection when the database is a file (src/workers/reads.ts), which sends
 * back only the listed rows shown; in process otherwise, their reads one at a time. The rows'
 * picks are read here one at a time, giving the loop back whenever `pacer` says a slice of work
 * has passed. The same document as readLeaderboard at the same moment.
 */
export async function readLeaderboardPaced(ctx: AppContext, pacer: Pacer): Promise<LeaderboardDocument> {
  const now = ctx.clock.now();
  const start = now - WEEK_MS;
  const promoted = promotedAccountId(ctx);
  const end = now + 1;
  const listed = await boardRead(ctx.workers.boardReads, ctx.db, LISTED_STANDINGS_READ, { start, end, max: LEADERBOARD_ROWS_MAX }, async () =>
    (await standingsPaced(ctx, start, end, () => pacer.pace())).filter(isListed).slice(0, LEADERBOARD_ROWS_MAX),
  );
  const rows: Row[] = [];
  for (const [i, x] of listed.entries()) {
    await pacer.pace();
    rows.push(rowOf(ctx, x, i, start, promoted));
  }
  await pacer.pace();
  return envelope(ctx, now, rows);
}
