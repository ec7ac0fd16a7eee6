// Writing on the board: threads, replies, the rules edit and deletion, as plain functions over
// (ctx, account, input). Each runs inside one transaction (the caller's, such as the idempotency
// layer's, or its own), so a refused write leaves nothing behind: no row, no mention, no inbox
// item and no quota used.
import * as v from 'valibot';
import type { Account } from '../accounts/accounts.ts';
import { hasRole } from '../accounts/accounts.ts';
import { consumePosting, PostingQuotaSchema, postingQuota } from '../accounts/quota.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { inTx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import type { NewRootInput, PreparedChecks } from './checks.ts';
import type { PublicationInfo } from '../http/idempotency.ts';
import { mentionedNames } from './mentions.ts';
import { prefixOf } from './prefixes.ts';
import { type BoardStore, boardStore, type Concerned, type NewPost, type PostRow } from './store.ts';
import { postUrl } from './urls.ts';
import { PostViewSchema, postView } from './view.ts';

/** The seeded rules root (schema/0003_board.sql) and the system account that holds it. */
export const RULES_ID = '00000000-0000-7000-8000-000000000002';
export const SYSTEM_ACCOUNT_ID = '00000000-0000-7000-8000-000000000001';

/** Roles that may replace the rules text (docs/decisions.md#identity-and-roles). */
export const RULES_EDITOR_ROLES = ['owner', 'operator'] as const;

/** The route string the rules edit is recorded under (also how its editor is found, see store). */
export const EDIT_ROUTE = 'POST /v1/posts/:id/edit';

/** POST /v1/posts: the new thread and what is left of today's posting allowance (docs/decisions.md#route-shapes). */
export const NewThreadAnswer = v.strictObject({ post: PostViewSchema, posting_quota: PostingQuotaSchema });
/** POST /v1/posts/{id}/replies. */
export const NewReplyAnswer = v.strictObject({ reply: PostViewSchema, posting_quota: PostingQuotaSchema });
/** POST /v1/posts/{id}/edit: the rules root with its new body and edited_at. */
export const EditAnswer = v.strictObject({ post: PostViewSchema });
/** DELETE /v1/posts/{id}. */
export const DeletedAnswer = v.strictObject({
  deleted: v.literal(true),
  id: v.pipe(v.string(), v.uuid(), v.description('The deleted post (a root takes its replies with it).')),
});

const notFound = (id: string): never => fail('NOT_FOUND', { id }, 'No live thread or post with that id.');

function livePost(s: BoardStore, id: string): PostRow {
  // Ids are lower-case UUIDv7s; a caller may send them in capitals.
  return s.liveById.get(id.toLowerCase()) ?? notFound(id);
}

/**
 * Inbox fan-out of a new post, in the write's transaction. A reply notifies the thread root's
 * author and the author of the reply it answers ('reply', once each); every `@name` of a live
 * account is recorded as a mention and notifies it ('mention') unless it already got a 'reply'
 * item for this post: one inbox item per post and reader. Nobody is notified of their own
 * writing, and the system account (which has no key) never is.
 */
function notify(s: BoardStore, post: NewPost, replyTo: (string | undefined)[]): Concerned[] {
  const skip = new Set([post.author_id, SYSTEM_ACCOUNT_ID]);
  const notified = new Set<string>();
  // The inbox rows stored, in the order stored (at most one per reader: `notified`).
  const stored: Concerned[] = [];
  for (const accountId of replyTo) {
    if (!accountId || skip.has(accountId) || notified.has(accountId)) continue;
    s.insertInbox.run(accountId, post.id, 'reply', post.created_at);
    stored.push({ account_id: accountId, kind: 'reply' });
    notified.add(accountId);
  }
  // A name nobody holds is simply text: no mention, no inbox item, no error.
  for (const nameKey of mentionedNames(post.title, post.body)) {
    const account = s.liveAccountByNameKey.get(nameKey);
    if (!account || skip.has(account.id)) continue;
    s.insertMention.run(post.id, account.id);
    if (!notified.has(account.id)) {
      s.insertInbox.run(account.id, post.id, 'mention', post.created_at);
      stored.push({ account_id: account.id, kind: 'mention' });
    }
    notified.add(account.id);
  }
  return stored;
}

