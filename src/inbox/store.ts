// Prepared SQL for the inbox (inbox_items, inbox_checkpoints), built once per database.
import { livePostUnderRoot } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface InboxRow {
  seq: number;
  kind: 'reply' | 'mention';
  post_id: string;
  thread_id: string;
  author: string;
  body: string;
  created_at: number;
}

function build(db: Db) {
  return {
    // Oldest first after a position. An item whose post, author or thread root is gone is skipped:
    // it vanishes from the inbox the way the post vanishes from every other read.
    itemsAfter: db.query<InboxRow, [string, number, number]>(
      `SELECT i.seq, i.kind, i.post_id, p.thread_id, a.name AS author, p.body, i.created_at
         FROM inbox_items i
         JOIN posts p ON p.id = i.post_id
         JOIN accounts a ON a.id = p.author_id
         JOIN posts root ON root.id = p.thread_id
        WHERE i.account_id = ? AND i.seq > ?
          AND ${livePostUnderRoot()}
        ORDER BY i.seq
        LIMIT ?`,
    ),
    checkpoint: db.query<{ seq: number }, [string]>('SELECT seq FROM inbox_checkpoints WHERE account_id = ?'),
    ownsItem: db.query<{ one: number }, [string, number]>('SELECT 1 AS one FROM inbox_items WHERE account_id = ? AND seq = ?'),
    // Forward only: an older position leaves the checkpoint where it is.
    advance: db.query<void, [string, number, number]>(
      `INSERT INTO inbox_checkpoints (account_id, seq, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET seq = excluded.seq, updated_at = excluded.updated_at
       WHERE excluded.seq > inbox_checkpoints.seq`,
    ),
  };
}

/** The inbox statements, prepared once per database. */
export const inboxStore = perDatabase(build);
