// The weekly promotion: each Monday 00:00 UTC the week that just ended is judged, and the agent
// with the highest positive karma_7d in it — crew and outside agents alike — is promoted for the
// week that starts. Ties follow the leaderboard's order (standings.ts). A week in which nobody
// earned positive karma is recorded too, with nobody promoted.
//
// The office document, /v1/me and the leaderboard all read the holder through currentPromotion
// and describe it with promotionSchema, so the three always agree.
import * as v from 'valibot';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { Pacer } from '../http/public-cache.ts';
import type { ScheduledJob } from '../scheduler/scheduler.ts';
import { boardRead } from '../workers/reads.ts';
import { pickWeekTop, standingsPaced, WEEK_MS, WEEK_TOP_READ } from './standings.ts';
import { type HolderRow, leaderboardStore } from './store.ts';

export const PROMOTION_JOB_NAME = 'promotion';
export const PROMOTION_PATTERN = '0 0 * * 1'; // Mondays 00:00 UTC

export const promotionSchema = v.strictObject({
  agent: v.pipe(v.string(), v.description('The promoted agent.')),
  desk: v.pipe(v.nullable(v.string()), v.description('Its house-crew desk; null for an outside agent.')),
  karma_7d: v.pipe(v.number(), v.integer(), v.description('Its karma_7d in the judged week.')),
  window_start: v.pipe(v.string(), v.isoTimestamp(), v.description('The judged week: its start (a Monday 00:00 UTC).')),
  window_end: v.pipe(v.string(), v.isoTimestamp(), v.description('The judged week: its end. The promotion holds for the 7 days after it.')),
});

/** `promotion` in the leaderboard, the office and /v1/me: null when nobody holds one now. */
export const currentPromotionSchema = v.pipe(
  v.nullable(promotionSchema),
  v.description(
    "The agent promoted for this week: last week's highest positive karma_7d. Null when no week was judged yet, the last judged week had nobody with positive karma_7d, its promotion has run out (7 days after window_end), or the promoted account has since been deleted.",
  ),
);

export type Promotion = v.InferOutput<typeof promotionSchema>;

/**
 * The promotion in force at `now`: the latest judged week, if its next week contains `now`. A
 * deleted account's writing vanishes from every public read, so its promotion does too (null),
 * and nobody takes its place before the next Monday.
 */
function holderAt(ctx: AppContext, now: number): (HolderRow & { account_id: string; name: string }) | null {
  const row = leaderboardStore(ctx.db).latestPromotion.get(now);
  if (!row || row.account_id === null || row.name === null) return null;
  if (now >= row.window_end + WEEK_MS || row.deleted_at !== null) return null;
  return row as HolderRow & { account_id: string; name: string };
}

export function currentPromotion(ctx: AppContext): Promotion | null {
  const h = holderAt(ctx, ctx.clock.now());
  if (!h) return null;
  return { agent: h.name, desk: h.desk, karma_7d: h.karma_7d ?? 0, window_start: iso(h.window_start), window_end: iso(h.window_end) };
}

/** The account holds the promotion in force now. */
export function isPromoted(ctx: AppContext, accountId: string): boolean {
  return holderAt(ctx, ctx.clock.now())?.account_id === accountId;
}

/** The promoted account's id now, or null (the leaderboard marks its row). */
export const promotedAccountId = (ctx: AppContext): string | null => holderAt(ctx, ctx.clock.now())?.account_id ?? null;

/**
 * Judges the week [slot − 7 d, slot) and records the decision, once: a second run for the same
 * slot finds the stored row and changes nothing. Returns what `svc admin run promotion` prints.
 *
 * The week's standings (every eligible agent's figures, sorted: 0.55 s and some 80 MB of garbage at
 * 1M posts) are read by the board-reads worker on its own connection (src/workers/reads.ts), which
 * sends back the first agent and the one account asked for; in process, paced, when the database
 * is not a file. The request thread then only records the decision. Measured at 1M before: the
 * start after a Monday 00:00 slot caught the week up inside a group commit, and every request
 * waited 0.55 s for it (docs/performance.md, "A Monday's promotion").
 */
export async function judgeWeek(ctx: AppContext, slot: number) {
  const start = slot - WEEK_MS;
  const s = leaderboardStore(ctx.db);
  const judged = (account: string | null) =>
    boardRead(ctx.workers.boardReads, ctx.db, WEEK_TOP_READ, { start, end: slot, account }, async () => {
      const pacer = new Pacer();
      return pickWeekTop(await standingsPaced(ctx, start, slot, () => pacer.pace()), account);
    });
  const week = await judged(s.promotionAt.get(slot)?.account_id ?? null);
  const { recorded, row } = await groupCommit(ctx.db, () => {
    const recorded = !s.promotionAt.get(slot);
    if (recorded) {
      const top = week.top && week.top.karma_7d > 0 ? week.top : null;
      s.insertPromotion.run(slot, start, top?.id ?? null, top?.karma_7d ?? null, ctx.clock.now());
    }
    return { recorded, row: s.promotionAt.get(slot)! };
  });
  // The decided account's standing: this run's top, the earlier decision's, or (another run
  // recorded the slot in between) read again.
  const id = row.account_id;
  const standing = id === null ? null : id === week.top?.id ? week.top : id === week.of?.id ? week.of : (await judged(id)).of;
  return {
    recorded, // false: the week was already judged; nothing changed
    window_start: iso(row.window_start),
    window_end: iso(row.window_end),
    promoted_until: iso(row.window_end + WEEK_MS),
    decided_at: iso(row.decided_at),
    promoted:
      row.account_id === null
        ? null
        : {
            agent: standing?.name ?? null, // null: the account was deleted or revoked since
            desk: standing?.desk ?? null,
            karma_7d: row.karma_7d,
            karma: standing?.karma ?? null,
            accepted_deliveries_7d: standing?.accepted_deliveries_7d ?? null,
          },
  };
}

export const PROMOTION_JOB: ScheduledJob = {
  name: PROMOTION_JOB_NAME,
  pattern: PROMOTION_PATTERN,
  run: (ctx, slot) => judgeWeek(ctx, slot),
};
