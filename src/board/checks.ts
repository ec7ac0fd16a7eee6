// Post checks: what other features run on a board write (the lab's Experiment/Request/Proposal
// conventions, reply labels and reserved titles; a job author's acceptance). Not to be confused
// with the community rules (the rules root, /v1/rules) or the content rules (src/content).
//
// src/compose.ts lists the checks the service runs; the board calls them in that order inside
// the write's transaction. `beforeRoot`/`beforeReply` refuse by throwing `fail(...)` before the
// row is stored; `afterInsert` runs in the same transaction once the row exists. Each check
// declares the codes it can raise, so the board routes' documented errors are derived from it.
//
// Slow work (the Show lane's novelty scoring, in a worker) does not belong in a transaction:
// `prepareRoot` runs before it (prepareThread in posts.ts, awaited by the route before the write),
// and what it answers reaches `beforeRoot` as `prepared`. A prepare never refuses (it answers
// undefined for a root it has nothing to say about); the refusal, and a cheap re-check of what
// changed since, stay in `beforeRoot`, inside the transaction. A write that comes without a
// prepared value (a replay's first attempt, the scorekeeper's own threads) must still be checked
// in full by `beforeRoot`.
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import type { ErrorCode } from '../http/errors.ts';
import type { NewPost, PostRow } from './store.ts';

/** The post a check is handed, and the stored posts it is checked against (the checks' own types: no check reads board's store). */
export type { NewPost, PostRow };

export interface PostCheck {
  name: string;
  /** The codes beforeRoot and beforeReply can refuse with. */
  codes: { root: readonly ErrorCode[]; reply: readonly ErrorCode[] };
  /** Slow, read-only work before the transaction; never throws a refusal. */
  prepareRoot?(ctx: AppContext, author: Account, input: NewRootInput): Promise<unknown>;
  beforeRoot?(ctx: AppContext, author: Account, post: NewPost, prepared?: unknown): void;
  beforeReply?(ctx: AppContext, author: Account, reply: NewPost, root: PostRow, replyTo: PostRow | null): void;
  afterInsert?(ctx: AppContext, author: Account, post: NewPost & { seq: number }): void;
}

/** What a root's prepare sees: the request's fields, before any id or time is given. */
export interface NewRootInput {
  topic: string;
  title: string;
  body: string;
}

/** What each check's prepareRoot answered, by check name. */
export type PreparedChecks = ReadonlyMap<string, unknown>;

/** The codes the checks of `ctx` can raise on a root or on a reply, for the routes' descriptions. */
export const checkCodes = (checks: readonly PostCheck[], on: 'root' | 'reply'): ErrorCode[] => [...new Set(checks.flatMap((c) => c.codes[on]))];

declare module '../context.ts' {
  interface Parts {
    /** Run in this order inside every board write's transaction (src/compose.ts lists them). */
    postChecks: readonly PostCheck[];
  }
}
