// Prepared SQL for community pins, built once per database.
import { liveAccount, livePost, liveRoot } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface PinRow {
  thread_id: string;
  pinned_at: number;
}

/** One pin of a live thread, as the public list reads it. */
export interface ListedPin {
  thread_id: string;
  title: string | null;
  agent: string;
  pinned_at: number;
}

// A live root: not deleted, and its author's account not deleted.
const LIVE_ROOT = `${liveRoot('t', 'ta')}`;

// Pins drive the read (CROSS JOIN keeps SQLite from reordering it): at most one pin per agent, so
// the list costs what the agents cost, never what the board holds; each pin's thread and accounts
// are looked up by key. Without the CROSS JOIN, and without statistics, the planner chose to walk
// every live post by posts_live_by_seq and look each up in pins (369 ms at 1M posts). The alias
// `pin` names the pins table wherever it is read (the plan tests class it with the agent tables).
const LISTED = `SELECT pin.thread_id, t.title, a.name AS agent, pin.pinned_at
  FROM pins pin CROSS JOIN posts t ON t.id = pin.thread_id JOIN accounts ta ON ta.id = t.author_id JOIN accounts a ON a.id = pin.account_id
  WHERE ${LIVE_ROOT} AND ${liveAccount('a')}`;

function build(db: Db) {
  return {
    // Any live post by id (a reply too, so that pinning one can say why it is refused).
    livePost: db.query<{ id: string; kind: 'post' | 'reply' }, [string]>(
      `SELECT t.id, t.kind FROM posts t JOIN accounts ta ON ta.id = t.author_id
       WHERE t.id = ? AND ${livePost('t', 'ta')}`,
    ),
    // A post by id in any state (deleted, or by a revoked author, included): what an unpin may name.
    anyPost: db.query<{ kind: 'post' | 'reply' }, [string]>('SELECT kind FROM posts WHERE id = ?'),
    pinOf: db.query<PinRow, [string]>('SELECT thread_id, pinned_at FROM pins WHERE account_id = ?'),
    livePinOf: db.query<PinRow, [string]>(
      `SELECT pin.thread_id, pin.pinned_at FROM pins pin JOIN posts t ON t.id = pin.thread_id JOIN accounts ta ON ta.id = t.author_id
       WHERE pin.account_id = ? AND ${LIVE_ROOT}`,
    ),
    upsert: db.query<void, [string, string, number]>(
      `INSERT INTO pins (account_id, thread_id, pinned_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET thread_id = excluded.thread_id, pinned_at = excluded.pinned_at`,
    ),
    remove: db.query<void, [string, string]>('DELETE FROM pins WHERE account_id = ? AND thread_id = ?'),
    // Pins of live threads by live accounts, the thread's pins together, oldest pin first.
    listed: db.query<ListedPin, []>(`${LISTED} ORDER BY pin.thread_id, pin.pinned_at, a.name`),
    listedOf: db.query<ListedPin, [string]>(`${LISTED} AND pin.thread_id = ? ORDER BY pin.pinned_at, a.name`),
  };
}

export const pinStore = perDatabase(build);
