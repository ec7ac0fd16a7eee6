// An operator's removal of any thread or reply, and its restore (docs/operations.md, "Removing a
// post"). Removal is an author's deletion done by an operator and remembered: posts.deleted_at is
// set, so the post leaves every public read, page, feed, search, inbox, document and the
// publication lookup at once, and the public cache rebuilds (the removal counter of 0013 moves).
// A root takes its live replies with it. Nothing is deleted: board_removed_posts lists what the
// removal set, and a restore clears exactly that (same ids, times, scores; quotas are not
// refunded either way). The author reading a removed post gets 410 POST_REMOVED with the reason.
import * as v from 'valibot';
import type { Role } from '../accounts/accounts.ts';
import { action } from '../actions/action.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { RULES_ID } from './posts.ts';
import { removalStore } from './removal-store.ts';
import { boardStore } from './store.ts';

export const REMOVAL_REASON_MAX = 2000;

export function removePost(ctx: AppContext, id: string, reason: string) {
  const s = removalStore(ctx.db);
  const key = id.toLowerCase();
  const post = s.post.get(key) ?? fail('NOT_FOUND', { id }, 'No thread or reply has this id.');
  if (post.id === RULES_ID)
    fail('NOT_ALLOWED', { id: post.id, reason: 'the rules root is replaced through its edit route' }, 'The rules root cannot be removed.');
  const prior = s.removal.get(post.id);
  if (prior)
    return {
      post_id: post.id,
      kind: post.kind,
      removed: true,
      removed_at: iso(prior.removed_at),
      reason: prior.reason,
      posts_removed: 0,
      already_removed: true,
    };
  if (post.deleted_at !== null)
    fail('INVALID_REQUEST', { id: post.id, reason: 'not_live' }, 'This post is already out of every read (deleted by its author, or removed with its thread).');
  const now = ctx.clock.now();
  s.insertRemoval.run(post.id, now, reason);
  s.takeOne.run(post.id, post.id);
  if (post.kind === 'post') s.takeReplies.run(post.id, post.id);
  else boardStore(ctx.db).dropReplyCount.run(post.thread_id);
  s.hideTaken.run(now, post.id);
  const n = s.countTaken.get(post.id)!.n;
  return { post_id: post.id, kind: post.kind, removed: true, removed_at: iso(now), reason, posts_removed: n, already_removed: false };
}

export function restorePost(ctx: AppContext, id: string) {
  const s = removalStore(ctx.db);
  const key = id.toLowerCase();
  const removal = s.removal.get(key) ?? fail('NOT_FOUND', { id }, 'No operator removal of this post stands.');
  const post = s.post.get(removal.post_id)!;
  if (post.kind === 'reply' && s.post.get(post.thread_id)?.deleted_at !== null)
    fail(
      'INVALID_REQUEST',
      { id: post.id, thread_id: post.thread_id, reason: 'thread_not_live' },
      'Its thread is removed or deleted: restore the thread first.',
    );
  const n = s.countTaken.get(post.id)!.n;
  s.showTaken.run(post.id);
  if (post.kind === 'reply') boardStore(ctx.db).bumpReplyCount.run(post.thread_id);
  s.dropTaken.run(post.id);
  s.dropRemoval.run(post.id);
  return { post_id: post.id, kind: post.kind, restored: true, posts_restored: n };
}

/** For GET /v1/posts/{id}: the author of a removed post learns it was removed, and why (others: 404 as for any deleted post). */
export function refuseRemovedForAuthor(ctx: AppContext, accountId: string, id: string): void {
  const r = removalStore(ctx.db).removalSeenBy.get(id.toLowerCase(), accountId);
  if (r)
    fail(
      'POST_REMOVED',
      { id: r.id, removed_by: 'operator', removal_of: r.post_id, reason: r.reason, removed_at: iso(r.removed_at) },
      `An operator removed this post: ${r.reason}`,
    );
}

const OPERATORS: readonly Role[] = ['owner', 'operator'];
const PostId = v.pipe(v.string(), v.uuid('POST_ID must be a post id (a UUID)'));

export const BOARD_ACTIONS = [
  action({
    name: 'posts remove',
    argv: 'POST_ID --reason TEXT',
    note: 'out of every public read at once, a root with its replies; the reason is public',
    input: v.object({ post_id: PostId, reason: v.pipe(v.string(), v.trim(), v.minLength(1, 'needs a reason'), v.maxLength(REMOVAL_REASON_MAX)) }),
    who: OPERATORS,
    publicText: ['reason'],
    run: (ctx, i) => removePost(ctx, i.post_id, i.reason),
    audit: (i, r) => (r.already_removed ? null : { target: r.post_id, reason: i.reason, modlog: 'post_removed' }),
  }),
  action({
    name: 'posts restore',
    argv: 'POST_ID',
    note: 'puts back exactly what the removal took',
    input: v.object({ post_id: PostId }),
    who: OPERATORS,
    run: (ctx, i) => restorePost(ctx, i.post_id),
    audit: (_i, r) => ({ target: r.post_id, modlog: 'post_restored' }),
  }),
];
