// The operator's actions on the outside mirror (src/actions/action.ts): the fetcher's credentials,
// the mirror's posts as the operator sees them, the audited read of an original, and withdrawal.
import * as v from 'valibot';
import type { Role } from '../accounts/accounts.ts';
import { type Actor, action } from '../actions/action.ts';
import { UsageError } from '../admin/args.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { readOriginalAs, withdrawAs } from './actions.ts';
import { createFetcherCredential, listFetcherCredentials, revokeFetcherCredential } from './credential.ts';
import { extStore } from './store.ts';

export const WITHDRAW_REASON_MAX = 2000;
const LIST_MAX = 200;
const PREVIEW = 280;
const OPERATORS: readonly Role[] = ['owner', 'operator'];

/** Who the mirror's own audit trail (ext_audit) names: the account, or the server's shell. */
const extActor = (actor: Actor) => (actor.kind === 'cli' ? 'operator-cli' : actor.id);

/** `svc admin mirror list [--limit N]`: the newest mirror posts, withdrawn ones too, with a preview of their sanitized text. */
export function listMirrorPosts(ctx: AppContext, limit: number) {
  const rows = extStore(ctx.db).recentAny.all(limit);
  return {
    posts: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      author: r.username,
      created_at: iso(r.created_at),
      state: r.withdrawn_at === null ? ('live' as const) : ('withdrawn' as const),
      withdrawn_at: r.withdrawn_at === null ? null : iso(r.withdrawn_at),
      text: [...r.text].length > PREVIEW ? `${[...r.text].slice(0, PREVIEW).join('')}…` : r.text,
    })),
  };
}

const Limit = v.pipe(
  v.optional(v.string(), '50'),
  v.transform(Number),
  v.check((n) => Number.isInteger(n) && n >= 1 && n <= LIST_MAX, `--limit is a whole number 1..${LIST_MAX}`),
);

function checkedReason(reason: string): string {
  const text = reason.trim();
  if (text === '' || [...text].length > WITHDRAW_REASON_MAX) throw new UsageError(`--reason needs 1..${WITHDRAW_REASON_MAX} characters`);
  return text;
}

export const EXT_ACTIONS = [
  action({
    name: 'fetcher create',
    note: 'prints the outside mirror’s fetcher credential, once',
    input: v.object({}),
    who: ['owner'],
    run: (ctx) => createFetcherCredential(ctx),
    audit: (_i, r) => ({ target: r.credential_id }),
  }),
  action({
    name: 'fetcher list',
    note: 'the fetcher credentials: ids and dates, never the credential',
    input: v.object({}),
    who: OPERATORS,
    run: (ctx) => listFetcherCredentials(ctx),
  }),
  action({
    name: 'fetcher revoke',
    argv: 'CREDENTIAL_ID',
    note: 'the credential stops at once',
    input: v.object({ credential_id: v.string() }),
    who: ['owner'],
    run: (ctx, i) => revokeFetcherCredential(ctx, i.credential_id),
    audit: (_i, r) => (r.changed ? { target: r.credential_id } : null),
  }),
  action({
    name: 'mirror list',
    argv: '[--limit N]',
    note: 'the newest mirror posts, withdrawn ones too',
    input: v.object({ limit: Limit }),
    who: OPERATORS,
    run: (ctx, i) => listMirrorPosts(ctx, i.limit),
  }),
  action({
    name: 'mirror original',
    argv: 'POST_ID',
    note: 'the original as delivered: untrusted, every read audited',
    input: v.object({ post_id: v.string() }),
    who: OPERATORS,
    run: (ctx, i, actor) => readOriginalAs(ctx, extActor(actor), i.post_id),
    audit: (_i, r) => ({ target: r.id }),
  }),
  action({
    name: 'mirror withdraw',
    argv: 'POST_ID --reason TEXT',
    note: 'out of every read for good, in the moderation log',
    input: v.object({ post_id: v.string(), reason: v.string() }),
    who: OPERATORS,
    publicText: ['reason'],
    run: (ctx, i, actor) => {
      const r = withdrawAs(ctx, extActor(actor), i.post_id, checkedReason(i.reason));
      return { ...r.answer, changed: r.changed };
    },
    audit: (i, r) => (r.changed ? { target: r.id, reason: i.reason.trim(), modlog: 'mirror_post_withdrawn' } : null),
  }),
];
