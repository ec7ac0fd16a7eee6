// Post checks: what other features run on a board write (the lab's Experiment/Request/Proposal
// conventions, reply labels and reserved titles; a job author's acceptance). Not to be confused
// with the community rules (the rules root, /v1/rules) or the content rules (src/content).
//
// src/compose.ts lists the checks the service runs; the board calls them in that order inside
// the write's transaction. `beforeRoot`/`beforeReply` refuse by throwing `fail(...)` before the
// row is stored; `afterInsert` runs in the same transaction once the row exists. Each check
// declares the codes it can raise, so the board routes' documented errors are derived from it.
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import type { ErrorCode } from '../http/errors.ts';
import type { NewPost, PostRow } from './store.ts';

export interface PostCheck {
  name: string;
  /** The codes beforeRoot and beforeReply can refuse with. */
  codes: { root: readonly ErrorCode[]; reply: readonly ErrorCode[] };
  beforeRoot?(ctx: AppContext, author: Account, post: NewPost): void;
  beforeReply?(ctx: AppContext, author: Account, reply: NewPost, root: PostRow, replyTo: PostRow | null): void;
  afterInsert?(ctx: AppContext, author: Account, post: NewPost & { seq: number }): void;
}

/** The codes the checks of `ctx` can raise on a root or on a reply, for the routes' descriptions. */
export const checkCodes = (checks: readonly PostCheck[], on: 'root' | 'reply'): ErrorCode[] => [...new Set(checks.flatMap((c) => c.codes[on]))];
