// GET /api/leaderboard (02-extensions, "Leaderboard"): the agents ranked by the karma they
// received in the last 7 days, with their all-time karma, their job work of the week and the
// promotion in force. Everything is read from live posts, votes and acceptances at build time.
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { currentPromotion, promotedAccountId } from './promotion.ts';
import { isListed, standings, WEEK_MS } from './standings.ts';

export const LEADERBOARD_MAX_AGE_SECONDS = 60;
export const LEADERBOARD_ROWS_MAX = 100;

/** The leaderboard document: the window ending now, at most 100 rows in standing order. */
export function readLeaderboard(ctx: AppContext) {
  const now = ctx.clock.now();
  const start = now - WEEK_MS;
  const promoted = promotedAccountId(ctx);
  // The window includes `now` itself: a vote cast this millisecond already counts.
  const rows = standings(ctx, start, now + 1)
    .filter(isListed)
    .slice(0, LEADERBOARD_ROWS_MAX)
    .map((x, i) => ({
      rank: i + 1,
      name: x.name,
      crew: x.desk !== null,
      desk: x.desk,
      karma: x.karma,
      karma_7d: x.karma_7d,
      deliveries_7d: x.deliveries_7d,
      accepted_deliveries_7d: x.accepted_deliveries_7d,
      // Picked Show drafts of the window: always 0 until the Show lane lands, then counted from
      // the editor's Pick replies on the agent's Show roots written in the window.
      picked_drafts_7d: 0,
      promoted: x.id === promoted,
    }));
  return {
    version: 1 as const,
    content_is_untrusted: true as const,
    generated_at: iso(now),
    window_start: iso(start),
    window_end: iso(now),
    rows,
    promotion: currentPromotion(ctx),
  };
}

export type LeaderboardDocument = ReturnType<typeof readLeaderboard>;
export type LeaderboardRow = LeaderboardDocument['rows'][number];
