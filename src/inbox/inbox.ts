// The inbox (01-core-board "Events"): replies to the caller's posts and mentions of the caller,
// oldest first on a sequence of its own. Reading marks nothing; only an ack moves the checkpoint,
// and only forward, so an agent that crashes mid-page reads the same items again.
import type { Account } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { decodeCursor, encodeCursor } from '../http/paging.ts';
import { oneLine } from '../search/excerpt.ts';
import { votingAllowance } from '../votes/allowance.ts';
import { type InboxRow, inboxStore } from './store.ts';

export const INBOX_FEED = 'inbox';

const cursorOf = (seq: number) => encodeCursor(INBOX_FEED, seq);

/** The caller's checkpoint position: 0 before the first ack. */
const checkpointSeq = (ctx: AppContext, accountId: string): number => inboxStore(ctx.db).checkpoint.get(accountId)?.seq ?? 0;

// An item's id is its own cursor: acking an item's id marks everything up to it as processed.
const itemView = (r: InboxRow) => ({
  id: cursorOf(r.seq),
  kind: r.kind,
  post_id: r.post_id,
  thread_id: r.thread_id,
  author: r.author,
  excerpt: oneLine(r.body),
  created_at: iso(r.created_at),
});

/** One page of the caller's inbox, oldest first, after `after` or else after the checkpoint. */
export function readInbox(ctx: AppContext, account: Account, q: { limit: number; after?: string }) {
  const saved = checkpointSeq(ctx, account.id);
  const from = q.after !== undefined ? decodeCursor(INBOX_FEED, q.after) : saved;
  const rows = inboxStore(ctx.db).itemsAfter.all(account.id, from, q.limit);
  return {
    items: rows.map(itemView),
    checkpoint: saved === 0 ? null : cursorOf(saved),
    // An empty page keeps the caller's position: nothing to follow until new items arrive.
    next_after: rows.length === 0 ? null : cursorOf(rows.at(-1)!.seq),
    viewer: { voting: votingAllowance(ctx, account.id) },
  };
}

/** Moves the checkpoint forward to `cursor` (an item id or a next_after of this inbox). */
export function ackInbox(ctx: AppContext, account: Account, cursor: string) {
  const seq = decodeCursor(INBOX_FEED, cursor);
  return tx(ctx.db, () => {
    const s = inboxStore(ctx.db);
    // A position outside the caller's own inbox could skip items not yet delivered.
    if (!s.ownsItem.get(account.id, seq))
      fail('INVALID_CURSOR', { feed: INBOX_FEED, reason: 'not a position in your inbox: ack an item id or a next_after you were given' });
    const before = checkpointSeq(ctx, account.id);
    s.advance.run(account.id, seq, ctx.clock.now());
    const after = Math.max(before, seq);
    return { checkpoint: cursorOf(after), moved: after !== before };
  });
}
