// The WAL checkpoint the running server asks for once the log has reached its threshold
// (src/ops/wal-log.ts), run on a connection of its own in a worker thread (workers/wal-checkpoint.ts)
// so that neither the copy into the database nor the syncs that go with it ever run on the thread
// that answers requests.
//
// One checkpoint is three steps, while the group commit holds its next batches (writes queue; reads
// and everything else go on):
//   1. PASSIVE: the log's pages are copied into the database and the database file is synced. This
//      is the long part (0.5-0.7 s at a million posts); it takes no write lock, so a write that does
//      not go through the group commit (an admin action, a scheduled job) still commits meanwhile.
//   2. TRUNCATE: whatever such writes appended since step 1 is copied too (usually nothing), then,
//      once no reader still uses the log, it is restarted and the -wal file cut to 0 bytes. This step
//      holds the write lock, briefly.
//   3. The -wal file is synced, so that its being empty is on disk before the next batch writes a
//      new log header without a sync of its own (why that matters: docs/operations.md, "Commits and
//      checkpoints off the request thread").
// The connection runs synchronous = FULL: SQLite then syncs the log before copying it and the
// database file before it marks the copied frames as checkpointed, whatever the writing connection's
// own setting is.
import { Database } from 'bun:sqlite';
import { closeSync, fsyncSync, openSync } from 'node:fs';

export interface CheckpointJob {
  /** The database file. */
  path: string;
  /** How long step 2 may wait for the write lock and for readers to leave the log. */
  busyMs: number;
}

export interface CheckpointResult {
  /** The log was restarted, cut to 0 bytes and that is on disk: the next writer may skip its header sync. */
  restarted: boolean;
  /** Frames in the log and frames copied, as the TRUNCATE step reported them (0 and 0 once restarted). */
  log: number;
  checkpointed: number;
}

const connections = new Map<string, Database>();

function connectionTo(path: string): Database {
  let db = connections.get(path);
  if (!db) {
    db = new Database(path, { readwrite: true, create: false, strict: true });
    db.exec('PRAGMA synchronous = FULL');
    // This connection never writes; it must not checkpoint on its own schedule either.
    db.exec('PRAGMA wal_autocheckpoint = 0');
    connections.set(path, db);
  }
  return db;
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

type Row = { busy: number; log: number; checkpointed: number };

/** Runs one checkpoint (the three steps above) of the database at `job.path`. */
export function checkpointWal(job: CheckpointJob): CheckpointResult {
  const db = connectionTo(job.path);
  // Step 1 never waits: PASSIVE copies what no reader still needs and leaves the rest to step 2.
  db.exec('PRAGMA busy_timeout = 0');
  db.query<Row, []>('PRAGMA wal_checkpoint(PASSIVE)').get();
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(job.busyMs))}`);
  const row = db.query<Row, []>('PRAGMA wal_checkpoint(TRUNCATE)').get()!;
  if (row.busy !== 0) return { restarted: false, log: row.log, checkpointed: row.checkpointed };
  fsyncFile(`${job.path}-wal`);
  return { restarted: true, log: row.log, checkpointed: row.checkpointed };
}

/**
 * The writing connection's checkpoint at start-up, before the server listens: the log is copied
 * into the database, restarted and cut to 0 bytes. False when a reader (another process) kept it
 * from restarting.
 */
export function truncateLog(db: Database): boolean {
  return db.query<Row, []>('PRAGMA wal_checkpoint(TRUNCATE)').get()!.busy === 0;
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
