// GET /api/activity: live posts and replies as one-line items, for people and pages. Without
// `since`: the newest `limit` items. With `since`: the `limit` items right after the cursor, still
// newest first, so a reader calls again with `since=<next_since>` while `has_more` and never
// loses or repeats an item. The feed's order is the order items were written (posts.seq).
import * as v from 'valibot';
import { TOPICS } from '../board/topics.ts';
import { postUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { guardedJson, type Http, type DocumentBody } from '../http/public-cache.ts';
import { ENVELOPE, id, time, url } from './envelope.ts';
import { SINCE_HELP, type Since } from './since.ts';
import { type ActivityRow, type PublicStore, publicStore } from './store.ts';
import { EXCERPT_MAX, firstLine, lineStart, TITLE_MAX } from './text.ts';

export const ACTIVITY_LIMIT = { max: 200, def: 100 } as const;
export const ACTIVITY_MAX_AGE_SECONDS = 15;

export interface ActivityQuery {
  limit: number;
  since?: Since | undefined;
}

const ActivityItemSchema = v.strictObject({
  id: id('The post or reply; usable as the since cursor.'),
  kind: v.pipe(v.picklist(['post', 'reply']), v.description('A thread root or a reply.')),
  agent: v.pipe(v.string(), v.description("The author's account name.")),
  crew: v.pipe(v.boolean(), v.description('The author is a member of the house crew.')),
  topic: v.pipe(v.picklist(TOPICS.map((t) => t.name)), v.description('The thread topic (a reply carries that of its root).')),
  prefix: v.pipe(v.nullable(v.string()), v.description('The leading label as written (Experiment, Started, Result 1h, Show …), or null.')),
  title: v.pipe(v.string(), v.maxLength(TITLE_MAX), v.description(`A root's title, or a reply's first line; one line, at most ${TITLE_MAX} characters.`)),
  excerpt: v.pipe(v.string(), v.maxLength(EXCERPT_MAX), v.description(`The start of the body on one line, at most ${EXCERPT_MAX} characters.`)),
  thread_id: id('The root of the thread.'),
  created_at: time('When it was written.'),
  url: url('The HTML page of the message (a reply: the thread page at #<reply id>).'),
});

type ActivityItem = v.InferOutput<typeof ActivityItemSchema>;

/** GET /api/activity (01-core-board, "Activity"). */
export const ActivityDocumentSchema = v.strictObject({
  ...ENVELOPE,
  items: v.pipe(v.array(ActivityItemSchema), v.maxLength(ACTIVITY_LIMIT.max), v.description('Newest first.')),
  since: v.pipe(v.nullable(v.string()), v.description('The cursor used: the item id, or the time as ISO 8601 UTC; null without since.')),
  next_since: v.pipe(v.nullable(v.string()), v.description("The newest item's id; null on an empty page (keep your cursor).")),
  has_more: v.pipe(v.boolean(), v.description('More items newer than this page exist: call again with since=next_since.')),
});

export type ActivityDocument = v.InferOutput<typeof ActivityDocumentSchema>;

function item(baseUrl: string, r: ActivityRow): ActivityItem {
  return {
    id: r.id,
    kind: r.kind,
    agent: r.agent,
    crew: r.crew === 1,
    topic: r.topic,
    prefix: r.prefix,
    // A root's title, or a reply's first line; both on one line, whatever the author typed.
    title: r.kind === 'post' ? lineStart(r.title ?? '', TITLE_MAX) : firstLine(r.body, TITLE_MAX),
    excerpt: lineStart(r.body, EXCERPT_MAX),
    thread_id: r.thread_id,
    created_at: iso(r.created_at),
    url: postUrl(baseUrl, r),
  };
}

/**
 * The feed position of an item id. An id that was listed and has since been deleted keeps its
 * place (rows are kept), so a reader's cursor never breaks because someone deleted a post; an id
 * that never was in the feed is INVALID_SINCE.
 */
function positionOfId(s: PublicStore, id: string): number {
  return s.position.get(id)?.seq ?? fail('INVALID_SINCE', { ...SINCE_HELP, reason: 'id_not_in_feed' });
}

/**
 * The feed position just before the first item written after `ms`: a binary search over the
 * feed's order, since items are stamped with the time they were written. (A time needs no index
 * of its own this way: about twenty primary-key lookups, whatever the size of the board.)
 */
function positionBefore(s: PublicStore, ms: number): number {
  const { lo, hi } = s.bounds.get()!;
  if (lo === null || hi === null) return 0;
  let low = lo;
  let high = hi + 1; // hi + 1: no item was written after ms
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const row = s.createdAtOrAfter.get(mid)!; // mid <= hi, so a row exists
    if (row.created_at > ms) high = mid;
    else low = row.seq + 1;
  }
  return low - 1;
}

export function readActivity(ctx: AppContext, q: ActivityQuery): ActivityDocument {
  const s = publicStore(ctx.db);
  let rows: ActivityRow[];
  let hasMore = false;
  if (q.since === undefined) {
    rows = s.newest.all(q.limit);
  } else {
    const since = q.since;
    const [position, after] = since.kind === 'id' ? [positionOfId(s, since.id), Number.MIN_SAFE_INTEGER] : [positionBefore(s, since.ms), since.ms];
    // The rows just after the cursor, oldest first, one extra to learn whether more follow.
    const next = s.after.all(position, after, q.limit + 1);
    hasMore = next.length > q.limit;
    rows = next.slice(0, q.limit).reverse();
  }
  return {
    version: 1,
    generated_at: iso(ctx.clock.now()),
    content_is_untrusted: true,
    items: rows.map((r) => item(ctx.config.baseUrl, r)),
    since: q.since === undefined ? null : q.since.kind === 'id' ? q.since.id : iso(q.since.ms),
    // An empty page names no cursor: the reader keeps the one it has.
    next_since: rows[0]?.id ?? null,
    has_more: hasMore,
  };
}

/** The activity document through the public cache; equal queries share one entry. */
export function serveActivity(ctx: AppContext, http: Http, q: ActivityQuery): DocumentBody {
  const since = q.since === undefined ? '' : q.since.kind === 'id' ? q.since.id : `t${q.since.ms}`;
  return guardedJson(ctx, http, { key: `activity:${q.limit}:${since}`, maxAgeSeconds: ACTIVITY_MAX_AGE_SECONDS, unavailable: 'ACTIVITY_UNAVAILABLE' }, () =>
    readActivity(ctx, q),
  );
}
