import { Database, type SQLQueryBindings, type Statement } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { optimizeOnOpen } from './optimize.ts';
import { stablePlan } from './stable-plan.ts';

export type Db = Database;

type Bindings = SQLQueryBindings | SQLQueryBindings[];
/** A statement as bun:sqlite's Database types it (its `any[]` kept, or the override is not assignable). */
// biome-ignore lint/suspicious/noExplicitAny: the base class's own signature
type Compiled<R, P extends Bindings> = Statement<R, P extends any[] ? P : [P]>;

/**
 * bun:sqlite's Database whose statements are planned once, when prepared (stable-plan.ts): every
 * connection of the service is one (openDatabase, openReadOnlyDatabase, openFile).
 */
class ServiceDatabase extends Database {
  override query<R, P extends Bindings>(sql: string): Compiled<R, P> {
    return super.query<R, P>(stablePlan(sql));
  }

  override prepare<R, P extends Bindings>(sql: string, params?: P): Compiled<R, P> {
    return super.prepare<R, P>(stablePlan(sql), params);
  }
}

/**
 * Opens a database file as the service opens every connection (strict bindings, statements
 * planned once); `options` as bun:sqlite takes them (readonly, readwrite, create).
 */
export function openFile(file: string, options: { readonly?: boolean; readwrite?: boolean; create?: boolean }): Database {
  return new ServiceDatabase(file, { ...options, strict: true });
}

export const DB_FILE = 'svc.sqlite';

/** How long a statement waits for another connection's lock (busy_timeout); the group commit waits as long, from a timer. */
export const BUSY_TIMEOUT_MS = 5000;

/** The writing connection's autocheckpoint (pages): see applyPragmas. Litestream, when it replicates, checkpoints instead (src/server.ts). */
export const WAL_AUTOCHECKPOINT_PAGES = 1000;

/** How the database is opened; the service's settings decide (src/config.ts `unsafeSyncNormal`). */
export interface OpenOptions {
  /**
   * synchronous = NORMAL instead of FULL: faster commits, but a power cut or an OS crash may lose
   * the last writes that were already acknowledged (a crash of the process alone loses nothing).
   */
  unsafeSyncNormal?: boolean;
}

// WAL lets public reads proceed while a write commits. synchronous = FULL syncs the log at every
// commit, so a write is on disk before its request is answered: an acknowledged write survives a
// power cut. (NORMAL, opt-in, syncs only at checkpoints: an OS crash or power cut may lose the last
// acknowledged commits.) Group commit (group-commit.ts) shares one sync among the writes of a batch.
export function applyPragmas(db: Database, opts: OpenOptions): void {
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${opts.unsafeSyncNormal ? 'NORMAL' : 'FULL'}`);
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.exec('PRAGMA temp_store = MEMORY');
  // The writing connection's page cache: 16 MB instead of SQLite's 2 MB. A write reads the pages
  // of several indexes (a vote touches six, a post the full-text index's): with the larger cache
  // they stay in memory between writes (-10 % CPU a vote measured in-process). It fills with use
  // only: start-up memory is unchanged.
  db.exec('PRAGMA cache_size = -16384');
  // No memory map (mmap_size): measured at 1M posts, it turned each of a write's page-cache misses
  // from a pread() into a page fault for the same CPU a write (bench/pages/write-pages.ts with
  // PAGES_AB, the two settings in turn in one process), and put the file's pages in RSS.
  // The log is copied into the database (a checkpoint) in the commit that takes it past this many
  // pages, and the database file is synced there, on the request thread. SQLite's 1,000 is kept on
  // purpose: 4,000 copied each hot index page once for more writes (votes +18-28 %/s), but at a
  // million posts the sync of 4,000 scattered pages stalled every request for 0.5-0.7 s, once in
  // every run of the resume bench (docs/operations.md, "Checkpoints").
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  // Planner statistics (optimize.ts): missing or stale ones are gathered now, within SQLite's row
  // limit per index; the hourly job and the close keep them current.
  optimizeOnOpen(db);
}

/** Opens (creating if needed) the service database inside `dataDir`. */
export function openDatabase(dataDir: string, opts: OpenOptions = {}): Database {
  mkdirSync(dataDir, { recursive: true });
  const db = openFile(join(dataDir, DB_FILE), { create: true });
  applyPragmas(db, opts);
  return db;
}

/**
 * A read-only connection to a database file the service has open (in WAL mode, so it reads the
 * last committed state while the service writes): for a worker thread's reads. It never writes.
 */
export function openReadOnlyDatabase(file: string): Database {
  const db = openFile(file, { readonly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA query_only = ON');
  db.exec('PRAGMA temp_store = MEMORY');
  return db;
}

/** A private in-memory database, for tests. */
export function openMemoryDatabase(): Database {
  const db = openFile(':memory:', {});
  db.exec('PRAGMA foreign_keys = ON');
  return db;
}

/**
 * Runs `fn` in one IMMEDIATE transaction: one request, one transaction. Handlers are synchronous
 * inside, so two concurrent requests can never interleave between a check and its write.
 */
export function tx<T>(db: Database, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/**
 * Runs `fn` in the caller's transaction when there is one (a group commit's savepoint, the
 * idempotency layer's), else in its own (tx). No nested savepoint: it would cost every write a
 * measurable share of its time for nothing, since the outer transaction already rolls back as one.
 */
export function inTx<T>(db: Database, fn: () => T): T {
  return db.inTransaction ? fn() : tx(db, fn);
}

/** What `build` prepares from a database (its statements), made once per database and reused. */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) {
      value = build(db);
      built.set(db, value);
    }
    return value;
  };
}

/** Gives back the memory a connection's page cache holds (PRAGMA shrink_memory): after a read far larger than the usual ones. */
export function shrinkMemory(db: Database): void {
  db.exec('PRAGMA shrink_memory');
}
