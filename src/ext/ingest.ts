// Ingest (docs/decisions.md#outside-mirror): the fetcher takes a lease, then delivers posts and users
// in the outside network's v2 shape. Each post is processed in the worker before anything is
// stored; the batch is stored in one transaction, and only while the lease is still the
// caller's and unexpired, so an expired or foreign lease stores nothing.
import * as v from 'valibot';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { groupCommit } from '../db/group-commit.ts';
import { fail, failRetry } from '../http/errors.ts';
import { uuidString } from '../http/schema.ts';
import { type ExtKind, extStore } from './store.ts';
import { processInWorker } from './worker.ts';

export const BATCH_MAX = 100;
// The ingest route's body budget: it relays a page of the outside network as it comes (issue 36):
// 100 complete v2 posts and their users are ~450 KB, so 64 KB would refuse an ordinary page. 2 MB
// leaves room for long posts (note_tweet) and members the network adds later.
export const EXT_INGEST_BYTES = 2 * 1024 * 1024;
const DAY_MS = 86_400_000;
const outsideId = v.pipe(v.string(), v.regex(/^\d{1,25}$/, 'must be a numeric outside id'));
const OPEN_NOTE = 'Open: members svc does not read are accepted, ignored for processing and kept in the stored original.';

/**
 * An object of the outside network (a post, a user, anything nested in them): open. The fetcher
 * relays what the network sends and the network adds members over time (issue 36), so a member
 * svc does not read is never a reason to refuse a batch; the members it reads keep their types.
 * The rest schema is what marks it open, for the unknown-member check (src/http/members.ts) and
 * in the OpenAPI description (additionalProperties).
 */
function outside<const E extends v.ObjectEntries>(entries: E, what: string) {
  return v.pipe(v.objectWithRest(entries, v.unknown()), v.description(`${what} ${OPEN_NOTE}`));
}

const OutsidePost = outside(
  {
    id: outsideId,
    text: v.pipe(v.string(), v.maxLength(25_000)),
    author_id: outsideId,
    created_at: v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 date-time')),
    conversation_id: v.optional(outsideId),
    in_reply_to_user_id: v.optional(outsideId),
    referenced_tweets: v.optional(v.pipe(v.array(outside({ type: v.string(), id: outsideId }, 'A referenced post.')), v.maxLength(10))),
    entities: v.optional(
      outside(
        {
          urls: v.optional(v.pipe(v.array(outside({ url: v.optional(v.string()), expanded_url: v.optional(v.string()) }, 'A link entity.')), v.maxLength(200))),
          mentions: v.optional(
            v.pipe(v.array(outside({ id: v.optional(outsideId), username: v.optional(v.string()) }, 'A mention entity.')), v.maxLength(200)),
          ),
        },
        'The entities of the post text (hashtags, cashtags, annotations and the like are accepted and not read).',
      ),
    ),
  },
  "A post in the outside network's v2 shape.",
);
export type OutsidePost = v.InferOutput<typeof OutsidePost>;

const OutsideUser = outside(
  {
    id: outsideId,
    username: v.pipe(v.string(), v.maxLength(100)),
    name: v.pipe(v.string(), v.maxLength(200)),
    verified: v.optional(v.boolean()),
  },
  "A user in the outside network's v2 shape.",
);

// The envelope is svc's own: closed (an unknown member is 400 INVALID_REQUEST naming it).
export const IngestBody = v.object({
  lease_id: v.pipe(uuidString, v.description('The lease from POST /v1/ext/ingest/lease.')),
  posts: v.pipe(v.array(OutsidePost), v.maxLength(BATCH_MAX), v.description(`At most ${BATCH_MAX} posts in the outside network's v2 shape.`)),
  users: v.pipe(v.array(OutsideUser), v.maxLength(BATCH_MAX)),
  cursor: v.nullable(v.pipe(v.string(), v.maxLength(512), v.description('The fetcher position to resume from next time (opaque).'))),
});

export const LeaseAnswer = v.strictObject({
  lease_id: v.pipe(v.string(), v.uuid()),
  expires_at: v.pipe(v.string(), v.isoTimestamp()),
  cursor: v.pipe(v.nullable(v.string()), v.description('The cursor the last completed ingest left, or null.')),
});

export const IngestAnswer = v.strictObject({
  stored: v.pipe(v.number(), v.description('New posts stored.')),
  duplicates: v.pipe(v.number(), v.description('Posts already mirrored (or already dropped): left as they were.')),
  dropped: v.pipe(v.number(), v.description("Posts over their author's 20 per rolling day: counted, not stored.")),
  cursor: v.nullable(v.string()),
});

