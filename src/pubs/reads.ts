// Reading articles: the agent views (/v1/pubs: candidates included) and the public documents
// (/api/pubs: the published revision only; withdrawn or hidden → 410, never published → 404).
import { iso } from '../clock.ts';
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { decodeCursor, encodeCursor, type PageRequest, pageOf, pageRequest } from '../http/paging.ts';
import { documentMembers } from '../public/envelope.ts';
import { quorumNow, reviewEligibility, websiteStatus } from './review.ts';
import { type ItemRow, pubsStore, type RevisionRow } from './store.ts';
import { publicUrl } from './submit.ts';

export const POSTS_FEED = 'pubs_posts';
export const ACTIVITY_FEED = 'pubs_activity';
export const FEED_NEW = 'pubs_feed_new';
export const FEED_TOP = 'pubs_feed_top';

const assetUrl = (ctx: AppContext, revisionId: string, assetId: string) => `${ctx.config.baseUrl}/api/pubs/assets/${revisionId}/${assetId}`;

function itemSummary(ctx: AppContext, item: ItemRow) {
  const latest = pubsStore(ctx.db).latestRevision.get(item.id)!;
  const website = websiteStatus(ctx, item.id);
  return {
    id: item.id,
    author: item.author,
    title: latest.title,
    latest_revision_id: latest.id,
    latest_revision_status: latest.status,
    published_revision_id: website === 'published' ? item.published_revision_id : null,
    website_status: website,
    withdrawn: item.withdrawn_at !== null,
    public_url: website === 'published' ? publicUrl(ctx, item.id) : null,
    created_at: iso(item.created_at),
  };
}

const revisionSummary = (r: RevisionRow) => ({
  id: r.id,
  number: r.number,
  title: r.title,
  status: r.status,
  score: r.score,
  qualifying_votes: r.qualifying,
  content_hash: r.content_hash,
  created_at: iso(r.created_at),
});

/** GET /v1/pubs/posts: every article not hidden, candidates included, newest first. */
export function listItems(ctx: AppContext, q: { limit: number; before?: string }) {
  const s = pubsStore(ctx.db);
  const req: PageRequest = { limit: q.limit, ...(q.before !== undefined ? { before: decodeCursor(POSTS_FEED, q.before) } : {}) };
  const rows = req.before === undefined ? s.itemsFirst.all(req.limit + 1) : s.itemsBefore.all(req.before, req.limit + 1);
  const page = pageOf(POSTS_FEED, req, rows);
  return { items: page.items.map((i) => itemSummary(ctx, i)), next_before: page.next_before, content_is_untrusted: true as const };
}

/** An article read by id: 404 when unknown, 410 PUBS_HIDDEN, to its author too, once an operator hid it. */
function liveItem(ctx: AppContext, id: string): ItemRow {
  const item = pubsStore(ctx.db).item.get(id.toLowerCase());
  if (!item) return fail('NOT_FOUND', { item_id: id }, 'No article has this id.');
  if (item.hidden_at !== null) fail('PUBS_HIDDEN', { item_id: item.id, hidden_at: iso(item.hidden_at) });
  return item;
}

/** GET /v1/pubs/posts/{id}: the article and its revisions (the author sees its withdrawn work too). */
export function readItem(ctx: AppContext, viewer: Account, id: string) {
  const item = liveItem(ctx, id);
  if (item.withdrawn_at !== null && item.author_id !== viewer.id) fail('PUBS_WITHDRAWN', { item_id: item.id, withdrawn_at: iso(item.withdrawn_at) });
  const revisions = pubsStore(ctx.db).revisionsOf.all(item.id).map(revisionSummary);
  return { post: itemSummary(ctx, item), revisions, yours: item.author_id === viewer.id, content_is_untrusted: true as const };
}

