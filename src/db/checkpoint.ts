// The WAL checkpoint the running server asks for once the log has reached its threshold
// (src/ops/wal-log.ts), run on a connection of its own in a worker thread (workers/wal-checkpoint.ts)
// so that neither the copy into the database nor the syncs that go with it ever run on the thread
// that answers requests.
//
// One checkpoint is three steps, asked for as two jobs:
//   1. `copy` (PASSIVE), while the group commit goes on writing: the log's pages are copied into
//      the database, and their write-back is started, not waited for (SQLite syncs the database
//      file only when a copy reaches the log's end; see checkpointWal). This is the long part; it
//      takes no write lock, and SQLite copies only frames no reader still needs, up to the end of
//      the log as it was when the copy began. The server may ask for it more than once,
//      to catch up with what was written meanwhile.
//   2. `restart`, while the group commit holds its batches (writes queue; reads and everything else
//      go on): RESTART copies what was written since step 1 and waits, briefly, until no reader
//      still uses the log: the next writer starts it over.
//   3. In the same job, that next writer is this connection (restartLog): one write of a page that
//      changes nothing, at synchronous = FULL, so SQLite writes the new log header and syncs it
//      before any frame of the new log, and syncs the commit. The writing connection's batches then
//      only ever append to a log whose header is on disk; they need no header sync of their own
//      (why that matters: docs/operations.md, "Commits and checkpoints off the request thread").
//      The -wal file keeps its size and its blocks: a later append rewrites blocks in place, and
//      its fdatasync has no file size or allocation to commit (measured: cutting the file to 0 made
//      every sync beside a neighbour's fsyncs wait for the file system's journal).
//   4. Still in that job, and while the batches are held, the -wal file is laid out ahead of the
//      log (layOutLog): zeros up to the size the log may reach, over the server's first restarts
//      (70 MB at the 4,000-page threshold, LAY_OUT_STEP a restart: 23-38 ms of writes held, three
//      times). A commit that makes the file longer changes its size and its blocks, and while
//      this worker syncs the database file the file system makes that wait, on the request
//      thread: measured at a million posts during 2 MB lab publishes, the longest /healthz was
//      41-55 ms in the worst rounds with the file growing, 24-38 ms with it laid out (35-40 ms
//      when every write waited for the whole checkpoint).
//      Zeros after the log's last frame are never read as frames (each frame carries the log's
//      salt and a checksum chained from the one before), and the file keeps its size from then on
//      (RESTART, not TRUNCATE).
// The connection runs synchronous = FULL: SQLite then syncs the log before copying it and the
// database file before it marks the copied frames as checkpointed, whatever the writing
// connection's own setting is.
import type { Database } from 'bun:sqlite';
import { closeSync, fdatasyncSync, fstatSync, openSync, writeSync } from 'node:fs';
import { openFile } from './open.ts';
import { heldDescriptor } from './wal-index.ts';
import { startReadAhead, startWriteBack } from './write-back.ts';

export type CheckpointJob =
  | {
      /** The database file. */
      path: string;
      /** `copy`: step 1 above, never waiting for a lock; `restart`: steps 2 and 3. */
      step: 'copy' | 'restart';
      /** How long step 2 may wait for the write lock and for readers to leave the log. */
      busyMs: number;
      /** Step 4: the size the -wal file is laid out to (none when absent). */
      layOut?: number;
    }
  | {
      /** The database file. */
      path: string;
      /** readAhead below: `bytes` of the -wal file from `from` asked into the page cache. */
      step: 'readAhead';
      from: number;
      bytes: number;
    };

export interface CheckpointResult {
  /** The log was restarted with its header synced: the writing connection may append without syncs of its own. */
  restarted: boolean;
}

const connections = new Map<string, Database>();

function connectionTo(path: string): Database {
  let db = connections.get(path);
  if (!db) {
    db = openFile(path, { readwrite: true, create: false });
    db.exec('PRAGMA synchronous = FULL');
    // Its one write (restartLog) must not checkpoint on its own.
    db.exec('PRAGMA wal_autocheckpoint = 0');
    connections.set(path, db);
  }
  return db;
}

type Row = { busy: number; log: number; checkpointed: number };

