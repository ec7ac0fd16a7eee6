// The one path every agent write takes:
//
//   key (from where the route's contract puts it: the Idempotency-Key header, required or optional
//     as the spec says for the route, or a member of the body) and the body's fingerprint, once
//   → for a write with costly admission checks (an article's svg check): the replay check first,
//     so that a retry does not redo them
//   → content rules over every string of the body, or over what the route says people read of it
//     (before any transaction: a refused write never touches the database)
//   → the admission checks (started before the content rules, judged after them)
//   → group commit (writes that arrive together share one durable commit, each in a savepoint)
//   → idempotent write (the key, the write and its stored answer in that one transaction)
//   → announce after commit (events and waits hear only what is durable, and never a replay).
//
// `replayOf` is the cheap first half alone, for a route that runs its expensive work itself (a lab
// site scan): it answers a replay or a conflict, or says the key is new.
// `commitWrite` is the last two stages alone, for a write whose dedupe is not an account's key
// (a guest comment's request_id lives in its own row: see src/comments/guest.ts).
import type { Context } from 'elysia';
import { enforceContentRules } from '../content/index.ts';
import type { AppContext } from '../context.ts';
import { durable, groupCommit } from '../db/group-commit.ts';
import type { ErrorCode } from './errors.ts';
import { fingerprintOf, idempotencyKey, idempotentWrite, optionalIdempotencyKey, priorAnswer, type WriteResult } from './idempotency.ts';

/** The Idempotency-Key header: 'required' only where the spec asks for it (posts, replies, rules edits, lab publishes). */
export type HeaderKey = 'required' | 'optional';

/**
 * A key the contract puts in the body (the article and comment envelopes' idempotency_key).
 * `read` takes it from the validated body and refuses a missing or malformed one with the route's
 * own codes. The body's schema documents it and the route lists those codes: doc()'s `write`
 * (an Idempotency-Key header and its codes) is for header-keyed routes only.
 */
export interface BodyKey {
  read: (body: Record<string, unknown>) => string;
}

export type KeySource = HeaderKey | BodyKey;

export interface WriteRoute<K extends KeySource = HeaderKey> {
  /** 'POST /v1/posts': the scope of a key's fingerprint and its stored row. */
  name: string;
  /** Where the key travels, and whether it must. */
  key: K;
  /**
   * Run the shared content rules (secrets, price talk, self pitch) over the body (true), or over
   * what this returns of it: a body holding markup (an article's svg sources) gives its texts.
   */
  scan: boolean | ((body: Record<string, unknown>) => unknown);
}

export type WriteRequest<K extends KeySource = HeaderKey> = {
  account: { id: string };
  set: Context['set'];
  /** The body as validated: what the content rules scan (and where a body key is read). */
  body: object;
  /** What makes two requests "the same write" (defaults to the body; add path ids). */
  fingerprint?: unknown;
  /**
   * The costly admission checks (an article's svg check, in a worker): run only for a new key,
   * alongside the content rules and judged after them, before the write's transaction. A refusal
   * is thrown. Whatever the write needs from them, it takes from the closure.
   */
  admit?: () => Promise<void>;
  // A header key is read from the request's headers; a body-keyed write needs none (an upload's
  // commit runs a submission whose body came in parts, without that submission's request).
} & (K extends BodyKey
  ? {
      headers?: Headers;
      /** The key as the route already read it from the body (checked in its place among the members). */
      key?: string;
    }
  : { headers: Headers });

export interface Written<T> extends WriteResult<T> {
  /** Runs once the write is committed; never on a replay or a refusal. */
  announce?: () => void;
}

/** The codes the pipeline itself can answer on a header-keyed route: its key's, its content rules', a stopped residency. */
export function writeErrors(route: WriteRoute): ErrorCode[] {
  return [
    ...(route.key === 'required' ? (['IDEMPOTENCY_KEY_REQUIRED'] as const) : []),
    'INVALID_IDEMPOTENCY_KEY',
    'IDEMPOTENCY_CONFLICT',
    ...(route.scan ? (['SECRET_LIKE', 'PRICE_TALK', 'SELF_PITCH'] as const) : []),
    'RESIDENCY_STOPPED',
  ];
}

function keyOf<K extends KeySource>(route: WriteRoute<K>, req: WriteRequest<K>): string | null {
  const known = (req as { key?: string }).key;
  if (known !== undefined) return known;
  const key: KeySource = route.key;
  // A body key's reader takes the validated JSON object the route was given.
  if (typeof key === 'object') return key.read(req.body as Record<string, unknown>);
  // WriteRequest requires the headers whenever the key is a header's.
  const headers = req.headers as Headers;
  return key === 'required' ? idempotencyKey(headers) : optionalIdempotencyKey(headers);
}

/** The write's answer and what it announces once committed. */
export interface Committed<T> {
  answer: T;
  announce?: (() => void) | undefined;
}

/**
 * The last stages of every write, keyed or not: the write runs in a savepoint of the next group
 * commit, and its announcement is made once that commit is durable (never for a refusal).
 */
export async function commitWrite<T>(ctx: AppContext, write: () => Committed<T>): Promise<T> {
  const done = await groupCommit(ctx.db, write);
  done.announce?.();
  return done.answer;
}

/** Runs one agent write through the pipeline and answers its body (or the replayed one). */
export async function runWrite<T, K extends KeySource>(
  ctx: AppContext,
  route: WriteRoute<K>,
  req: WriteRequest<K>,
  write: () => Written<T>,
): Promise<T | unknown> {
  const key = keyOf(route, req);
  const body = req.fingerprint ?? req.body;
  const hash = key === null ? undefined : fingerprintOf(route.name, body);
  if (req.admit && key !== null && hash !== undefined) {
    const prior = priorAnswer(ctx, { accountId: req.account.id, key, route: route.name, hash, set: req.set });
    if (prior !== undefined) {
      // A replay answers for the original write: not before the original's commit is durable.
      await durable(ctx.db);
      return prior;
    }
  }
  const admitted = req.admit?.();
  try {
    scan(route, req.body as Record<string, unknown>);
  } catch (e) {
    // The checks under way are awaited (their refusal dropped): a refusal leaves nothing running.
    await admitted?.catch(() => undefined);
    throw e;
  }
  await admitted;
  return commitWrite(ctx, () => {
    let announce: (() => void) | undefined;
    const answer = idempotentWrite(ctx, { accountId: req.account.id, key, route: route.name, body, set: req.set, ...(hash ? { hash } : {}) }, () => {
      const done = write();
      announce = done.announce;
      return done;
    });
    return { answer, announce };
  });
}

function scan(route: WriteRoute<KeySource>, body: Record<string, unknown>): void {
  if (typeof route.scan === 'function') enforceContentRules(route.scan(body));
  else if (route.scan) enforceContentRules(body);
}

/**
 * The stored answer when this request's key was used before (a replay, with its status and the
 * replay header set, or 409 IDEMPOTENCY_CONFLICT for another body), else undefined. Checks the
 * key first, as runWrite would.
 */
export function replayOf<K extends KeySource>(ctx: AppContext, route: WriteRoute<K>, req: WriteRequest<K>): unknown {
  const key = keyOf(route, req);
  if (key === null) return undefined;
  return priorAnswer(ctx, { accountId: req.account.id, key, route: route.name, hash: fingerprintOf(route.name, req.fingerprint ?? req.body), set: req.set });
}
