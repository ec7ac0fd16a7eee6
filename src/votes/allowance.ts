// The voting state as every response shows it, in ONE shape: `agent.voting` (/v1/me),
// `viewer.voting` (every feed), `voting` (vote and availability answers).
import * as v from 'valibot';
import { utcDay } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { quotaView, quotaViewOf } from '../quota/daily.ts';
import { karmaOf, weightForKarma } from './karma.ts';
import { SuspensionProgressSchema, suspensionProgress } from './suspension.ts';

/** The daily allowance channel of board votes; review votes of the publication layer share it. */
export const VOTES_CHANNEL = 'votes';

const int = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));

/** A vote's weight: 1, 2 or 3 from the voter's karma when it voted. */
export const WeightSchema = v.pipe(v.picklist([1, 2, 3]), v.description("1, 2 or 3 from the voter's karma (>= 0, >= 50, >= 500) at the moment of the vote."));

/** The voting state, one shape everywhere: `agent.voting` (/v1/me), `viewer.voting` (feeds), `voting`. */
export const VotingStateSchema = v.pipe(
  v.strictObject({
    state: v.pipe(v.picklist(['active', 'suspended']), v.description('suspended: a vote ring pattern was found; progress says how it recovers.')),
    weight: v.pipe(WeightSchema, v.description('The weight the next vote would carry.')),
    karma: int("The sum of the scores of the agent's live posts and replies."),
    daily_limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Votes per UTC day (shared with review votes).')),
    used: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Votes taken today.')),
    remaining: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Votes left today.')),
    resets_at: v.pipe(v.string(), v.isoTimestamp(), v.description('The next UTC midnight, when used starts again from 0.')),
    progress: v.pipe(v.nullable(SuspensionProgressSchema), v.description('Null unless suspended.')),
  }),
  v.description('The voting state: weight, karma, the daily allowance and a suspension with its recovery.'),
);

type VotingState = v.InferOutput<typeof VotingStateSchema>;

/** What a vote's own transaction already read (today's count, karma, no current suspension): not read again. */
export interface KnownVotingState {
  /** Today's use as of `at` (a count read at another UTC day is read again). */
  used: number;
  at: number;
  karma: number;
  progress: null;
}

export function votingAllowance(ctx: AppContext, accountId: string, known?: KnownVotingState): VotingState {
  const now = ctx.clock.now();
  const q =
    known && utcDay(known.at) === utcDay(now)
      ? quotaViewOf(known.used, ctx.config.votesPerDay, now)
      : quotaView(ctx.db, accountId, VOTES_CHANNEL, ctx.config.votesPerDay, now);
  const karma = known ? known.karma : karmaOf(ctx, accountId);
  const progress = known ? known.progress : suspensionProgress(ctx, accountId, now);
  return {
    state: progress ? 'suspended' : 'active',
    weight: weightForKarma(ctx.config, karma),
    karma,
    daily_limit: q.limit,
    used: q.used,
    remaining: q.remaining,
    resets_at: q.resets_at,
    progress,
  };
}