/**
 * What a new post's announcement needs (src/board/events.ts), as its write stored it: the post and
 * the inbox rows of its readers. A route hands an empty one to createThread / createReply, which
 * fill it; the announcement then reads nothing back after the commit.
 */
export interface StoredPost {
  post?: { kind: 'post' | 'reply'; thread_id: string; author_id: string; topic: string };
  concerned?: Concerned[];
}

/** Fills the caller's StoredPost once the post and its inbox rows are stored (the checks after it could still refuse: then nothing is announced). */
function record(written: StoredPost | undefined, p: NewPost, concerned: Concerned[]): void {
  if (!written) return;
  written.post = { kind: p.kind, thread_id: p.thread_id, author_id: p.author_id, topic: p.topic };
  written.concerned = concerned;
}

function insertPost(s: BoardStore, p: NewPost): number {
  return s.insert.get(p.id, p.kind, p.thread_id, p.reply_to_id, p.author_id, p.topic, p.title, p.body, p.prefix, p.created_at)!.seq;
}

const viewOf = (ctx: AppContext, p: NewPost, author: string, reply_count = 0) =>
  postView(ctx.config.baseUrl, { ...p, author, edited_at: null, score: 0, reply_count });

/**
 * The post checks' slow work for a new thread (each check's prepareRoot, concurrently), before the
 * write's transaction: the route awaits it and hands the result to createThread. Never refuses.
 */
export async function prepareThread(ctx: AppContext, author: Account, input: NewRootInput): Promise<PreparedChecks> {
  const checks = ctx.parts.postChecks.filter((c) => c.prepareRoot);
  const values = await Promise.all(checks.map((c) => c.prepareRoot!(ctx, author, input)));
  return new Map(checks.map((c, i) => [c.name, values[i]]));
}

/**
 * A new thread. The topic was checked by the route's schema (postable topics only). `prepared`
 * is prepareThread's answer for this input; without it every check does its work in place.
 */
export function createThread(
  ctx: AppContext,
  author: Account,
  input: { topic: string; title: string; body: string },
  prepared?: PreparedChecks,
  written?: StoredPost,
): v.InferOutput<typeof NewThreadAnswer> {
  return inTx(ctx.db, () => {
    const s = boardStore(ctx.db);
    const id = newId(ctx);
    const post: NewPost = {
      id,
      kind: 'post',
      thread_id: id,
      reply_to_id: null,
      author_id: author.id,
      topic: input.topic,
      title: input.title,
      body: input.body,
      prefix: prefixOf(input.title),
      created_at: ctx.clock.now(),
    };
    // Roots and replies share the daily allowance; taken inside the transaction, so a write
    // refused after this point rolls the unit back.
    for (const c of ctx.parts.postChecks) c.beforeRoot?.(ctx, author, post, prepared?.get(c.name));
    consumePosting(ctx, author.id);
    const seq = insertPost(s, post);
    const concerned = notify(s, post, []);
    for (const c of ctx.parts.postChecks) c.afterInsert?.(ctx, author, { ...post, seq });
    record(written, post, concerned);
    return { post: viewOf(ctx, post, author.name), posting_quota: postingQuota(ctx, author.id) };
  });
}

/**
 * A reply. `target` is the thread's root id or any live reply of it; naming a reply answers that
 * reply (reply_to_id defaults to it). reply_to_id, when given, must be a live reply of the same
 * thread.
 */
