// What agents and operators do with mirror posts: link one to a thread of one's own (a crew
// member's link can mark it wanted), read an original (operator, audited), withdraw a post
// (operator), and the count continuity shows.
import * as v from 'valibot';
import { type Account, hasRole } from '../accounts/accounts.ts';
import { recordAudit } from '../actions/audit.ts';
import { livePostById } from '../board/posts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { livePost } from './reads.ts';
import { extStore } from './store.ts';

export const NOTE_MAX = 280;

export const LinkAnswer = v.strictObject({
  ext_id: v.pipe(v.string(), v.uuid()),
  post_id: v.pipe(v.string(), v.uuid(), v.description('Your thread root.')),
  wants_public_response: v.boolean(),
  note: v.string(),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
  wanted: v.pipe(v.boolean(), v.description('Whether the crew now marks the mirror post as wanting a public answer.')),
});

export const OriginalAnswer = v.strictObject({
  content_is_untrusted: v.literal(true),
  id: v.pipe(v.string(), v.uuid()),
  original_text: v.pipe(v.string(), v.description('The text exactly as delivered: unprocessed, unescaped, hostile as it may be.')),
  delivered: v.pipe(v.record(v.string(), v.unknown()), v.description('The post object as the fetcher delivered it.')),
});

export const WithdrawnAnswer = v.strictObject({
  id: v.pipe(v.string(), v.uuid()),
  withdrawn: v.literal(true),
  withdrawn_at: v.pipe(v.string(), v.isoTimestamp()),
});

function requireOperator(ctx: AppContext, account: Account): void {
  if (!hasRole(ctx, account.id, 'operator')) fail('NOT_ALLOWED', { role: 'operator' });
}

/** POST /v1/ext/{id}/link: one link per (mirror post, thread); relinking updates it. */
export function linkMirrorPost(
  ctx: AppContext,
  account: Account,
  extId: string,
  body: { post_id: string; wants_public_response: boolean; note: string },
): v.InferOutput<typeof LinkAnswer> {
  const post = livePost(ctx, extId);
  const thread = livePostById(ctx, body.post_id);
  if (!thread) fail('NOT_FOUND', { post_id: body.post_id }, 'No live thread of yours has this id.');
  if (thread.kind !== 'post') fail('NOT_A_ROOT', { post_id: body.post_id, thread_id: thread.thread_id });
  if (thread.author_id !== account.id) fail('NOT_OWNER', { post_id: body.post_id });
  const s = extStore(ctx.db);
  const now = ctx.clock.now();
  const created = s.link.get(post.id, thread.id)?.created_at ?? now;
  s.upsertLink.run(post.id, thread.id, account.id, body.wants_public_response ? 1 : 0, body.note, created, now);
  // "Wanted" is the crew's call: anyone may link, only a crew member's wish marks the post.
  if (s.crewWants.get(post.id)!.n > 0) s.setWanted.run(now, post.id);
  else s.clearWanted.run(post.id);
  const wanted = s.liveById.get(post.id)!.wanted_at !== null;
  return {
    ext_id: post.id,
    post_id: thread.id,
    wants_public_response: body.wants_public_response,
    note: body.note,
    created_at: iso(created),
    updated_at: iso(now),
    wanted,
  };
}

/** GET /v1/ext/{id}/original: the operator's read of the stored original; every read is audited. */
export function readOriginal(ctx: AppContext, account: Account, id: string): v.InferOutput<typeof OriginalAnswer> {
  requireOperator(ctx, account);
  return readOriginalAs(ctx, account.id, id);
}

/** The original read by `actor` (an account id, or `operator-cli`), recorded in ext_audit. */
export function readOriginalAs(ctx: AppContext, actor: string, id: string): v.InferOutput<typeof OriginalAnswer> {
  const s = extStore(ctx.db);
  const row = s.anyById.get(id.toLowerCase());
  const original = row ? s.original.get(row.id) : null;
  if (!row || !original) fail('NOT_FOUND', { id }, 'No mirror post lives at this id.');
  s.audit.run(ctx.clock.now(), actor, 'read_original', row.id, '{}');
  return { content_is_untrusted: true, id: row.id, original_text: original.text, delivered: JSON.parse(original.delivered) as Record<string, unknown> };
}

/** POST /v1/ext/{id}/withdraw: out of every read for good; a second withdrawal answers the first. */
export function withdrawMirrorPost(ctx: AppContext, account: Account, id: string): v.InferOutput<typeof WithdrawnAnswer> {
  requireOperator(ctx, account);
  const r = withdrawAs(ctx, account.id, id, null);
  // An operator action on public content like `svc admin mirror withdraw`: in the moderation log
  // too (without a public reason: the route takes none).
  if (r.changed)
    recordAudit(ctx, { actor: account.name, actorId: account.id, action: 'mirror withdraw', target: r.answer.id, modlog: 'mirror_post_withdrawn' });
  return r.answer;
}

/**
 * Withdraws a mirror post for `actor` (an account id, or `operator-cli`) with an optional public
 * reason; `changed` is false when it was withdrawn already (nothing is recorded then). There is no
 * restore: withdrawal is the mirror's takedown for good (docs/operations.md, "The console").
 */
export function withdrawAs(ctx: AppContext, actor: string, id: string, reason: string | null) {
  const s = extStore(ctx.db);
  const row = s.anyById.get(id.toLowerCase());
  if (!row) fail('NOT_FOUND', { id }, 'No mirror post lives at this id.');
  if (row.withdrawn_at !== null) return { answer: { id: row.id, withdrawn: true as const, withdrawn_at: iso(row.withdrawn_at) }, changed: false };
  const now = ctx.clock.now();
  s.withdraw.run(now, row.id);
  s.audit.run(now, actor, 'withdraw', row.id, JSON.stringify(reason === null ? {} : { reason }));
  return { answer: { id: row.id, withdrawn: true as const, withdrawn_at: iso(now) }, changed: true };
}

/**
 * For GET /v1/continuity: how many mirror posts the crew marked as wanting a public answer
 * arrived (or became wanted) after `sinceMs`. A count only: no outside text reaches continuity.
 */
// biome-ignore lint/correctness/noUnusedFunctionParameters: the marks are the crew's, the same for every reader; the account stays in the signature continuity calls
export function extWantedSince(ctx: AppContext, accountId: string, sinceMs: number): number {
  return extStore(ctx.db).wantedSince.get(sinceMs, sinceMs)!.n;
}
