import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database;

export const DB_FILE = 'svc.sqlite';

// WAL lets public reads proceed while a write commits; NORMAL sync is durable across process
// crashes in WAL mode (only an OS crash can lose the last commits), the usual trade for a board.
function applyPragmas(db: Database): void {
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA temp_store = MEMORY');
}

/** Opens (creating if needed) the service database inside `dataDir`. */
export function openDatabase(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DB_FILE), { create: true, strict: true });
  applyPragmas(db);
  return db;
}

/** A private in-memory database, for tests. */
export function openMemoryDatabase(): Database {
  const db = new Database(':memory:', { strict: true });
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
