// `svc admin show …`: the owner's side of the Show desk as operator actions (src/actions/action.ts).
// The queue lists the roots the editor's desk picked and no owner has decided. Approving or
// rejecting records the decision the way the spec records it (docs/show.md, "The owner's decision"): the
// owner's own labelled reply on the root, `Picked:` to approve and `Veto:` to reject, written as
// the owner's account through the board's createReply. So the root's status, /api/show, the
// reporter's publish check, the inbox and the waits see exactly what an owner's API reply makes.
import * as v from 'valibot';
import { type Account, accountByName, hasRole } from '../accounts/accounts.ts';
import { type Actor, action } from '../actions/action.ts';
import { UsageError } from '../admin/args.ts';
import { announceWrite } from '../board/events.ts';
import { createReply, type StoredPost } from '../board/posts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { threadUrl } from '../board/urls.ts';
import { factsOf, statusOf } from './labels.ts';
import { showStore } from './store.ts';

/** The queue lists at most this many roots, oldest first (the desk picks a handful a day). */
export const SHOW_QUEUE_MAX = 200;
/** The text of the owner's approval reply; the label is what counts (src/show/labels.ts). */
export const APPROVAL_TEXT = 'Picked: approved by the owner.';

const rootId = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.uuid('root_id must be a Show root’s id'));
const asName = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)));

function queue(ctx: AppContext) {
  const s = showStore(ctx.db);
  return s.awaitingOwner.all(SHOW_QUEUE_MAX).map((r) => ({
    root_id: r.root_id,
    title: r.title,
    hook: r.hook,
    author: r.author,
    outside: r.crew === 0,
    format: r.format,
    created_at: iso(r.created_at),
    url: threadUrl(ctx.config.baseUrl, r.root_id),
    body: r.body,
    desk_picks: s.deskPicks.all(r.root_id).map((p) => ({ by: p.by, at: iso(p.created_at), text: p.text })),
  }));
}

/**
 * The owner the reply is written as. From the console: the signed-in owner (`as`, if sent, must
 * name that account). From the shell: the live owner `--as` names, or the only live owner.
 */
function ownerFor(ctx: AppContext, actor: Actor, as: string | undefined): Account {
  if (actor.kind === 'account') {
    if (as !== undefined && as.toLowerCase() !== actor.name.toLowerCase()) throw new UsageError('the console decides as the signed-in owner: leave --as out');
    return accountByName(ctx, actor.name);
  }
  if (as === undefined) {
    const owners = showStore(ctx.db).liveOwners.all();
    if (owners.length === 0) throw new UsageError('no live account has the owner role: grant one first (svc admin role grant NAME owner)');
    if (owners.length > 1) throw new UsageError(`several owners (${owners.map((o) => o.name).join(', ')}): name one with --as OWNER_NAME`);
    return accountByName(ctx, owners[0]!.name);
  }
  const a = accountByName(ctx, as);
  if (a.revoked_at !== null || !hasRole(ctx, a.id, 'owner')) throw new UsageError(`--as ${as} is not a live owner`);
  return a;
}

interface Decided {
  answer: { root_id: string; decided_by: string; status: string; reply: { id: string; url: string; body: string } };
  written: StoredPost;
}

/** Writes the owner's labelled reply on a root that waits for the owner, in the action's transaction. */
function decide(ctx: AppContext, actor: Actor, id: string, as: string | undefined, body: string): Decided {
  const owner = ownerFor(ctx, actor, as);
  const s = showStore(ctx.db);
  const item = s.liveItem.get(id);
  if (!item) fail('NOT_FOUND', { root_id: id }, `No live Show root ${id}.`);
  const status = statusOf(item, factsOf(ctx, id));
  if (status !== 'picked') fail('SHOW_NOT_AWAITING', { root_id: id, status }, `Show root ${id} is ${status}, not waiting for the owner.`);
  const written: StoredPost = {};
  const { reply } = createReply(ctx, owner, id, { body }, written);
  return {
    answer: { root_id: id, decided_by: owner.name, status: statusOf(item, factsOf(ctx, id)), reply: { id: reply.id, url: reply.url, body: reply.body } },
    written,
  };
}

/** After the commit: the reply is announced like any reply (the root's author is waiting on it). */
const announce = async (ctx: AppContext, r: Decided) => {
  announceWrite(ctx, r.answer.reply.id, 'created', r.written);
  return r.answer;
};

export const SHOW_ACTIONS = [
  action({
    name: 'show queue',
    note: 'Show roots the desk picked, waiting for the owner',
    input: v.object({}),
    who: ['owner', 'operator', 'editor'],
    run: (ctx) => queue(ctx),
  }),
  action({
    name: 'show approve',
    argv: 'root_id:ROOT_ID [--as OWNER_NAME]',
    note: "writes the owner's Picked: reply",
    input: v.object({ root_id: rootId, as: asName }),
    who: ['owner'],
    run: (ctx, input, actor) => decide(ctx, actor, input.root_id, input.as, APPROVAL_TEXT),
    after: announce,
    audit: (input) => ({ target: input.root_id }),
  }),
  action({
    name: 'show reject',
    argv: 'root_id:ROOT_ID --reason TEXT [--as OWNER_NAME]',
    note: "writes the owner's Veto: reply; permanent",
    input: v.object({ root_id: rootId, reason: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2000)), as: asName }),
    who: ['owner'],
    publicText: ['reason'],
    run: (ctx, input, actor) => decide(ctx, actor, input.root_id, input.as, `Veto: ${input.reason}`),
    after: announce,
    audit: (input) => ({ target: input.root_id, reason: input.reason }),
  }),
];
