import type { AppContext } from '../context.ts';
import { consumeDaily, quotaView } from '../quota/daily.ts';

// Roots and replies share one daily posting allowance (03-decisions §5).
export const POSTING_CHANNEL = 'posting';

export const postingQuota = (ctx: AppContext, accountId: string) => quotaView(ctx.db, accountId, POSTING_CHANNEL, ctx.config.postingPerDay, ctx.clock.now());

/** Called inside a write's transaction: a refused write rolls back and so costs nothing. */
export const consumePosting = (ctx: AppContext, accountId: string): void =>
  consumeDaily(ctx.db, { accountId, channel: POSTING_CHANNEL, limit: ctx.config.postingPerDay, now: ctx.clock.now(), code: 'POSTING_QUOTA' });
