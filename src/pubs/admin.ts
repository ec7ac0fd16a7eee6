// `svc admin pubs …` (listed in src/admin/cli.ts): the operator's side of the publication layer.
// Each action is one case of the switch; hiding an article lives in takedown.ts, guests' reports
// and hiding a comment in src/comments/admin.ts.
import type { AdminGroup } from '../admin/args.ts';
import { option, positional, UsageError } from '../admin/args.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { type AppealRow, pubsStore } from './store.ts';
import { COMMENTS_ADMIN_USAGE, commentsCommand, reportsCommand } from '../comments/admin.ts';
import { hideArticle, unhideArticle } from './takedown.ts';

export const RESOLUTION_MAX = 2000;
const LIST_MAX = 500;

const appealView = (a: AppealRow) => ({
  revision_id: a.revision_id,
  item_id: a.item_id,
  revision_number: a.revision_number,
  title: a.title,
  author: a.author,
  reason: a.reason,
  status: a.resolved_at === null ? ('open' as const) : ('resolved' as const),
  created_at: iso(a.created_at),
  resolved_at: a.resolved_at === null ? null : iso(a.resolved_at),
  resolution: a.resolution,
});

export type AppealView = ReturnType<typeof appealView>;

/** `svc admin pubs appeals [--all] [--limit N]`: the open appeals (or every appeal), oldest first. */
export function listAppeals(ctx: AppContext, opts: { all: boolean; limit: number }) {
  const s = pubsStore(ctx.db);
  const rows = (opts.all ? s.allAppeals : s.openAppeals).all(opts.limit);
  return { appeals: rows.map(appealView), count: rows.length, scope: opts.all ? ('all' as const) : ('open' as const) };
}

/** `svc admin pubs appeals resolve REVISION_ID --resolution TEXT`: closes an open appeal; a second resolve changes nothing. */
export function resolveAppeal(ctx: AppContext, revisionId: string, resolution: string) {
  const text = resolution.trim();
  if (text === '' || [...text].length > RESOLUTION_MAX) throw new UsageError(`--resolution needs 1..${RESOLUTION_MAX} characters`);
  const s = pubsStore(ctx.db);
  const id = revisionId.toLowerCase();
  return tx(ctx.db, () => {
    const prior = s.appealOfRevision.get(id);
    if (!prior) return fail('NOT_FOUND', { revision_id: id }, 'No appeal on this revision.');
    if (prior.resolved_at !== null) return { appeal: appealView(prior), already_resolved: true };
    s.resolveAppeal.run(ctx.clock.now(), text, id);
    return { appeal: appealView(s.appealOfRevision.get(id)!), already_resolved: false };
  });
}

function appeals(ctx: AppContext, args: string[]) {
  if (args[0] === 'resolve') {
    const rest = args.slice(1);
    const resolution = option(rest, '--resolution');
    if (resolution === undefined) throw new UsageError('pubs appeals resolve needs --resolution TEXT');
    const [revisionId] = positional(rest, 1);
    return resolveAppeal(ctx, revisionId!, resolution);
  }
  const rest = [...args];
  const all = rest.includes('--all');
  if (all) rest.splice(rest.indexOf('--all'), 1);
  const limitText = option(rest, '--limit');
  positional(rest, 0);
  const limit = limitText === undefined ? 100 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) throw new UsageError(`--limit is a whole number 1..${LIST_MAX}`);
  return listAppeals(ctx, { all, limit });
}

function takedown(ctx: AppContext, action: 'hide' | 'unhide', args: string[]) {
  const rest = [...args];
  const reason = option(rest, '--reason');
  const [postId] = positional(rest, 1);
  return (action === 'hide' ? hideArticle : unhideArticle)(ctx, postId!, reason);
}

export const PUBS_ADMIN: AdminGroup = {
  group: 'pubs',
  usage: `svc admin pubs appeals [--all] [--limit N]      (open appeals, oldest first; --all: resolved ones too)
svc admin pubs appeals resolve REVISION_ID --resolution TEXT
svc admin pubs hide POST_ID [--reason TEXT]      (take an article down: out of every list, 410 read by id)
svc admin pubs unhide POST_ID [--reason TEXT]    (put it back as it was)
${COMMENTS_ADMIN_USAGE}`,
  run(ctx, action, args) {
    switch (action) {
      case 'appeals':
        return appeals(ctx, args);
      case 'hide':
      case 'unhide':
        return takedown(ctx, action, args);
      case 'reports':
        return reportsCommand(ctx, args);
      case 'comments':
        return commentsCommand(ctx, args);
      default:
        throw new UsageError(`unknown admin command: pubs ${action ?? '(none)'}`);
    }
  },
};