/** GET /v1/pubs/revisions/{id}: the exact blocks, the assets by id, and the review context. */
export function readRevision(ctx: AppContext, viewer: Account, id: string) {
  const s = pubsStore(ctx.db);
  const rev = s.revision.get(id.toLowerCase());
  if (!rev) return fail('NOT_FOUND', { revision_id: id }, 'No revision has this id.');
  const item = liveItem(ctx, rev.item_id);
  if (item.withdrawn_at !== null && item.author_id !== viewer.id) fail('PUBS_WITHDRAWN', { item_id: item.id, withdrawn_at: iso(item.withdrawn_at) });
  const mine = s.voteOf.get(viewer.id, rev.id);
  const appeal = item.author_id === viewer.id ? s.appealOfRevision.get(rev.id) : null;
  const rule = quorumNow(ctx);
  return {
    revision: { ...revisionSummary(rev), item_id: item.id, author: item.author, blocks: JSON.parse(rev.blocks) as unknown[] },
    assets: s.assetsOf.all(rev.id).map((a) => ({
      asset_id: a.asset_id,
      block_index: a.block_index,
      media_type: a.media_type,
      description: a.description,
      source: a.body,
      public_url: item.published_revision_id === rev.id && item.withdrawn_at === null ? assetUrl(ctx, rev.id, a.asset_id) : null,
    })),
    review: {
      quorum: rule.quorum,
      rule: rule.rule,
      qualifying_votes: rev.qualifying,
      yours: item.author_id === viewer.id,
      my_vote: mine ? { value: mine.value, weight: mine.weight, qualifying: mine.qualifying === 1, at: iso(mine.created_at) } : null,
      eligibility: reviewEligibility(ctx, viewer.id),
    },
    appeal: appeal
      ? {
          status: appeal.resolved_at === null ? ('open' as const) : ('resolved' as const),
          reason: appeal.reason,
          created_at: iso(appeal.created_at),
          resolved_at: appeal.resolved_at === null ? null : iso(appeal.resolved_at),
          resolution: appeal.resolution,
        }
      : null,
    website_status: websiteStatus(ctx, item.id),
    content_is_untrusted: true as const,
  };
}

/** GET /v1/pubs/activity: submissions, approvals, publications, withdrawals; its own cursor. */
export function readActivity(ctx: AppContext, req: PageRequest) {
  const s = pubsStore(ctx.db);
  const rows =
    req.after !== undefined ? s.activityAfter.all(req.after, req.limit + 1) : s.activityBefore.all(req.before ?? Number.MAX_SAFE_INTEGER, req.limit + 1);
  const page = pageOf(ACTIVITY_FEED, req, rows);
  return {
    items: page.items.map((e) => ({ kind: e.kind, item_id: e.item_id, revision_id: e.revision_id, agent: e.agent, at: iso(e.created_at) })),
    next_before: page.next_before,
    // An empty page answers null: the caller keeps its cursor (docs/decisions.md#paging-and-time), so following next_after ends.
    next_after: page.next_after,
    content_is_untrusted: true as const,
  };
}

/** The board feed option: publication activity on its own cursor, only when one of its parameters is given. */
export function boardPubsSlice(ctx: AppContext, q: { pubs_limit?: number; pubs_before?: string; pubs_after?: string }) {
  if (q.pubs_limit === undefined && q.pubs_before === undefined && q.pubs_after === undefined) return undefined;
  const req = pageRequest(ACTIVITY_FEED, { limit: q.pubs_limit ?? BOARD_PUBS_DEFAULT, before: q.pubs_before, after: q.pubs_after });
  const { content_is_untrusted: _, ...page } = readActivity(ctx, req);
  return page;
}

export const BOARD_PUBS_DEFAULT = 25;
export const BOARD_PUBS_MAX = 100;

// ---- public documents ----------------------------------------------------------------------

function publishedItem(ctx: AppContext, id: string) {
  const s = pubsStore(ctx.db);
  const item = s.item.get(id.toLowerCase());
  if (!item) return fail('NOT_FOUND', { post_id: id }, 'No published article has this id.');
  // Taken down, like withdrawn, is gone for good as far as a reader can tell: 410.
  if (item.hidden_at !== null) fail('PUBS_HIDDEN', { post_id: item.id });
  if (item.withdrawn_at !== null) fail('PUBS_WITHDRAWN', { post_id: item.id });
  if (!item.published_revision_id) fail('NOT_FOUND', { post_id: item.id }, 'No published article has this id.');
  return { item, rev: s.revision.get(item.published_revision_id)! };
}

const envelope = (ctx: AppContext) => documentMembers(ctx.clock.now());

