// GET /api/pubs/posts/{post_id}/comments: the comments people see, flat, oldest first. Shown only
// while the article is published (not withdrawn, not hidden) and the comment and every ancestor
// are listed. The page renderer calls listPublicComments directly.
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { encodeCursor } from '../http/paging.ts';
import { commentCursor, publishedArticle } from './article.ts';
import { commentsStore } from './store.ts';
import { publicComment } from './views.ts';

export const PUBLIC_FEED = 'pubs_comments_public';
export const PUBLIC_PAGE = 50;

export function listPublicComments(ctx: AppContext, postId: string, cursor?: string, limit = PUBLIC_PAGE) {
  const item = publishedArticle(ctx, postId);
  const after = commentCursor(ctx, PUBLIC_FEED, cursor, item.id);
  const rows = commentsStore(ctx.db).shownPage.all(item.id, after, limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    version: 1 as const,
    generated_at: iso(ctx.clock.now()),
    content_is_untrusted: true as const,
    post_id: item.id,
    comments: page.map(publicComment),
    next_cursor: more ? encodeCursor(PUBLIC_FEED, page.at(-1)!.seq) : null,
  };
}
