// One passive WAL checkpoint, as the wal-checkpoint worker runs it on its own connection to the
// database file (src/ops/checkpointer.ts): the pages the log holds are copied into the database
// and the database file synced there, not in whichever request's commit crossed SQLite's
// autocheckpoint threshold. PASSIVE never waits: it copies what no reader still needs and leaves
// the rest to the next one; writers and readers go on meanwhile (WAL mode).
import { Database } from 'bun:sqlite';

/** What one checkpoint did: frames in the log, frames now in the database, and whether a lock stopped it short. */
export interface CheckpointResult {
  busy: boolean;
  log: number;
  checkpointed: number;
}

/** SQLite's default autocheckpoint (pages), given back when the worker stops. */
export const AUTOCHECKPOINT_PAGES = 1000;

/** Sets the connection's autocheckpoint: 0 while another connection checkpoints (the worker, or Litestream). */
export function setAutocheckpoint(db: Database, pages: number): void {
  db.exec(`PRAGMA wal_autocheckpoint = ${Math.max(0, Math.floor(pages))}`);
}

const connections = new Map<string, Database>();

/** Runs a PASSIVE checkpoint of the database at `path` (one connection per file, opened at the first and kept). */
export function checkpointOnce(path: string): CheckpointResult {
  let db = connections.get(path);
  if (!db) {
    db = new Database(path);
    // The connection only checkpoints: it never waits on a lock, and never checkpoints on its own.
    db.exec('PRAGMA busy_timeout = 0');
    db.exec('PRAGMA wal_autocheckpoint = 0');
    connections.set(path, db);
  }
  const row = db.query<{ busy: number; log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(PASSIVE)').get()!;
  return { busy: row.busy !== 0, log: row.log, checkpointed: row.checkpointed };
}

/** Closes the worker's connections (tests). */
export function closeCheckpointConnections(): void {
  for (const db of connections.values()) db.close();
  connections.clear();
}
