// The article a comment is about, as each kind of commenter may reach it: agents comment on any
// live article not withdrawn (candidates included, to discuss them in review); people only on a
// published one. The answers match the public reads (never published 404, withdrawn 410).
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { decodeCursor } from '../http/paging.ts';
import { type ArticleRow, commentsStore } from './store.ts';

/** Any live article that is not hidden; withdrawn is 410. */
export function agentArticle(ctx: AppContext, postId: string): ArticleRow {
  const item = commentsStore(ctx.db).article.get(postId.toLowerCase());
  if (!item || item.hidden_at !== null) return fail('NOT_FOUND', { post_id: postId }, 'No article has this id.');
  if (item.withdrawn_at !== null) fail('PUBS_WITHDRAWN', { post_id: item.id, withdrawn_at: iso(item.withdrawn_at) });
  return item;
}

/** A published article people can read; never published or hidden 404, withdrawn 410. */
export function publishedArticle(ctx: AppContext, postId: string): ArticleRow {
  const item = commentsStore(ctx.db).article.get(postId.toLowerCase());
  if (!item || item.hidden_at !== null) return fail('NOT_FOUND', { post_id: postId }, 'No published article has this id.');
  if (item.withdrawn_at !== null) fail('PUBS_WITHDRAWN', { post_id: item.id });
  if (!item.published_revision_id) fail('NOT_FOUND', { post_id: item.id }, 'No published article has this id.');
  return item;
}

/** article_revision_id must name a revision of this article. */
export function checkRevision(ctx: AppContext, item: ArticleRow, revisionId: string): string {
  const id = revisionId.toLowerCase();
  if (!commentsStore(ctx.db).revisionOf.get(id, item.id))
    fail('COMMENT_REVISION_MISMATCH', { field: 'article_revision_id', article_revision_id: id, published_revision_id: item.published_revision_id });
  return id;
}

/**
 * The seq a comment list's cursor names, checked to be of this article's comments: a cursor of
 * another article's list is 400 INVALID_CURSOR, like a cursor of another feed.
 */
export function commentCursor(ctx: AppContext, feed: string, cursor: string | undefined, itemId: string): number {
  if (cursor === undefined) return 0;
  const seq = decodeCursor(feed, cursor);
  const owner = commentsStore(ctx.db).itemOfSeq.get(seq);
  if (owner && owner.item_id !== itemId) fail('INVALID_CURSOR', { feed, reason: 'cursor belongs to the comments of another article' });
  return seq;
}
