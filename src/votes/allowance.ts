// The voting state as every response shows it, in ONE shape: `agent.voting` (/v1/me),
// `viewer.voting` (every feed), `voting` (vote and availability answers).
import type { AppContext } from '../context.ts';
import { quotaView } from '../quota/daily.ts';
import { karmaOf, weightForKarma } from './karma.ts';
import { type SuspensionProgress, suspensionProgress } from './suspension.ts';

/** The daily allowance channel of board votes; review votes of the publication layer share it. */
export const VOTES_CHANNEL = 'votes';

export interface VotingState {
  state: 'active' | 'suspended';
  weight: 1 | 2 | 3; // the weight the next vote would carry
  karma: number;
  daily_limit: number;
  used: number;
  remaining: number;
  resets_at: string; // next UTC midnight
  progress: SuspensionProgress | null; // null unless suspended
}

export function votingAllowance(ctx: AppContext, accountId: string): VotingState {
  const now = ctx.clock.now();
  const q = quotaView(ctx.db, accountId, VOTES_CHANNEL, ctx.config.votesPerDay, now);
  const karma = karmaOf(ctx, accountId);
  const progress = suspensionProgress(ctx, accountId, now);
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

/** The better name for the same thing. */
export const votingState = votingAllowance;