/**
 * Steps 2 and 3 above on `db` (a connection at synchronous = FULL): false when the write lock or a
 * reader kept the log from being restarted (its busy_timeout ran out).
 */
export function restartLog(db: Database): boolean {
  if (db.query<Row, []>('PRAGMA wal_checkpoint(RESTART)').get()!.busy !== 0) return false;
  // The page that changes nothing: the database header's user version, rewritten as it is (svc never sets it).
  const { user_version } = db.query<{ user_version: number }, []>('PRAGMA user_version').get()!;
  db.exec(`PRAGMA user_version = ${Math.floor(user_version)}`);
  return true;
}

/** At most this much of the -wal file is laid out in one restart (the held writes wait for it). */
export const LAY_OUT_STEP = 32 * 1024 * 1024;

/**
 * Step 4 above on `db` (the worker's connection): the -wal file made longer with zeros, toward
 * `size`, by at most LAY_OUT_STEP, and synced. Under the write lock, so no writer of any process
 * appends a frame meanwhile; skipped when another connection holds it.
 */
export function layOutLog(db: Database, path: string, size: number): void {
  const fd = openSync(`${path}-wal`, 'r+');
  try {
    if (fstatSync(fd).size >= size) return;
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch {
      return; // the write lock is taken: the next checkpoint tries again
    }
    try {
      const from = fstatSync(fd).size;
      const to = Math.min(size, from + LAY_OUT_STEP);
      const zeros = Buffer.alloc(Math.min(1 << 20, Math.max(0, to - from)));
      for (let at = from; at < to; at += zeros.length) writeSync(fd, zeros, 0, Math.min(zeros.length, to - at), at);
      fdatasyncSync(fd);
    } finally {
      db.exec('ROLLBACK');
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Not a checkpoint step, but run by the same worker between them: the part of the -wal file the
 * log's next frames go into is asked into the page cache, not waited for (src/db/write-back.ts).
 * A frame written into a block the cache no longer holds makes the kernel read the block first,
 * in the commit, on the request thread (measured beside a disk neighbour on a machine whose
 * reclaim drops idle file pages: 8-27 ms a frame; docs/performance.md).
 */
function readAhead(path: string, from: number, bytes: number): boolean {
  return startReadAhead(heldDescriptor(`${path}-wal`), from, bytes);
}

/** Runs one job of a checkpoint (the steps above) of the database at `job.path`. */
export function checkpointWal(job: CheckpointJob): CheckpointResult {
  if (job.step === 'readAhead') {
    readAhead(job.path, job.from, job.bytes);
    return { restarted: false };
  }
  const db = connectionTo(job.path);
  if (job.step === 'copy') {
    // Step 1 never waits: PASSIVE copies what no reader still needs and leaves the rest to step 2.
    db.exec('PRAGMA busy_timeout = 0');
    db.query<Row, []>('PRAGMA wal_checkpoint(PASSIVE)').get();
    // SQLite syncs the database file only when a copy reaches the log's end, which a copy made while
    // the writes go on never does: the pages every copy wrote were then all synced by step 2, while
    // the writes are held (strace at 1M posts: one fsync of 22 ms in a held restart that copied 27
    // frames; 18.9 ms p50 at a 4,000-page threshold). Their write-back starts now, not waited for:
    // a wait here put the log's syncs, which answer the writes, behind thousands of scattered pages
    // (docs/performance.md, "Why a held restart grows with the threshold").
    startWriteBack(heldDescriptor(job.path));
    return { restarted: false };
  }
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(job.busyMs))}`);
  const restarted = restartLog(db);
  if (restarted && job.layOut) layOutLog(db, job.path, job.layOut);
  return { restarted };
}

/** The connection's automatic checkpoint threshold (pages; 0 turns it off). */
export function setAutocheckpoint(db: Database, pages: number): void {
  db.exec(`PRAGMA wal_autocheckpoint = ${Math.max(0, Math.floor(pages))}`);
}

/** Closes this thread's checkpoint connections (tests that run checkpointWal in-process). */
export function closeCheckpointConnections(): void {
  for (const db of connections.values()) db.close();
  connections.clear();
}
