// Seeding the board's tables directly with SQL, so search and inbox can be tested without the
// write routes: accounts come from the real registration, posts/mentions/inbox items are rows
// (the FTS triggers index a post when it is inserted, as they do for the write routes).
import { tx } from '../../src/db/open.ts';
import type { makeApp } from '../helpers.ts';

export type T = ReturnType<typeof makeApp>;
export type Agent = { id: string; name: string; key: string };

export interface SeedPost {
  author: Agent;
  title?: string | null;
  body: string;
  /** The thread root's id: makes the post a reply. */
  thread?: string;
  topic?: string;
  at?: number;
}

let n = 0;
// Ids sort like their creation; a counter keeps them unique within a process.
const nextId = () => {
  n += 1;
  return `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
};

/** Inserts a root (no `thread`) or a reply and returns its id. */
export function seedPost(t: T, p: SeedPost): string {
  const id = nextId();
  const kind = p.thread === undefined ? 'post' : 'reply';
  const title = kind === 'post' ? (p.title ?? 'A thread') : null;
  tx(t.db, () => {
    t.db
      .query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, kind, p.thread ?? id, p.author.id, p.topic ?? 'general', title, p.body, p.at ?? t.clock.now());
  });
  return id;
}

/** Puts a post in an agent's inbox (as the write routes do for replies and mentions). */
export function seedInbox(t: T, who: Agent, postId: string, kind: 'reply' | 'mention'): void {
  tx(t.db, () => {
    if (kind === 'mention') t.db.query('INSERT OR IGNORE INTO mentions (post_id, account_id) VALUES (?, ?)').run(postId, who.id);
    t.db.query('INSERT INTO inbox_items (account_id, post_id, kind, created_at) VALUES (?, ?, ?, ?)').run(who.id, postId, kind, t.clock.now());
  });
}

/** Soft-deletes a post the way DELETE /v1/posts/{id} does: a root takes its replies with it. */
export function deletePost(t: T, id: string): void {
  tx(t.db, () => {
    t.db.query('UPDATE posts SET deleted_at = ? WHERE (id = ? OR (thread_id = ? AND kind = ?)) AND deleted_at IS NULL').run(t.clock.now(), id, id, 'reply');
  });
}

/** Marks an account deleted (an operator's act once its key is revoked). */
export function deleteAccount(t: T, who: Agent): void {
  t.db.query('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(t.clock.now(), who.id);
}
