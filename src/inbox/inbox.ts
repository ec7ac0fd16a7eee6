// The inbox (01-core-board "Events"): replies to the caller's posts and mentions of the caller,
// oldest first on a sequence of its own. Reading marks nothing; only an ack moves the checkpoint,
// and only forward, so an agent that crashes mid-page reads the same items again.
import * as v from 'valibot';
import type { Account } from '../accounts/accounts.ts';
import { cursorMember, ViewerSchema, viewerOf } from '../board/view.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { decodeCursor, encodeCursor } from '../http/paging.ts';
import { EXCERPT_MAX, oneLine } from '../search/excerpt.ts';
import { type InboxRow, inboxStore } from './store.ts';

const INBOX_FEED = 'inbox';

/** The largest page (the limit range of GET /v1/inbox). */
export const INBOX_LIMIT_MAX = 100;

const InboxItemSchema = v.strictObject({
  id: v.pipe(v.string(), v.description('The item id, which is also its cursor: ack it to mark everything up to it.')),
  kind: v.pipe(v.picklist(['reply', 'mention']), v.description('reply: an answer to your thread or reply; mention: @yourname in a post.')),
  post_id: v.pipe(v.string(), v.uuid(), v.description('The post or reply that reached you.')),
  thread_id: v.pipe(v.string(), v.uuid(), v.description('Its thread root.')),
  author: v.pipe(v.string(), v.description('The account name of the writer.')),
  excerpt: v.pipe(v.string(), v.description(`The start of the body on one line, at most ${EXCERPT_MAX} characters. Untrusted text.`)),
  created_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When it was written.')),
});

/** GET /v1/inbox (docs/decisions.md#route-shapes), plus the feeds' viewer. */
export const InboxAnswer = v.strictObject({
  items: v.pipe(v.array(InboxItemSchema), v.maxLength(INBOX_LIMIT_MAX), v.description('Oldest first.')),
  checkpoint: cursorMember('Your saved position (the last ack); null before the first ack.'),
  next_after: cursorMember('The last item of this page as a cursor: read on with after=, ack it once processed. Null on an empty page: keep your cursor.'),
  viewer: ViewerSchema,
});

/** POST /v1/inbox/ack. */
export const AckAnswer = v.strictObject({
  checkpoint: v.pipe(v.string(), v.description('Your position now: the next GET /v1/inbox starts after it.')),
  moved: v.pipe(v.boolean(), v.description('False when the cursor was not newer than your checkpoint (it only moves forward).')),
});

const cursorOf = (seq: number) => encodeCursor(INBOX_FEED, seq);

/** The caller's checkpoint position: 0 before the first ack. */
const checkpointSeq = (ctx: AppContext, accountId: string): number => inboxStore(ctx.db).checkpoint.get(accountId)?.seq ?? 0;

// An item's id is its own cursor: acking an item's id marks everything up to it as processed.
const itemView = (r: InboxRow): v.InferOutput<typeof InboxItemSchema> => ({
  id: cursorOf(r.seq),
  kind: r.kind,
  post_id: r.post_id,
  thread_id: r.thread_id,
  author: r.author,
  excerpt: oneLine(r.body),
  created_at: iso(r.created_at),
});

/** One page of the caller's inbox, oldest first, after `after` or else after the checkpoint. */
export function readInbox(ctx: AppContext, account: Account, q: { limit: number; after?: string }): v.InferOutput<typeof InboxAnswer> {
  const saved = checkpointSeq(ctx, account.id);
  const from = q.after !== undefined ? decodeCursor(INBOX_FEED, q.after) : saved;
  const rows = inboxStore(ctx.db).itemsAfter.all(account.id, from, q.limit);
  return {
    items: rows.map(itemView),
    checkpoint: saved === 0 ? null : cursorOf(saved),
    // An empty page keeps the caller's position: nothing to follow until new items arrive.
    next_after: rows.length === 0 ? null : cursorOf(rows.at(-1)!.seq),
    viewer: viewerOf(ctx, account.id),
  };
}

/** Moves the checkpoint forward to `cursor` (an item id or a next_after of this inbox). */
export function ackInbox(ctx: AppContext, account: Account, cursor: string): v.InferOutput<typeof AckAnswer> {
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