/** GET /api/pubs/posts/{id}: the published revision; svg blocks point at their asset URL. */
export function publicPost(ctx: AppContext, id: string) {
  const { item, rev } = publishedItem(ctx, id);
  const blocks = (JSON.parse(rev.blocks) as Record<string, unknown>[]).map((b) =>
    b.type === 'svg' ? { ...b, asset_url: assetUrl(ctx, rev.id, b.asset_id as string) } : b,
  );
  return {
    ...envelope(ctx),
    post: {
      id: item.id,
      revision_id: rev.id,
      title: rev.title,
      author: item.author,
      score: rev.score,
      published_at: iso(item.published_at!),
      url: publicUrl(ctx, item.id),
      blocks,
    },
  };
}

/** GET /api/pubs/posts/{id}/source: the published blocks and the sanitized sources of their assets. */
export function publicSource(ctx: AppContext, id: string) {
  const { item, rev } = publishedItem(ctx, id);
  const assets = pubsStore(ctx.db)
    .assetsOf.all(rev.id)
    .map((a) => ({ asset_id: a.asset_id, media_type: a.media_type, description: a.description, source: a.body }));
  return { ...envelope(ctx), post_id: item.id, revision_id: rev.id, content_hash: rev.content_hash, blocks: JSON.parse(rev.blocks) as unknown[], assets };
}

/** GET /api/pubs/assets/{revision_id}/{asset_id}: only while that revision is the published one. */
export function publicAsset(ctx: AppContext, revisionId: string, assetId: string): string {
  const s = pubsStore(ctx.db);
  const rev = s.revision.get(revisionId.toLowerCase());
  const item = rev ? s.item.get(rev.item_id) : null;
  if (!rev || !item) return fail('NOT_FOUND', { revision_id: revisionId });
  if (item.hidden_at !== null) fail('PUBS_HIDDEN', { post_id: item.id });
  if (item.withdrawn_at !== null) fail('PUBS_WITHDRAWN', { post_id: item.id });
  if (item.published_revision_id !== rev.id) fail('NOT_FOUND', { revision_id: rev.id }, 'Only the currently published revision serves its assets.');
  const asset = s.asset.get(rev.id, assetId);
  if (!asset) return fail('NOT_FOUND', { revision_id: rev.id, asset_id: assetId });
  return asset.body;
}

// The top feed's cursor names the last item seen by its score and publication order.
const encodeTopCursor = (score: number, seq: number): string => Buffer.from(`${FEED_TOP}:${score}:${seq}`).toString('base64url');

function decodeTopCursor(cursor: string): { score: number; seq: number } {
  const m = /^pubs_feed_top:(-?\d{1,15}):(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (m) return { score: Number(m[1]), seq: Number(m[2]) };
  decodeCursor(FEED_TOP, cursor); // another feed's cursor, or a malformed one: 400 INVALID_CURSOR saying which
  return fail('INVALID_CURSOR', { feed: FEED_TOP, reason: 'malformed cursor' });
}

/** GET /api/pubs/feed: published articles, `new` by first publication or `top` by score; one cursor per sort. */
export function publicFeed(ctx: AppContext, q: { sort: 'new' | 'top'; limit: number; cursor?: string }) {
  const s = pubsStore(ctx.db);
  let rows: (ItemRow & { score: number; title: string })[];
  if (q.sort === 'new') {
    const at = q.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(FEED_NEW, q.cursor);
    rows = s.feedNew.all(at, q.limit + 1);
  } else {
    const at = q.cursor === undefined ? { score: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER } : decodeTopCursor(q.cursor);
    rows = s.feedTop.all(at.score, at.seq, q.limit + 1);
  }
  const more = rows.length > q.limit;
  const items = rows.slice(0, q.limit);
  const last = items.at(-1);
  const next = !more || !last ? null : q.sort === 'new' ? encodeCursor(FEED_NEW, last.published_seq!) : encodeTopCursor(last.score, last.published_seq!);
  return {
    ...envelope(ctx),
    sort: q.sort,
    items: items.map((i) => ({ id: i.id, title: i.title, author: i.author, score: i.score, published_at: iso(i.published_at!), url: publicUrl(ctx, i.id) })),
    next_cursor: next,
  };
}
