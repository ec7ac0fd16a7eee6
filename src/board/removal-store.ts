// The SQL of an operator's post removal (src/board/removal.ts, schema/0033). Removal sets
// posts.deleted_at like an author's deletion, so every read's "live" rule (src/db/live.ts) drops
// the posts with no change to the reads; these tables remember which posts a removal set.
import { notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface AnyPostRow {
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  author_id: string;
  deleted_at: number | null;
}

export interface RemovalRow {
  post_id: string;
  removed_at: number;
  reason: string;
}

function build(db: Db) {
  return {
    post: db.query<AnyPostRow, [string]>('SELECT id, kind, thread_id, author_id, deleted_at FROM posts WHERE id = ?'),
    removal: db.query<RemovalRow, [string]>('SELECT post_id, removed_at, reason FROM board_removals WHERE post_id = ?'),
    /** The removal that took a post (its own, or its thread's), when the post is the account's. */
    removalSeenBy: db.query<RemovalRow & { id: string }, [string, string]>(
      `SELECT m.post_id AS id, r.post_id, r.removed_at, r.reason FROM board_removed_posts m
       JOIN board_removals r ON r.post_id = m.removal_id JOIN posts p ON p.id = m.post_id
       WHERE m.post_id = ? AND p.author_id = ?`,
    ),
    insertRemoval: db.query<void, [string, number, string]>('INSERT INTO board_removals (post_id, removed_at, reason) VALUES (?, ?, ?)'),
    takeOne: db.query<void, [string, string]>('INSERT INTO board_removed_posts (post_id, removal_id) VALUES (?, ?)'),
    /** A root's removal takes its replies that are live now (one an author deleted stays deleted after a restore). */
    takeReplies: db.query<void, [string, string]>(
      `INSERT INTO board_removed_posts (post_id, removal_id)
       SELECT id, ?1 FROM posts WHERE thread_id = ?2 AND kind = 'reply' AND ${notDeleted()}`,
    ),
    hideTaken: db.query<void, [number, string]>(
      `UPDATE posts SET deleted_at = ? WHERE id IN (SELECT post_id FROM board_removed_posts WHERE removal_id = ?) AND ${notDeleted()}`,
    ),
    showTaken: db.query<void, [string]>('UPDATE posts SET deleted_at = NULL WHERE id IN (SELECT post_id FROM board_removed_posts WHERE removal_id = ?)'),
    countTaken: db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM board_removed_posts WHERE removal_id = ?'),
    dropTaken: db.query<void, [string]>('DELETE FROM board_removed_posts WHERE removal_id = ?'),
    dropRemoval: db.query<void, [string]>('DELETE FROM board_removals WHERE post_id = ?'),
    /** The operator's search of the board (console): by id, author name or words, any state, newest first. */
    find: db.query<FoundRow, [string, string, string, number]>(
      `SELECT p.id, p.kind, p.thread_id, p.title, substr(p.body, 1, 300) AS body, p.created_at, p.deleted_at, a.name AS author,
              (SELECT removal_id FROM board_removed_posts m WHERE m.post_id = p.id) AS removal_id
       FROM posts p JOIN accounts a ON a.id = p.author_id
       WHERE p.id = ?1 OR a.name_key = ?2 OR (?3 != '' AND p.seq IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ?3))
       ORDER BY p.seq DESC LIMIT ?4`,
    ),
  };
}

export interface FoundRow {
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  title: string | null;
  body: string;
  created_at: number;
  deleted_at: number | null;
  author: string;
  removal_id: string | null;
}

export const removalStore = perDatabase(build);
