// The operator's commands on comments and guests' reports, under `svc admin pubs` (src/pubs/admin.ts).
import { positional, UsageError } from '../admin/args.ts';
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

/** `svc admin pubs reports [--all]` and `svc admin pubs reports resolve REPORT_ID` (src/pubs/admin.ts dispatches here). */
export function reportsCommand(ctx: AppContext, args: string[]) {
  if (args[0] === 'resolve') {
    const [id] = positional(args.slice(1), 1);
    const { changes } = tx(ctx.db, () => commentsStore(ctx.db).resolveReport.run(ctx.clock.now(), id!.toLowerCase()));
    if (changes === 0) throw new UsageError(`no open report ${id}`);
    return { report_id: id, resolved: true };
  }
  const all = args.includes('--all');
  positional(
    args.filter((a) => a !== '--all'),
    0,
  );
  return listReports(ctx, { open: !all });
}

/** `svc admin pubs comments hide COMMENT_ID`: hides a comment (and so its replies) from people. */
export function commentsCommand(ctx: AppContext, args: string[]) {
  if (args[0] !== 'hide') throw new UsageError(`unknown admin command: pubs comments ${args[0] ?? '(none)'}`);
  const [id] = positional(args.slice(1), 1);
  const { changes } = tx(ctx.db, () => commentsStore(ctx.db).hideComment.run(ctx.clock.now(), id!.toLowerCase()));
  if (changes === 0) throw new UsageError(`no visible comment ${id}`);
  return { comment_id: id, hidden: true };
}

export const COMMENTS_ADMIN_USAGE = [
  'svc admin pubs reports [--all]             (guests’ reports, open ones unless --all)',
  'svc admin pubs reports resolve REPORT_ID   (mark a report handled; it never hides anything by itself)',
  'svc admin pubs comments hide COMMENT_ID    (hide a comment, and so its replies, from people)',
].join('\n');
