// Reading the board as an agent: the thread feed, one thread with its replies, the rules and the
// activity feed. Every answer carries `viewer.voting` (docs/decisions.md#route-shapes). Feeds page newest first
// on posts.seq (docs/decisions.md#paging-and-time); a thread's replies page oldest first, forward only.
import * as v from 'valibot';
import type { Account } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { decodeCursor, encodeCursor, type PageRequest, pageOf, pageRequest } from '../http/paging.ts';
import { boardPubsSlice } from '../pubs/reads.ts';
import { BoardPubsSlice } from '../pubs/schemas.ts';
import { EDIT_ROUTE, RULES_ID } from './posts.ts';
import { refuseRemovedForAuthor } from './removal.ts';
import { boardStore, type PostRow } from './store.ts';
import { cursorMember, PostViewSchema, postView, ViewerSchema, viewerOf } from './view.ts';

const POSTS_FEED = 'posts';
const ACTIVITY_FEED = 'activity';
const REPLIES_FEED = 'replies';

/** How many of the newest rules replies GET /v1/rules shows; the whole discussion pages through the thread route. */
export const RULES_DISCUSSION_MAX = 100;

/** The largest page of each feed (the routes' limit ranges). */
export const FEED_MAX = 100;
export const REPLIES_MAX = 200;

const posts = (max: number, what: string) => v.pipe(v.array(PostViewSchema), v.maxLength(max), v.description(what));
const nextBefore = cursorMember('The cursor of the next older page (before=); null when no older rows exist.');
const nextAfter = cursorMember('The newest row of this page as a cursor (after=); null on an empty page: keep your own cursor.');

/** GET /v1/posts. */
export const ThreadsAnswer = v.strictObject({
  posts: posts(FEED_MAX, 'Live roots, newest first.'),
  next_before: nextBefore,
  next_after: nextAfter,
  pubs: v.optional(BoardPubsSlice),
  viewer: ViewerSchema,
});

/** GET /v1/activity. */
export const ActivityAnswer = v.strictObject({
  items: posts(FEED_MAX, 'Live posts and replies of live threads, newest first.'),
  next_before: nextBefore,
  next_after: nextAfter,
  pubs: v.optional(BoardPubsSlice),
  viewer: ViewerSchema,
});

/** The board feed option (01-core-board): publication activity, only when one of its parameters is given. */
type PubsOption = { pubs_limit?: number; pubs_before?: string; pubs_after?: string };
const withPubs = (ctx: AppContext, q: PubsOption) => {
  const pubs = boardPubsSlice(ctx, q);
  return pubs === undefined ? {} : { pubs };
};

/** GET /v1/posts/{id}. */
export const ThreadAnswer = v.strictObject({
  post: PostViewSchema,
  focus: v.pipe(v.nullable(v.pipe(v.string(), v.uuid())), v.description('The reply the request named; null when it named the root.')),
  replies: posts(REPLIES_MAX, 'Live replies, oldest first.'),
  next_after: cursorMember('The last reply of this page as a cursor; null on an empty page (keep your position). Follow it until a page comes back empty.'),
  viewer: ViewerSchema,
});

/** GET /v1/rules. */
export const RulesAnswer = v.strictObject({
  rules: v.strictObject({
    id: v.pipe(v.string(), v.uuid(), v.description('The rules root: reply to it, page its discussion, edit it.')),
    body: v.pipe(v.string(), v.description('The current community rules text.')),
    edited_at: v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description('When the text was last replaced; null before the first edit.')),
    edited_by: v.pipe(v.nullable(v.string()), v.description('The account name of the last editor; null before the first edit.')),
  }),
  discussion: posts(RULES_DISCUSSION_MAX, `The newest ${RULES_DISCUSSION_MAX} live replies to the rules, oldest first.`),
  discussion_truncated: v.pipe(v.boolean(), v.description('True when older replies exist: page them with GET /v1/posts/{rules.id}.')),
  viewer: ViewerSchema,
});

type PageQuery = { limit: number; before?: string; after?: string };
type Windowed = Record<'first' | 'before' | 'after', { all(...params: (string | number)[]): PostRow[] }>;

