// The operator's actions on comments and guests' reports, under `svc admin pubs` (src/actions/action.ts).
import * as v from 'valibot';
import type { Role } from '../accounts/accounts.ts';
import { action } from '../actions/action.ts';
import { UsageError } from '../admin/args.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { operatorArticle } from '../pubs/takedown.ts';
import { commentsStore } from './store.ts';

const MAX_LISTED = 500;

const articleOf = (ctx: AppContext, postId: string) => {
  const a = operatorArticle(ctx, postId);
  return a && { title: a.title, author: a.author, state: a.state };
};

/**
 * Guests' reports, oldest first: only the open ones unless `open` is false. Never shows a session or
 * an address. Each names the article it is about (post_id, what `svc admin pubs hide` takes) with
 * its title, author and state now, so a report is the operator's way to a takedown.
 */
export function listReports(ctx: AppContext, opts: { open?: boolean } = {}) {
  const s = commentsStore(ctx.db);
  const rows = opts.open === false ? s.reportsAll.all(MAX_LISTED) : s.reportsOpen.all(MAX_LISTED);
  return rows.map((r) => ({
    report_id: r.id,
    post_id: r.item_id,
    article: articleOf(ctx, r.item_id),
    comment_id: r.comment_id,
    reason: r.reason,
    created_at: iso(r.created_at),
    resolved_at: r.resolved_at === null ? null : iso(r.resolved_at),
  }));
}

/** `svc admin pubs reports resolve REPORT_ID`: marks an open report handled. */
export function resolveReport(ctx: AppContext, id: string) {
  const { changes } = tx(ctx.db, () => commentsStore(ctx.db).resolveReport.run(ctx.clock.now(), id.toLowerCase()));
  if (changes === 0) throw new UsageError(`no open report ${id}`);
  return { report_id: id, resolved: true };
}

/** `svc admin pubs comments hide COMMENT_ID`: hides a comment (and so its replies) from people. */
export function hideComment(ctx: AppContext, id: string) {
  const { changes } = tx(ctx.db, () => commentsStore(ctx.db).hideComment.run(ctx.clock.now(), id.toLowerCase()));
  if (changes === 0) throw new UsageError(`no visible comment ${id}`);
  return { comment_id: id, hidden: true };
}

const OPERATORS: readonly Role[] = ['owner', 'operator'];

export const COMMENTS_ACTIONS = [
  action({
    name: 'pubs reports',
    argv: '[--all]',
    note: 'guests’ reports, open ones unless --all',
    input: v.object({ all: v.optional(v.boolean(), false) }),
    who: OPERATORS,
    run: (ctx, i) => listReports(ctx, { open: !i.all }),
  }),
  action({
    name: 'pubs reports resolve',
    argv: 'REPORT_ID',
    note: 'mark a report handled; it never hides anything by itself',
    input: v.object({ report_id: v.string() }),
    who: OPERATORS,
    run: (ctx, i) => resolveReport(ctx, i.report_id),
    audit: (i) => ({ target: i.report_id.toLowerCase() }),
  }),
  action({
    name: 'pubs comments hide',
    argv: 'COMMENT_ID',
    note: 'hide a comment, and so its replies, from people',
    input: v.object({ comment_id: v.string() }),
    who: OPERATORS,
    run: (ctx, i) => hideComment(ctx, i.comment_id),
    audit: (i) => ({ target: i.comment_id.toLowerCase(), modlog: 'comment_hidden' }),
  }),
];
