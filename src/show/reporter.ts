// The reporter's routes (docs/decisions.md#show-lane): POST /v1/show/{id}/posted records publication on the outside
// network (only a picked, owner-approved, unflagged root, once; at most 8 a Moscow day), and
// POST /v1/show/{id}/metrics the counters at the 2 h and 24 h checkpoints, each once.
import * as v from 'valibot';
import { type Account, hasRole } from '../accounts/accounts.ts';
import { iso, nextUtcMidnight } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { inTx } from '../db/open.ts';
import { fail, failRetry } from '../http/errors.ts';
import { factsOf } from './labels.ts';
import { type ItemRow, showStore } from './store.ts';

const DAY_MS = 86_400_000;

const count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1e12));

export const PostedBody = v.strictObject({
  url: v.pipe(
    v.string(),
    v.maxLength(500),
    v.url('must be a URL'),
    v.startsWith('https://', 'must be a full https URL'),
    v.description('The published post on the outside network.'),
  ),
  published_at: v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 date-time such as 2026-11-23T12:00:00Z'), v.description('When it went out.')),
});

export const MetricsBody = v.strictObject({
  checkpoint: v.pipe(v.picklist(['2h', '24h'], 'must be "2h" or "24h"'), v.description('About 2 h or 24 h after publication; each recorded once.')),
  likes: count,
  reposts: count,
  replies: count,
  quotes: count,
  impressions: v.pipe(v.optional(v.nullable(count)), v.description('Optional: left out or null when the network did not report them.')),
});

const MetricsSchema = v.strictObject({
  likes: v.number(),
  reposts: v.number(),
  replies: v.number(),
  quotes: v.number(),
  impressions: v.optional(v.number()),
  measured_at: v.string(),
});

export const PostedAnswer = v.strictObject({ id: v.string(), status: v.literal('posted'), url: v.string(), published_at: v.string(), left_today: v.number() });
export const MetricsAnswer = v.strictObject({ id: v.string(), checkpoint: v.picklist(['2h', '24h']), metrics: MetricsSchema });

function reporterOnly(ctx: AppContext, account: Account): void {
  if (!hasRole(ctx, account.id, 'reporter')) fail('NOT_ALLOWED', { role: 'reporter' }, 'Only the reporter records publication and metrics.');
}

function itemOr404(ctx: AppContext, id: string): ItemRow {
  return showStore(ctx.db).liveItem.get(id.toLowerCase()) ?? fail('NOT_FOUND', { id }, 'No live Show root with that id.');
}

export function recordPosted(ctx: AppContext, account: Account, id: string, body: v.InferOutput<typeof PostedBody>): v.InferOutput<typeof PostedAnswer> {
  reporterOnly(ctx, account);
  return inTx(ctx.db, () => {
    const item = itemOr404(ctx, id);
    const f = factsOf(ctx, item.root_id);
    const reasons = [
      ...(item.posted_at !== null ? ['already_posted'] : []),
      ...(f.flags > 0 ? ['flagged'] : []),
      ...(f.desk_picked ? [] : ['not_picked']),
      ...(f.owner_approved ? [] : ['not_owner_approved']),
    ];
    if (reasons.length > 0) fail('SHOW_NOT_PUBLISHABLE', { id: item.root_id, reasons });
    const now = ctx.clock.now();
    const s = showStore(ctx.db);
    const limit = ctx.config.show.publishPerDay;
    // "up to 8 picked posts per day": a day from UTC midnight (docs/decisions.md#paging-and-time), as the spec names no Moscow day here.
    const nextDay = nextUtcMidnight(now);
    const used = s.postedSince.get(nextDay - DAY_MS)!.n;
    if (used >= limit) failRetry('SHOW_PUBLISH_LIMIT', nextDay, now, { limit });
    const published = Date.parse(body.published_at);
    s.markPosted.run(body.url, published, now, account.id, item.root_id);
    return { id: item.root_id, status: 'posted' as const, url: body.url, published_at: iso(published), left_today: limit - used - 1 };
  });
}

export function recordMetrics(ctx: AppContext, account: Account, id: string, body: v.InferOutput<typeof MetricsBody>): v.InferOutput<typeof MetricsAnswer> {
  reporterOnly(ctx, account);
  return inTx(ctx.db, () => {
    const item = itemOr404(ctx, id);
    if (item.posted_at === null) fail('SHOW_NOT_POSTED', { id: item.root_id });
    const s = showStore(ctx.db);
    const prior = s.metricsOf.all(item.root_id).find((m) => m.checkpoint === body.checkpoint);
    if (prior) fail('SHOW_METRICS_RECORDED', { id: item.root_id, checkpoint: body.checkpoint, recorded: metricsView(prior) });
    const now = ctx.clock.now();
    s.insertMetrics.run(item.root_id, body.checkpoint, body.likes, body.reposts, body.replies, body.quotes, body.impressions ?? null, now, account.id);
    const metrics = metricsView({ ...body, impressions: body.impressions ?? null, measured_at: now });
    return { id: item.root_id, checkpoint: body.checkpoint, metrics };
  });
}

export function metricsView(m: { likes: number; reposts: number; replies: number; quotes: number; impressions: number | null; measured_at: number }) {
  return {
    likes: m.likes,
    reposts: m.reposts,
    replies: m.replies,
    quotes: m.quotes,
    ...(m.impressions === null ? {} : { impressions: m.impressions }),
    measured_at: iso(m.measured_at),
  };
}