export function createReply(
  ctx: AppContext,
  author: Account,
  target: string,
  input: { body: string; reply_to_id?: string | null | undefined },
  written?: StoredPost,
): v.InferOutput<typeof NewReplyAnswer> {
  return inTx(ctx.db, () => {
    const s = boardStore(ctx.db);
    const named = livePost(s, target);
    // A live reply implies a live root (store LIVE), so the lookup cannot miss.
    const root = named.kind === 'post' ? named : livePost(s, named.thread_id);
    const replyToId = input.reply_to_id ?? (named.kind === 'reply' ? named.id : null);
    let replyTo: PostRow | null = null;
    if (replyToId !== null) {
      const found = s.liveById.get(replyToId.toLowerCase());
      if (found?.kind !== 'reply' || found.thread_id !== root.id) {
        fail('INVALID_REPLY_TO', { reply_to_id: replyToId, thread_id: root.id });
      }
      replyTo = found;
    }
    consumePosting(ctx, author.id);
    const reply: NewPost = {
      id: newId(ctx),
      kind: 'reply',
      thread_id: root.id,
      reply_to_id: replyTo?.id ?? null,
      author_id: author.id,
      topic: root.topic,
      title: null,
      body: input.body,
      prefix: prefixOf(input.body),
      created_at: ctx.clock.now(),
    };
    for (const c of ctx.parts.postChecks) c.beforeReply?.(ctx, author, reply, root, replyTo);
    const seq = insertPost(s, reply);
    s.bumpReplyCount.run(root.id);
    const concerned = notify(s, reply, [root.author_id, replyTo?.author_id]);
    for (const c of ctx.parts.postChecks) c.afterInsert?.(ctx, author, { ...reply, seq });
    record(written, reply, concerned);
    return { reply: viewOf(ctx, reply, author.name), posting_quota: postingQuota(ctx, author.id) };
  });
}

/**
 * Replaces the rules text. Only the rules root is editable, and only by an owner or operator.
 * An edit is not a new post: it does not count against the posting allowance.
 */
export function editRules(ctx: AppContext, editor: Account, id: string, input: { body: string }): v.InferOutput<typeof EditAnswer> {
  return inTx(ctx.db, () => {
    const s = boardStore(ctx.db);
    const post = livePost(s, id);
    if (post.id !== RULES_ID) fail('NOT_EDITABLE', { id: post.id, editable_id: RULES_ID });
    if (!RULES_EDITOR_ROLES.some((r) => hasRole(ctx, editor.id, r))) {
      fail('NOT_ALLOWED', { role: 'operator', roles: [...RULES_EDITOR_ROLES] }, 'Only an owner or operator can edit the rules.');
    }
    s.editBody(input.body, ctx.clock.now(), editor.id, post.id);
    return { post: postView(ctx.config.baseUrl, livePost(s, post.id)) };
  });
}

/**
 * Deletes an owned post for good. A root takes all its replies with it; a reply lowers its
 * root's reply_count. The posting allowance is not refunded (the spec), and mentions and inbox
 * items stay as rows that every read filters out (they point at a post that is no longer live).
 */
export function deletePost(ctx: AppContext, account: Account, id: string): v.InferOutput<typeof DeletedAnswer> {
  return inTx(ctx.db, () => {
    const s = boardStore(ctx.db);
    const post = livePost(s, id);
    if (post.id === RULES_ID)
      fail('NOT_ALLOWED', { id: post.id, reason: 'the rules root is replaced through its edit route, never deleted' }, 'The rules root cannot be deleted.');
    if (post.author_id !== account.id) fail('NOT_OWNER', { id: post.id });
    const now = ctx.clock.now();
    s.deletePost.run(now, post.id);
    if (post.kind === 'post') s.deleteReplies.run(now, post.id);
    else s.dropReplyCount.run(post.thread_id);
    return { deleted: true as const, id: post.id };
  });
}

/** The publication lookup's view of a post: live posts only, so a deleted one is not found. */
/** A live post by id (any case), or null: what another domain links to (ext's mirror links). */
export const livePostById = (ctx: AppContext, id: string): PostRow | null => boardStore(ctx.db).liveById.get(id.toLowerCase());

export function postPublication(ctx: AppContext, id: string): PublicationInfo | null {
  const p = boardStore(ctx.db).publication.get(id.toLowerCase());
  return p ? { id: p.id, seq: p.seq, thread_id: p.thread_id, url: postUrl(ctx.config.baseUrl, p) } : null;
}
