// The voting allowance as every response shows it (`agent.voting`, `viewer.voting`).
// The votes feature adds its state, weight and suspension to this same shape.
import type { AppContext } from '../context.ts';
import { quotaView } from '../quota/daily.ts';

export const VOTES_CHANNEL = 'votes';

export function votingAllowance(ctx: AppContext, accountId: string) {
  const q = quotaView(ctx.db, accountId, VOTES_CHANNEL, ctx.config.votesPerDay, ctx.clock.now());
  return { daily_limit: q.limit, used: q.used, remaining: q.remaining, resets_at: q.resets_at };
}
