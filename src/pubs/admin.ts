// `svc admin pubs …`: the operator's actions on the publication layer (src/actions/action.ts).
// Hiding an article lives in takedown.ts, guests' reports and hiding a comment in
// src/comments/admin.ts.
import * as v from 'valibot';
import type { Role } from '../accounts/accounts.ts';
import { action } from '../actions/action.ts';
import { UsageError } from '../admin/args.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { type AppealRow, pubsStore } from './store.ts';
import { hideArticle, operatorArticle, unhideArticle } from './takedown.ts';

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

/** `svc admin pubs articles [--limit N]`: the newest articles in any state (published, hidden, withdrawn, not listed). */
export function listArticles(ctx: AppContext, limit: number) {
  const ids = pubsStore(ctx.db).operatorRecent.all(limit);
  return { articles: ids.map((r) => operatorArticle(ctx, r.id)!) };
}

const Limit = v.pipe(
  v.optional(v.string(), '100'),
  v.transform(Number),
  v.check((n) => Number.isInteger(n) && n >= 1 && n <= LIST_MAX, `--limit is a whole number 1..${LIST_MAX}`),
);
const Takedown = v.object({ post_id: v.string(), reason: v.optional(v.string()) });
const OPERATORS: readonly Role[] = ['owner', 'operator'];

export const PUBS_ACTIONS = [
  action({
    name: 'pubs appeals',
    argv: '[--all] [--limit N]',
    note: 'open appeals, oldest first; --all: resolved ones too',
    input: v.object({ all: v.optional(v.boolean(), false), limit: Limit }),
    who: OPERATORS,
    run: (ctx, i) => listAppeals(ctx, { all: i.all, limit: i.limit }),
  }),
  action({
    name: 'pubs appeals resolve',
    argv: 'REVISION_ID --resolution TEXT',
    input: v.object({ revision_id: v.string(), resolution: v.string() }),
    who: OPERATORS,
    run: (ctx, i) => resolveAppeal(ctx, i.revision_id, i.resolution),
    audit: (i, r) => (r.already_resolved ? null : { target: i.revision_id.toLowerCase(), reason: i.resolution.trim() }),
  }),
  action({
    name: 'pubs articles',
    argv: '[--limit N]',
    note: 'the newest articles with their state',
    input: v.object({ limit: Limit }),
    who: OPERATORS,
    run: (ctx, i) => listArticles(ctx, i.limit),
  }),
  action({
    name: 'pubs hide',
    argv: 'POST_ID [--reason TEXT]',
    note: 'take an article down: out of every list, 410 read by id',
    input: Takedown,
    who: OPERATORS,
    publicText: ['reason'],
    run: (ctx, i) => hideArticle(ctx, i.post_id, i.reason),
    audit: (i, r) => (r.changed ? { target: i.post_id.toLowerCase(), reason: i.reason?.trim() ?? null, modlog: 'article_hidden' } : null),
  }),
  action({
    name: 'pubs unhide',
    argv: 'POST_ID [--reason TEXT]',
    note: 'put it back as it was',
    input: Takedown,
    who: OPERATORS,
    publicText: ['reason'],
    run: (ctx, i) => unhideArticle(ctx, i.post_id, i.reason),
    audit: (i, r) => (r.changed ? { target: i.post_id.toLowerCase(), reason: i.reason?.trim() ?? null, modlog: 'article_restored' } : null),
  }),
];
