// `svc admin show …`: the Show desk as operator actions (src/actions/action.ts). The desk's drafts
// list the roots nobody picked yet; an editor picks one the way the spec records a pick (docs/show.md,
// "Picking and publishing"): the editor's own `Pick:` reply on the root, written as that account
// through the board's createReply, so the label, the inbox and /api/show are those of an API pick.
// The queue lists the roots the editor's desk picked and no owner has decided. Approving or
// rejecting records the decision the way the spec records it (docs/show.md, "The desk's pick and
// the owner's decision"): the owner's own labelled reply on the root, `Picked:` to approve and
// `Veto:` to reject, written as the owner's account through the board's createReply. So the root's status, /api/show, the
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
import { SHOW_WINDOW_DAYS } from './document.ts';
import { factsOf, statusOf } from './labels.ts';
import { type ItemRow, type ListedRow, showStore } from './store.ts';

/** The queue lists at most this many roots, oldest first (the desk picks a handful a day). */
export const SHOW_QUEUE_MAX = 200;
/** The text of the owner's approval reply; the label is what counts (src/show/labels.ts). */
export const APPROVAL_TEXT = 'Picked: approved by the owner.';
/** The text of a desk pick written without a note. */
export const PICK_TEXT = 'Pick: picked by the desk.';

const rootId = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.uuid('root_id must be a Show root’s id'));
const asName = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)));

type RootRow = ListedRow & { body: string };

/** A listed root as the desk and the owner read it. */
const rootOf = (ctx: AppContext, r: RootRow) => ({
  root_id: r.root_id,
  title: r.title,
  hook: r.hook,
  author: r.author,
  outside: r.crew === 0,
  format: r.format,
  created_at: iso(r.created_at),
  url: threadUrl(ctx.config.baseUrl, r.root_id),
  body: r.body,
});

/** The desk's drafts: live roots of /api/show's window with no pick, flag or veto, newest first. */
const drafts = (ctx: AppContext) =>
  showStore(ctx.db)
    .deskDrafts.all(ctx.clock.now() - SHOW_WINDOW_DAYS * 86_400_000, SHOW_QUEUE_MAX)
    .map((r) => rootOf(ctx, r));

function queue(ctx: AppContext) {
  const s = showStore(ctx.db);
  return s.awaitingOwner.all(SHOW_QUEUE_MAX).map((r) => ({
    ...rootOf(ctx, r),
    desk_picks: s.deskPicks.all(r.root_id).map((p) => ({ by: p.by, at: iso(p.created_at), text: p.text })),
  }));
}

const ROLE_WORDS = {
  owner: { verb: 'decides', plural: 'owners', flag: 'OWNER_NAME' },
  editor: { verb: 'picks', plural: 'editors', flag: 'EDITOR_NAME' },
} as const;

/**
 * The account the reply is written as, holding `role`. From the console: the signed-in account
 * (`as`, if sent, must name it). From the shell: the live holder `--as` names, or the only one.
 */
function writerFor(ctx: AppContext, actor: Actor, as: string | undefined, role: keyof typeof ROLE_WORDS): Account {
  const words = ROLE_WORDS[role];
  if (actor.kind === 'account') {
    if (as !== undefined && as.toLowerCase() !== actor.name.toLowerCase())
      throw new UsageError(`the console ${words.verb} as the signed-in ${role}: leave --as out`);
    return accountByName(ctx, actor.name);
  }
  if (as === undefined) {
    const holders = showStore(ctx.db).liveHolders.all(role);
    if (holders.length === 0) throw new UsageError(`no live account has the ${role} role: grant one first (svc admin role grant NAME ${role})`);
    if (holders.length > 1) throw new UsageError(`several ${words.plural} (${holders.map((o) => o.name).join(', ')}): name one with --as ${words.flag}`);
    return accountByName(ctx, holders[0]!.name);
  }
  const a = accountByName(ctx, as);
  if (a.revoked_at !== null || !hasRole(ctx, a.id, role)) throw new UsageError(`--as ${as} is not a live ${role}`);
  return a;
}

interface Replied {
  answer: { root_id: string; status: string; reply: { id: string; url: string; body: string } };
  written: StoredPost;
}

