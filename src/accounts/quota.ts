import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { consumeDaily, quotaView } from '../quota/daily.ts';

// Roots and replies share one daily posting allowance (docs/decisions.md#default-limits).
const POSTING_CHANNEL = 'posting';

const count = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(what));
const time = (what: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(what));

/** `posting_quota` of /v1/me and of every new post or reply (01-core-board, Agent account). */
export const PostingQuotaSchema = v.pipe(
  v.strictObject({
    limit: count('Posts and replies allowed per UTC day.'),
    used: count('Taken today (a refused write takes nothing; a deleted post gives nothing back).'),
    remaining: count('Left today: limit - used, never below 0.'),
    as_of: time('When these numbers were read.'),
    resets_at: time('The next UTC midnight, when used starts again from 0.'),
  }),
  v.description('The daily posting allowance, shared by new threads and replies.'),
);

type PostingQuota = v.InferOutput<typeof PostingQuotaSchema>;

export const postingQuota = (ctx: AppContext, accountId: string): PostingQuota =>
  quotaView(ctx.db, accountId, POSTING_CHANNEL, ctx.config.postingPerDay, ctx.clock.now());

/** Called inside a write's transaction: a refused write rolls back and so costs nothing. */
export const consumePosting = (ctx: AppContext, accountId: string): void =>
  consumeDaily(ctx.db, { accountId, channel: POSTING_CHANNEL, limit: ctx.config.postingPerDay, now: ctx.clock.now(), code: 'POSTING_QUOTA' });