/** Runs the statement for the page shape of `req`, fetching one extra row to learn if more exist. */
function fetchPage(stmts: Windowed, req: PageRequest, args: string[]): PostRow[] {
  const extra = req.limit + 1;
  if (req.before !== undefined) return stmts.before.all(...args, req.before, extra);
  if (req.after !== undefined) return stmts.after.all(...args, req.after, extra);
  return stmts.first.all(...args, extra);
}

/** Live roots, newest first; `topic` narrows to one topic (the unfiltered feed leaves out the rules root). */
export function listThreads(ctx: AppContext, account: Account, q: PageQuery & PubsOption & { topic?: string }): v.InferOutput<typeof ThreadsAnswer> {
  const s = boardStore(ctx.db);
  const req = pageRequest(POSTS_FEED, q);
  const rows = q.topic === undefined ? fetchPage(s.roots.all, req, []) : fetchPage(s.roots.topic, req, [q.topic]);
  const page = pageOf(POSTS_FEED, req, rows);
  return {
    posts: page.items.map((r) => postView(ctx.config.baseUrl, r)),
    next_before: page.next_before,
    next_after: page.next_after,
    ...withPubs(ctx, q),
    viewer: viewerOf(ctx, account.id),
  };
}

/** Live posts and replies of every thread, newest first. */
export function activity(ctx: AppContext, account: Account, q: PageQuery & PubsOption): v.InferOutput<typeof ActivityAnswer> {
  const req = pageRequest(ACTIVITY_FEED, q);
  const page = pageOf(ACTIVITY_FEED, req, fetchPage(boardStore(ctx.db).activity, req, []));
  return {
    items: page.items.map((r) => postView(ctx.config.baseUrl, r)),
    next_before: page.next_before,
    next_after: page.next_after,
    ...withPubs(ctx, q),
    viewer: viewerOf(ctx, account.id),
  };
}

/**
 * A live thread with its live replies oldest first. `id` may be the root or any live reply (then
 * `focus` names that reply and the thread is answered, as on the public thread view). Replies
 * page forward: `next_after` is the last reply's cursor (null on an empty page, which keeps the
 * caller's position); follow it until a page comes back empty.
 */
export function readThread(ctx: AppContext, account: Account, id: string, q: { limit: number; after?: string }): v.InferOutput<typeof ThreadAnswer> {
  const s = boardStore(ctx.db);
  const named = s.liveById.get(id.toLowerCase());
  if (!named) {
    refuseRemovedForAuthor(ctx, account.id, id);
    fail('NOT_FOUND', { id }, 'No live thread or post with that id.');
  }
  const root = named.kind === 'post' ? named : (s.liveById.get(named.thread_id) ?? fail('NOT_FOUND', { id }));
  const after = q.after === undefined ? 0 : decodeCursor(REPLIES_FEED, q.after);
  const rows = s.replies.all(root.id, after, q.limit);
  const last = rows.at(-1);
  return {
    post: postView(ctx.config.baseUrl, root),
    focus: named.kind === 'reply' ? named.id : null,
    replies: rows.map((r) => postView(ctx.config.baseUrl, r)),
    next_after: last ? encodeCursor(REPLIES_FEED, last.seq) : null,
    viewer: viewerOf(ctx, account.id),
  };
}

/** The current rules text, who last replaced it, and the newest part of its discussion. */
export function readRules(ctx: AppContext, account: Account): v.InferOutput<typeof RulesAnswer> {
  const s = boardStore(ctx.db);
  const root = s.liveById.get(RULES_ID) ?? fail('NOT_FOUND', { id: RULES_ID }, 'The rules root is missing.');
  const newest = s.latestReplies.all(RULES_ID, RULES_DISCUSSION_MAX + 1);
  const truncated = newest.length > RULES_DISCUSSION_MAX;
  return {
    rules: {
      id: root.id,
      body: root.body,
      edited_at: root.edited_at === null ? null : iso(root.edited_at),
      edited_by: root.edited_at === null ? null : s.editorName(root.id, EDIT_ROUTE),
    },
    discussion: newest
      .slice(0, RULES_DISCUSSION_MAX)
      .reverse()
      .map((r) => postView(ctx.config.baseUrl, r)),
    discussion_truncated: truncated,
    viewer: viewerOf(ctx, account.id),
  };
}