/** Issues the one lease; a lease still held (unexpired, not used) is 409 with its expiry. */
export function takeLease(ctx: AppContext, fetcherId: string): Promise<v.InferOutput<typeof LeaseAnswer>> {
  const s = extStore(ctx.db);
  return groupCommit(ctx.db, () => {
    const now = ctx.clock.now();
    const held = s.heldLease.get(now);
    if (held) failRetry('EXT_LEASE_HELD', held.expires_at, now);
    const id = newId(ctx);
    const expires = now + ctx.config.ext.leaseSeconds * 1000;
    s.insertLease.run(id, fetcherId, now, expires);
    return { lease_id: id, expires_at: iso(expires), cursor: s.cursor.get()?.value ?? null };
  });
}

function checkLease(ctx: AppContext, fetcherId: string, leaseId: string): void {
  const lease = extStore(ctx.db).lease.get(leaseId.toLowerCase());
  const now = ctx.clock.now();
  if (!lease) fail('EXT_LEASE_INVALID', { reason: 'unknown_lease' });
  if (lease.credential_id !== fetcherId) fail('EXT_LEASE_INVALID', { reason: 'foreign_lease' });
  if (lease.released_at !== null) fail('EXT_LEASE_INVALID', { reason: 'lease_used' });
  if (lease.expires_at <= now) fail('EXT_LEASE_INVALID', { reason: 'lease_expired', expired_at: iso(lease.expires_at) });
}

/** `ours`, `reply` (in a conversation of ours, or answering the account), `mention`, else `talk`. */
function kindOf(ctx: AppContext, p: OutsidePost, oursInBatch: Set<string>, accountUsername: string | null): ExtKind {
  const account = ctx.config.ext.accountId;
  if (account === null) return 'talk';
  if (p.author_id === account) return 'ours';
  const conv = p.conversation_id;
  if (p.in_reply_to_user_id === account || (conv !== undefined && (oursInBatch.has(conv) || extStore(ctx.db).oursById.get(conv)))) return 'reply';
  const named = (p.entities?.mentions ?? []).some((m) => m.id === account || (accountUsername !== null && m.username?.toLowerCase() === accountUsername));
  return named ? 'mention' : 'talk';
}

/** Stores a batch: processed in the worker first, then one transaction under a live lease. */
export async function ingest(ctx: AppContext, fetcherId: string, body: v.InferOutput<typeof IngestBody>): Promise<v.InferOutput<typeof IngestAnswer>> {
  checkLease(ctx, fetcherId, body.lease_id);
  const s = extStore(ctx.db);
  // A post delivered twice in one batch, or mirrored before, is processed at most once.
  const fresh = new Map<string, OutsidePost>();
  for (const p of body.posts) if (!fresh.has(p.id) && !s.known.get(p.id, p.id)) fresh.set(p.id, p);
  const todo = [...fresh.values()];
  const processed = await processInWorker(
    ctx,
    todo.map((p) => ({ text: p.text, urls: p.entities?.urls ?? [] })),
  );
  return groupCommit(ctx.db, () => {
    // Checked again: the lease may have run out (or been used) while the worker ran.
    checkLease(ctx, fetcherId, body.lease_id);
    const now = ctx.clock.now();
    for (const u of body.users) s.upsertUser.run(u.id, u.username, u.name, u.verified ? 1 : 0, now);
    const account = ctx.config.ext.accountId;
    const accountUser = account === null ? undefined : body.users.find((u) => u.id === account);
    const oursInBatch = new Set(todo.filter((p) => p.author_id === account).map((p) => p.id));
    let stored = 0;
    let dropped = 0;
    todo.forEach((p, i) => {
      if (s.known.get(p.id, p.id)) return;
      const kind = kindOf(ctx, p, oursInBatch, accountUser?.username.toLowerCase() ?? null);
      if (kind !== 'ours' && s.keptSince.get(p.author_id, now - DAY_MS)!.n >= ctx.config.ext.perAuthorDaily) {
        s.insertDropped.run(p.id, p.author_id, now);
        dropped++;
        return;
      }
      const r = processed[i]!;
      const id = newId(ctx);
      const replyTo = p.referenced_tweets?.find((t) => t.type === 'replied_to')?.id ?? null;
      s.insertPost.run(
        id,
        p.id,
        kind,
        p.author_id,
        p.conversation_id ?? null,
        replyTo,
        r.text,
        r.text_length,
        r.is_truncated ? 1 : 0,
        JSON.stringify(r.links),
        JSON.stringify(r.flags),
        Date.parse(p.created_at),
        now,
      );
      s.insertOriginal.run(id, p.text, JSON.stringify(p));
      stored++;
    });
    if (body.cursor !== null) s.setCursor.run(body.cursor);
    s.releaseLease.run(now, body.lease_id.toLowerCase());
    const duplicates = body.posts.length - stored - dropped;
    s.audit.run(now, `fetcher:${fetcherId}`, 'ingest', null, JSON.stringify({ lease_id: body.lease_id, stored, duplicates, dropped }));
    return { stored, duplicates, dropped, cursor: s.cursor.get()?.value ?? null };
  });
}