/** Writes `body` as `author`'s reply on the root through the board's write (createReply), in the action's transaction. */
function replyAs(ctx: AppContext, author: Account, item: ItemRow, body: string, by: Record<string, string>): Replied {
  const written: StoredPost = {};
  const { reply } = createReply(ctx, author, item.root_id, { body }, written);
  const status = statusOf(item, factsOf(ctx, item.root_id));
  return { answer: { root_id: item.root_id, ...by, status, reply: { id: reply.id, url: reply.url, body: reply.body } }, written };
}

const liveItem = (ctx: AppContext, id: string): ItemRow => {
  const item = showStore(ctx.db).liveItem.get(id);
  if (!item) fail('NOT_FOUND', { root_id: id }, `No live Show root ${id}.`);
  return item;
};

/** Writes the owner's labelled reply on a root that waits for the owner. */
function decide(ctx: AppContext, actor: Actor, id: string, as: string | undefined, body: string): Replied {
  const owner = writerFor(ctx, actor, as, 'owner');
  const item = liveItem(ctx, id);
  const status = statusOf(item, factsOf(ctx, id));
  if (status !== 'picked') fail('SHOW_NOT_AWAITING', { root_id: id, status }, `Show root ${id} is ${status}, not waiting for the owner.`);
  return replyAs(ctx, owner, item, body, { decided_by: owner.name });
}

/**
 * Writes an editor's `Pick:` reply: the desk's pick as the spec records it. A root that can no
 * longer be published (flagged, vetoed, posted) or that this editor picked already is refused:
 * the reply would change nothing.
 */
function pick(ctx: AppContext, actor: Actor, id: string, as: string | undefined, note: string | undefined): Replied {
  const editor = writerFor(ctx, actor, as, 'editor');
  const item = liveItem(ctx, id);
  const status = statusOf(item, factsOf(ctx, id));
  if (status === 'flagged' || status === 'posted') fail('SHOW_NOT_PICKABLE', { root_id: id, status }, `Show root ${id} is ${status}: a pick changes nothing.`);
  if (
    showStore(ctx.db)
      .deskPicks.all(id)
      .some((p) => p.by === editor.name)
  )
    fail('SHOW_NOT_PICKABLE', { root_id: id, status, picked_by: editor.name }, `${editor.name} picked Show root ${id} already.`);
  return replyAs(ctx, editor, item, note === undefined ? PICK_TEXT : `Pick: ${note}`, { picked_by: editor.name });
}

/** After the commit: the reply is announced like any reply (the root's author is waiting on it). */
const announce = async (ctx: AppContext, r: Replied) => {
  announceWrite(ctx, r.answer.reply.id, 'created', r.written);
  return r.answer;
};

const text = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2000));

export const SHOW_ACTIONS = [
  action({
    name: 'show queue',
    note: 'Show roots the desk picked, waiting for the owner',
    input: v.object({}),
    who: ['owner', 'operator', 'editor'],
    run: (ctx) => queue(ctx),
  }),
  action({
    name: 'show drafts',
    note: 'Show roots of the last 7 days nobody picked, flagged or vetoed',
    input: v.object({}),
    who: ['owner', 'operator', 'editor'],
    run: (ctx) => drafts(ctx),
  }),
  action({
    name: 'show pick',
    argv: 'root_id:ROOT_ID [--note TEXT] [--as EDITOR_NAME]',
    note: "writes the editor's Pick: reply",
    input: v.object({ root_id: rootId, note: v.optional(text), as: asName }),
    // The spec counts a Pick from the editor role only (docs/show.md): an owner takes that role to pick.
    who: ['editor'],
    publicText: ['note'],
    run: (ctx, input, actor) => pick(ctx, actor, input.root_id, input.as, input.note),
    after: announce,
    audit: (input) => ({ target: input.root_id, reason: input.note ?? null }),
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
    input: v.object({ root_id: rootId, reason: text, as: asName }),
    who: ['owner'],
    publicText: ['reason'],
    run: (ctx, input, actor) => decide(ctx, actor, input.root_id, input.as, `Veto: ${input.reason}`),
    after: announce,
    audit: (input) => ({ target: input.root_id, reason: input.reason }),
  }),
];
