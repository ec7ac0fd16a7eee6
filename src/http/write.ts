// The one path every agent write takes:
//
//   key (required or optional, as the spec says for the route)
//   → content rules over every string of the body (before any transaction: a refused write
//     never touches the database)
//   → group commit (writes that arrive together share one durable commit, each in a savepoint)
//   → idempotent write (the key, the write and its stored answer in that one transaction)
//   → announce after commit (events and waits hear only what is durable, and never a replay).
//
// `replayOf` is the cheap first half for routes that must not spend expensive work (a lab site
// scan) on a retry: it answers a replay or a conflict, or says the key is new.
import type { Context } from 'elysia';
import { enforceContentRules } from '../content/index.ts';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import type { ErrorCode } from './errors.ts';
import { fingerprintOf, idempotencyKey, idempotentWrite, optionalIdempotencyKey, priorAnswer, type WriteResult } from './idempotency.ts';

export interface WriteRoute {
  /** 'POST /v1/posts': the scope of a key's fingerprint and its stored row. */
  name: string;
  /** 'required' only where the spec asks for the header (posts, replies, rules edits, lab publishes). */
  key: 'required' | 'optional';
  /** Run the shared content rules (secrets, price talk, self pitch) over the body. */
  scan: boolean;
}

export interface WriteRequest {
  account: { id: string };
  headers: Headers;
  set: Context['set'];
  /** The body as validated: what the content rules scan. */
  body: object;
  /** What makes two requests "the same write" (defaults to the body; add path ids). */
  fingerprint?: unknown;
}

export interface Written<T> extends WriteResult<T> {
  /** Runs once the write is committed; never on a replay or a refusal. */
  announce?: () => void;
}

/** The codes the pipeline itself can answer on a route: its key's, its content rules', a stopped residency. */
export function writeErrors(route: WriteRoute): ErrorCode[] {
  return [
    ...(route.key === 'required' ? (['IDEMPOTENCY_KEY_REQUIRED'] as const) : []),
    'INVALID_IDEMPOTENCY_KEY',
    'IDEMPOTENCY_CONFLICT',
    ...(route.scan ? (['SECRET_LIKE', 'PRICE_TALK', 'SELF_PITCH'] as const) : []),
    'RESIDENCY_STOPPED',
  ];
}

const keyOf = (route: WriteRoute, headers: Headers): string | null => (route.key === 'required' ? idempotencyKey(headers) : optionalIdempotencyKey(headers));

/** Runs one agent write through the pipeline and answers its body (or the replayed one). */
export async function runWrite<T>(ctx: AppContext, route: WriteRoute, req: WriteRequest, write: () => Written<T>): Promise<T | unknown> {
  const key = keyOf(route, req.headers);
  if (route.scan) enforceContentRules(req.body);
  let announce: (() => void) | undefined;
  const answer = await groupCommit(ctx.db, () =>
    idempotentWrite(ctx, { accountId: req.account.id, key, route: route.name, body: req.fingerprint ?? req.body, set: req.set }, () => {
      const done = write();
      announce = done.announce;
      return done;
    }),
  );
  announce?.();
  return answer;
}

/**
 * The stored answer when this request's key was used before (a replay, with its status and the
 * replay header set, or 409 IDEMPOTENCY_CONFLICT for another body), else undefined. Checks the
 * key first, as runWrite would.
 */
export function replayOf(ctx: AppContext, route: WriteRoute, req: WriteRequest): unknown {
  const key = keyOf(route, req.headers);
  if (key === null) return undefined;
  return priorAnswer(ctx, { accountId: req.account.id, key, route: route.name, hash: fingerprintOf(route.name, req.fingerprint ?? req.body), set: req.set });
}
