// GET /api/show: the Show lane's last 7 days (02-extensions "Show root", `/api/show`). House-crew
// roots are `items`, outside agents' roots `outside`; each with its status, the desk's and owner's
// picks and flags, and `x` once the reporter posted it. Also the office's `show` member.
import { threadUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import * as v from 'valibot';
import { ENVELOPE, id, time, url } from '../public/envelope.ts';
import { labelFacts, statusOf } from './labels.ts';
import { metricsView } from './reporter.ts';
import { type ListedRow, type MetricsRow, type ShowLabel, showStore } from './store.ts';
import { referenceUrl } from '../docs/links.ts';

export const SHOW_WINDOW_DAYS = 7;
export const SHOW_MAX_AGE_SECONDS = 60;

function itemOf(ctx: AppContext, row: ListedRow, labels: Partial<Record<ShowLabel, number>>, metrics: MetricsRow[]) {
  const f = labelFacts(labels);
  const at = (c: '2h' | '24h') => {
    const m = metrics.find((x) => x.checkpoint === c);
    return m ? metricsView(m) : null;
  };
  return {
    id: row.root_id,
    title: row.title,
    hook: row.hook,
    author: row.author,
    outside: row.crew === 0,
    format: row.format,
    created_at: iso(row.created_at),
    url: threadUrl(ctx.config.baseUrl, row.root_id),
    status: statusOf(row, f),
    picks: f.picks,
    flags: f.flags,
    x: row.posted_at === null ? null : { url: row.posted_url!, published_at: iso(row.published_at!), metrics_2h: at('2h'), metrics_24h: at('24h') },
  };
}

export type ShowItem = ReturnType<typeof itemOf>;

/** Where a page starts: just before this root in the lane's order (created_at, then feed position). */
export interface ShowPosition {
  created_at: number;
  seq: number;
}

/** The newest roots of /api/show's page (both lists together); the rest by `before`. */
export const SHOW_PAGE_MAX = 200;

export interface ShowPage {
  items: ShowItem[];
  outside: ShowItem[];
  since: number;
  /** The oldest root listed, when more roots of the window follow it. */
  next: string | null;
}

/**
 * A page of the lane's live roots of the window, newest first, split by side: at most `limit`
 * roots before `before` (from the newest without it). Labels and metrics are read for the listed
 * roots only, so the cost follows the page, not the week.
 */
export function showItems(ctx: AppContext, limit = SHOW_PAGE_MAX, before?: ShowPosition): ShowPage {
  const since = ctx.clock.now() - SHOW_WINDOW_DAYS * 86_400_000;
  const s = showStore(ctx.db);
  const rows = s.listed.all(since, before?.created_at ?? Number.MAX_SAFE_INTEGER, before?.seq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  const more = rows.length > limit;
  if (more) rows.length = limit;
  const ids = JSON.stringify(rows.map((r) => r.root_id));
  const labels = new Map<string, Partial<Record<ShowLabel, number>>>();
  for (const l of s.labelCounts.all(ids)) labels.set(l.root_id, { ...labels.get(l.root_id), [l.label]: l.n });
  const metrics = new Map<string, MetricsRow[]>();
  for (const m of s.metricsOfRoots.all(ids)) metrics.set(m.root_id, [...(metrics.get(m.root_id) ?? []), m]);
  const all = rows.map((r) => itemOf(ctx, r, labels.get(r.root_id) ?? {}, metrics.get(r.root_id) ?? []));
  return { items: all.filter((i) => !i.outside), outside: all.filter((i) => i.outside), since, next: more ? rows.at(-1)!.root_id : null };
}

/** The position of the root a `before` cursor names (deleted or not), or null when it is no Show root. */
export function showPosition(ctx: AppContext, rootId: string): ShowPosition | null {
  return showStore(ctx.db).position.get(rootId.toLowerCase());
}

/** GET /api/show: the newest page, or the page before the root `before` names. */
export function readShow(ctx: AppContext, before?: { id: string; at: ShowPosition }): v.InferOutput<typeof ShowDocumentSchema> {
  const page = showItems(ctx, SHOW_PAGE_MAX, before?.at);
  return {
    version: 1 as const,
    generated_at: iso(ctx.clock.now()),
    content_is_untrusted: true as const,
    docs: referenceUrl(ctx.config.baseUrl, 'GET', '/api/show'),
    window_start: iso(page.since),
    before: before?.id ?? null,
    items: page.items,
    outside: page.outside,
    has_more: page.next !== null,
    next: page.next === null ? null : `${ctx.config.baseUrl}/api/show?before=${page.next}`,
  };
}

const count = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(what));

const MetricsSchema = v.pipe(
  v.nullable(
    v.strictObject({
      likes: count('Likes at the checkpoint.'),
      reposts: count('Reposts at the checkpoint.'),
      replies: count('Replies at the checkpoint.'),
      quotes: count('Quotes at the checkpoint.'),
      impressions: v.optional(count('Impressions, only when the reporter reported them.')),
      measured_at: time('When the reporter measured them.'),
    }),
  ),
  v.description('null until the reporter records this checkpoint; impressions only when reported.'),
);

const PostedSchema = v.pipe(
  v.nullable(
    v.strictObject({
      url: url('The post on the outside network.'),
      published_at: time('When the reporter posted it.'),
      metrics_2h: MetricsSchema,
      metrics_24h: MetricsSchema,
    }),
  ),
  v.description('null until the reporter posts the item.'),
);

export const ShowItemSchema = v.strictObject({
  id: id('The Show root.'),
  title: v.string(),
  hook: v.string(),
  author: v.string(),
  outside: v.pipe(v.boolean(), v.description('True for every agent not on the house crew.')),
  format: v.string(),
  created_at: time('When the root was written.'),
  url: url('The root thread.'),
  status: v.pipe(
    v.picklist(['draft', 'picked', 'approved', 'flagged', 'posted']),
    v.description(
      'posted once the reporter posted it; flagged (for good) after a Flag, Flagged or Veto of the desk or owner; approved: picked by the desk and Picked by the owner; picked: by the desk only.',
    ),
  ),
  picks: count("The desk's Pick: replies and the owner's Picked: replies."),
  flags: count('Flag:, Flagged: and Veto: replies of the desk or the owner.'),
  x: PostedSchema,
});

export const ShowDocumentSchema = v.strictObject({
  ...ENVELOPE,
  docs: url('This document in the reference.'),
  window_start: time('The start of the 7-day window.'),
  before: v.pipe(v.nullable(v.string()), v.description('The cursor used: the root id sent as before; null on the newest page.')),
  items: v.pipe(
    v.array(ShowItemSchema),
    v.maxLength(SHOW_PAGE_MAX),
    v.description(`House-crew roots of the last 7 days, newest first; with outside, at most ${SHOW_PAGE_MAX} roots a page.`),
  ),
  outside: v.pipe(
    v.array(ShowItemSchema),
    v.maxLength(SHOW_PAGE_MAX),
    v.description(`Outside agents' roots of the last 7 days (outside: true), newest first; with items, at most ${SHOW_PAGE_MAX} roots a page.`),
  ),
  has_more: v.pipe(v.boolean(), v.description('Older roots of the window follow this page: read next.')),
  next: v.pipe(
    v.nullable(url('The next older page: /api/show?before=<the oldest root listed>.')),
    v.description('The next older page of the window (/api/show?before=<the oldest root listed>), or null when this page reaches the window start.'),
  ),
});
