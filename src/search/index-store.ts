// The full-text index's upkeep (schema/0039_posts_fts_merges.sql, src/search/merges.ts): its
// structure record, read on the writing connection, and the merge worker's connection and steps.
import type { Database } from 'bun:sqlite';
import { openFile } from '../db/open.ts';

/** How long a merge step waits for the write lock (a batch holds it a few milliseconds). */
const STEP_BUSY_MS = 200;

/**
 * Reads FTS5's structure record of posts_fts on `db`: which segments each level holds (a cookie,
 * the levels, segment ids and sizes). It changes with every segment a commit adds and with every
 * merge; null before the index has one.
 */
export function structureReader(db: Database): () => Uint8Array | null {
  const q = db.query<{ block: Uint8Array }, []>('SELECT block FROM posts_fts_data WHERE id = 10');
  return () => q.get()?.block ?? null;
}

/**
 * The merge worker's connection to the database file `path`. synchronous = NORMAL: a step's commit
 * is not synced on its own, but a step that starts the log over syncs its new header first (why
 * that is enough: src/search/merge-step.ts). No automatic checkpoint: the served log has its own
 * checkpointer (src/ops/wal-log.ts, or Litestream).
 */
export function openMergeConnection(path: string): Database {
  const db = openFile(path, { readwrite: true, create: false });
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec(`PRAGMA busy_timeout = ${STEP_BUSY_MS}`);
  return db;
}

export interface MergeStepResult {
  /** Whether it merged anything: FTS5 counts the statement itself as one change whatever it does, and a step that merged wrote its segments' rows too. */
  merged: boolean;
  /** Milliseconds it held the write lock: from the lock taken (BEGIN IMMEDIATE, which may wait for a batch) to its commit. */
  heldMs: number;
  /** The structure record before and after it, read inside its transaction (what it wrote: src/search/segments.ts, pagesWritten). */
  before: Uint8Array | null;
  after: Uint8Array | null;
}

/**
 * One FTS5 'merge' step on `db`, in its own write transaction: at most `pages` pages of merged
 * segments (then to a term's end), where a level holds `usermerge` (4) segments or more. The lock
 * is taken first, so what the step held it for is told apart from what it waited for it.
 */
export function mergeStep(db: Database, pages: number): MergeStepResult {
  const changes = db.query<{ n: number }, []>('SELECT total_changes() AS n');
  const structure = structureReader(db);
  db.exec('BEGIN IMMEDIATE');
  const at = performance.now();
  let merged: boolean;
  let before: Uint8Array | null;
  let after: Uint8Array | null;
  try {
    const counted = changes.get()!.n;
    before = structure();
    db.query("INSERT INTO posts_fts (posts_fts, rank) VALUES ('merge', ?)").run(Math.max(1, Math.floor(pages)));
    merged = changes.get()!.n - counted > 1;
    after = structure();
    db.exec('COMMIT');
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
  return { merged, heldMs: performance.now() - at, before, after };
}

/** The statements of a batch's deferred indexing (schema/0042_posts_fts_batched.sql), on the writing connection. */
export function deferredIndexStatements(db: Database) {
  return {
    defer: db.query<void, []>('INSERT INTO posts_fts_deferral (one) VALUES (1)'),
    // In the order the writes came: a post taken out and put back within one batch stays right.
    indexPending: db.query<void, []>(
      "INSERT INTO posts_fts (posts_fts, rowid, title, body) SELECT CASE WHEN del = 1 THEN 'delete' END, seq, title, body FROM posts_fts_pending ORDER BY n",
    ),
    clearPending: db.query<void, []>('DELETE FROM posts_fts_pending'),
    undefer: db.query<void, []>('DELETE FROM posts_fts_deferral'),
  };
}
