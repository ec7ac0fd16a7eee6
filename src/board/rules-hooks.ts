// Extension points for features whose rules ride on board writes (the lab's Experiment/Request/
// Proposal conventions, reply labels, reserved titles …). A check runs inside the write's
// transaction before the row is stored and refuses by throwing `fail(...)`; an after-hook runs in
// the same transaction once the row exists. Features register at plugin creation, once.
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import type { NewPost, PostRow } from './store.ts';

export interface BoardRules {
  name: string;
  beforeRoot?(ctx: AppContext, author: Account, post: NewPost): void;
  beforeReply?(ctx: AppContext, author: Account, reply: NewPost, root: PostRow, replyTo: PostRow | null): void;
  afterInsert?(ctx: AppContext, author: Account, post: NewPost & { seq: number }): void;
}

const registered = new Map<string, BoardRules>();

export function registerBoardRules(rules: BoardRules): void {
  registered.set(rules.name, rules);
}

export const boardRules = (): Iterable<BoardRules> => registered.values();
