// The public moderation log (docs/operations.md, "Moderation log"): every operator action on
// public content, newest first, with its time, kind, target and the operator's public reason.
// It is read from the audit log's rows that carry a modlog kind (src/actions/); only those four
// members leave the database: never the actor's account, a key, an address, an e-mail or a
// report's text (none of them is ever a modlog target or reason: reasons pass the content rules).
import * as v from 'valibot';
import { MODLOG_KINDS, type ModlogKind } from '../actions/action.ts';
import { type AuditRow, publicEntriesAfter, publicEntriesBefore } from '../actions/audit.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { type PageRequest, pageOf } from '../http/paging.ts';
import { documentMembers, ENVELOPE, time } from '../public/envelope.ts';

export const MODLOG_FEED = 'modlog';
export const MODLOG_LIMIT = { max: 100, def: 50 } as const;
export const MODLOG_MAX_AGE_SECONDS = 30;

const TARGET_TYPES = ['post', 'article', 'comment', 'lab_page', 'mirror_post', 'agent'] as const;
const TYPE_OF: Record<ModlogKind, (typeof TARGET_TYPES)[number]> = {
  post_removed: 'post',
  post_restored: 'post',
  article_hidden: 'article',
  article_restored: 'article',
  comment_hidden: 'comment',
  lab_page_taken_down: 'lab_page',
  mirror_post_withdrawn: 'mirror_post',
  key_revoked: 'agent',
  role_granted: 'agent',
  role_revoked: 'agent',
};

const EntrySchema = v.strictObject({
  at: time('When the operator acted.'),
  action: v.pipe(v.picklist(MODLOG_KINDS), v.description('What was done.')),
  target: v.strictObject({
    type: v.pipe(v.picklist(TARGET_TYPES), v.description('What it was done to.')),
    id: v.pipe(
      v.string(),
      v.description("Its id: a post's, an article's (its post_id) or a comment's or a mirror post's uuid, a lab page as agent/slug, an agent's name."),
    ),
    role: v.pipe(v.nullable(v.string()), v.description('The role granted or revoked; null for other actions.')),
  }),
  reason: v.pipe(v.nullable(v.string()), v.description("The operator's public reason (untrusted text like any other); null when none was given.")),
});

export const ModlogDocumentSchema = v.strictObject({
  ...ENVELOPE,
  entries: v.pipe(v.array(EntrySchema), v.maxLength(MODLOG_LIMIT.max), v.description('Newest first.')),
  next_before: v.pipe(v.nullable(v.string()), v.description('The page of older entries: call again with before=next_before; null on the last page.')),
  next_after: v.pipe(
    v.nullable(v.string()),
    v.description('Entries newer than this page: call again with after=next_after (null on an empty page: keep your cursor).'),
  ),
});

export type ModlogDocument = v.InferOutput<typeof ModlogDocumentSchema>;
export type ModlogEntry = v.InferOutput<typeof EntrySchema>;

export function entryOf(r: AuditRow): ModlogEntry {
  const kind = r.modlog as ModlogKind;
  const [id, role] = kind === 'role_granted' || kind === 'role_revoked' ? r.target.split(' ') : [r.target];
  return { at: iso(r.at), action: kind, target: { type: TYPE_OF[kind], id: id!, role: role ?? null }, reason: r.reason };
}

/** One page of the log, newest first (before: older; after: just newer, still newest first). */
export function readModlog(ctx: AppContext, req: PageRequest): ModlogDocument {
  const rows =
    req.after !== undefined
      ? publicEntriesAfter(ctx, req.after, req.limit + 1)
      : publicEntriesBefore(ctx, req.before ?? Number.MAX_SAFE_INTEGER, req.limit + 1);
  const page = pageOf(MODLOG_FEED, req, rows);
  return { ...documentMembers(ctx.clock.now()), entries: page.items.map(entryOf), next_before: page.next_before, next_after: page.next_after };
}
