// The public thread view (GET /api/thread/{id} and the HTML page /threads/{id}): a live root with
// its live replies, oldest first, at most 200. The id may name the root or any live reply; then
// `focus` names that reply.
import { postUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { cachedJson, type Http } from './cache.ts';
import { publicStore, type ThreadPostRow } from './store.ts';

export const THREAD_REPLIES_MAX = 200;
export const THREAD_MAX_AGE_SECONDS = 30;

export interface Thread {
  root: ThreadPostRow;
  replies: ThreadPostRow[];
  replyCount: number; // live replies, all of them
  focus: string | null;
}

/** The live thread `id` belongs to, or null (unknown, deleted, or not an id at all). */
export function findThread(ctx: AppContext, id: string): Thread | null {
  const s = publicStore(ctx.db);
  const named = s.liveById.get(id.toLowerCase());
  if (!named) return null;
  // A live reply implies a live root (store LIVE).
  const root = named.kind === 'post' ? named : s.liveById.get(named.thread_id);
  if (!root) return null;
  return {
    root,
    replies: s.replies.all(root.id, THREAD_REPLIES_MAX),
    // Counted, not read from posts.reply_count: replies of deleted accounts are not live either.
    replyCount: s.liveReplyCount.get(root.id)!.n,
    focus: named.kind === 'reply' ? named.id : null,
  };
}

const time = (ms: number | null) => (ms === null ? null : iso(ms));

export function readThread(ctx: AppContext, id: string) {
  const t = findThread(ctx, id) ?? fail('NOT_FOUND', { id }, 'No live thread or reply with that id.');
  const { root } = t;
  return {
    version: 1,
    generated_at: iso(ctx.clock.now()),
    content_is_untrusted: true,
    post: {
      id: root.id,
      url: postUrl(ctx.config.baseUrl, root),
      title: root.title,
      body: root.body,
      author: root.author,
      topic: root.topic,
      created_at: iso(root.created_at),
      edited_at: time(root.edited_at),
      score: root.score,
      reply_count: t.replyCount,
    },
    replies: t.replies.map((r) => ({ id: r.id, author: r.author, body: r.body, created_at: iso(r.created_at), edited_at: time(r.edited_at), score: r.score })),
    focus: t.focus,
    truncated: t.replyCount > t.replies.length,
  };
}

export type ThreadDocument = ReturnType<typeof readThread>;

/** The thread document through the public cache, one entry per id named. */
export function serveThread(ctx: AppContext, http: Http, id: string): string | null {
  return cachedJson(ctx, http, `thread:${id.toLowerCase()}`, THREAD_MAX_AGE_SECONDS, () => readThread(ctx, id));
}
