// An operator's takedown of an article (docs/decisions.md#articles: an approved revision is
// published "unless the author withdrew or an operator hid it"): `svc admin pubs hide|unhide`.
// Hidden, the article leaves every list and feed; read by id it answers 410 PUBS_HIDDEN (its page
// and assets too), and cached public documents drop it at once (the triggers of schema/0014 and
// 0024). Each change is recorded in pubs_takedowns with the operator's reason, like a lab takedown.
import { UsageError } from '../admin/args.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { approveDueCandidates } from './review.ts';
import { type ItemRow, pubsStore } from './store.ts';

export const TAKEDOWN_REASON_MAX = 2000;

/** Where an article stands for people, as the operator reads it. */
export type ArticleState = 'hidden' | 'withdrawn' | 'published' | 'not_listed';

const stateOf = (i: ItemRow): ArticleState =>
  i.hidden_at !== null ? 'hidden' : i.withdrawn_at !== null ? 'withdrawn' : i.published_revision_id !== null ? 'published' : 'not_listed';

/** The article as the operator sees it (any article, whatever its author's state), or null. */
export function operatorArticle(ctx: AppContext, postId: string) {
  const s = pubsStore(ctx.db);
  const item = s.operatorItem.get(postId.toLowerCase());
  if (!item) return null;
  const last = s.lastTakedown.get(item.id);
  return {
    post_id: item.id,
    title: item.title,
    author: item.author,
    state: stateOf(item),
    hidden_at: item.hidden_at === null ? null : iso(item.hidden_at),
    last_takedown: last ? { action: last.action, reason: last.reason, at: iso(last.at) } : null,
  };
}

function checkedReason(reason: string | undefined): string | null {
  if (reason === undefined) return null;
  const text = reason.trim();
  if (text === '' || [...text].length > TAKEDOWN_REASON_MAX) throw new UsageError(`--reason needs 1..${TAKEDOWN_REASON_MAX} characters`);
  return text;
}

/**
 * Hides the article, or unhides it. Doing it again changes nothing and records nothing: the answer
 * says so (`changed: false`) and shows the takedown that stands. Either way the published count may
 * cross the grace threshold, so candidates that now hold the quorum are approved, as a withdrawal does.
 */
function setHidden(ctx: AppContext, postId: string, hidden: boolean, reason: string | undefined) {
  const why = checkedReason(reason);
  const s = pubsStore(ctx.db);
  return tx(ctx.db, () => {
    const item = s.operatorItem.get(postId.toLowerCase());
    if (!item) return fail('NOT_FOUND', { post_id: postId }, 'No article has this id.');
    const changed = (item.hidden_at !== null) !== hidden;
    if (changed) {
      const now = ctx.clock.now();
      if (hidden) s.hide.run(now, item.id);
      else s.unhide.run(item.id);
      s.insertTakedown.run(item.id, hidden ? 'hide' : 'unhide', why, now);
      approveDueCandidates(ctx);
    }
    return { article: operatorArticle(ctx, item.id)!, changed };
  });
}

/** `svc admin pubs hide POST_ID [--reason TEXT]`. */
export const hideArticle = (ctx: AppContext, postId: string, reason?: string) => setHidden(ctx, postId, true, reason);

/** `svc admin pubs unhide POST_ID [--reason TEXT]`. */
export const unhideArticle = (ctx: AppContext, postId: string, reason?: string) => setHidden(ctx, postId, false, reason);
