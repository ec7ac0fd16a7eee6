// `svc backup FILE` and `svc restore FILE --data DIR`: plain functions over files, each refusal an
// OpsError with its own code (the CLI prints it as {"error":{"code",…}} and exits 1). svc.sqlite is
// the whole state of the service (lab sites included, since 0025_lab_site_files), so a backup is one
// consistent copy of it, taken while the server keeps writing.
import type { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checksum } from '../db/migrate.ts';
import { MIGRATIONS } from '../db/migrations.ts';
import { DB_FILE } from '../db/open.ts';
import { appliedMigrations, integrityProblems, openExisting, writeCopy } from '../db/snapshot.ts';
import { type BackupRow, opsStore, recordBackup } from './store.ts';

export type OpsCode =
  | 'NO_DATABASE'
  | 'BACKUP_DIR_MISSING'
  | 'EXISTS'
  | 'BACKUP_FAILED'
  | 'RESTORE_SOURCE_MISSING'
  | 'RESTORE_TARGET_NOT_EMPTY'
  | 'RESTORE_CORRUPT'
  | 'RESTORE_NEWER_SCHEMA'
  | 'RESTORE_FAILED';

/** A refusal of backup or restore: its code, what to do, and the facts behind it. */
export class OpsError extends Error {
  constructor(
    readonly code: OpsCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

const why = (e: unknown): string => String((e as Error)?.message ?? e).split('\n')[0]!;
const isDir = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** The schema version this build knows (the last migration it carries). */
export const BUILD_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

export interface BackupResult {
  backup: string;
  data_dir: string;
  schema_version: number;
  bytes: number;
  /** Whether the backup was recorded in the database it copied (the console's Health page reads it). */
  recorded: boolean;
}

/**
 * Writes a consistent copy of DIR/svc.sqlite to `file` (VACUUM INTO: one read transaction, the
 * server keeps writing meanwhile). Refuses a missing database, a missing folder for the copy and an
 * existing file; never migrates or creates the database it copies. The completed copy is recorded
 * in the database it copied (time, size, path: src/ops/store.ts), where the console's Health page
 * reads the last one; the copy itself does not hold its own record.
 */
export function backup(dataDir: string, file: string, now = Date.now()): BackupResult {
  const target = resolve(file);
  const source = join(dataDir, DB_FILE);
  if (!existsSync(source)) {
    throw new OpsError('NO_DATABASE', `no svc database at ${source}: run the command with --data DIR (or SVC_DATA_DIR) naming the folder the server uses`, {
      database: source,
    });
  }
  const folder = dirname(target);
  if (!isDir(folder))
    throw new OpsError('BACKUP_DIR_MISSING', `the folder ${folder} does not exist: create it, or name a file in a folder that exists`, { folder });
  if (existsSync(target)) throw new OpsError('EXISTS', `${target} already exists; choose a new file`, { file: target });
  let db: Database | null = null;
  try {
    db = openExisting(source);
    const version = appliedMigrations(db).at(-1)?.version ?? 0;
    writeCopy(db, target);
    const bytes = statSync(target).size;
    const recorded = recordBackup(db, { at: now, file: target, bytes, schema_version: version });
    return { backup: target, data_dir: dataDir, schema_version: version, bytes, recorded };
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === 'EEXIST') throw new OpsError('EXISTS', `${target} already exists; choose a new file`, { file: target });
    throw new OpsError('BACKUP_FAILED', `could not write ${target}: ${why(e)}`, { file: target });
  } finally {
    db?.close();
  }
}

export interface RestoreResult {
  restored: string;
  data_dir: string;
  database: string;
  schema_version: number;
  build_schema_version: number;
  /** Migrations the next start applies (a backup from an older build); a snapshot is written first. */
  pending_migrations: number;
}

/** Why a backup cannot be restored by this build, as an OpsError; its schema version when it can. */
function checkBackup(db: Database, source: string): { version: number; applied: number } {
  let problems: string[];
  try {
    problems = integrityProblems(db);
  } catch (e) {
    // SQLITE_NOTADB: not a database at all; SQLITE_CORRUPT: so damaged the check itself stops.
    const code = (e as { code?: string })?.code;
    throw new OpsError('RESTORE_CORRUPT', `${source} is not a readable SQLite database (${why(e)}): restore another backup`, {
      file: source,
      reason: code === 'SQLITE_NOTADB' ? 'not_a_database' : 'unreadable',
    });
  }
  if (problems.length > 0) {
    throw new OpsError('RESTORE_CORRUPT', `${source} fails SQLite's integrity check: restore another backup`, {
      file: source,
      reason: 'integrity_check',
      problems,
    });
  }
  const applied = appliedMigrations(db);
  if (applied.length === 0) {
    throw new OpsError('RESTORE_CORRUPT', `${source} holds no svc schema (no migrations recorded): is it an svc backup?`, {
      file: source,
      reason: 'not_an_svc_database',
    });
  }
  const version = applied.at(-1)!.version;
  const known = new Map(MIGRATIONS.map((m) => [m.version, m]));
  const unknown = applied.filter((m) => !known.has(m.version));
  if (unknown.length > 0) {
    throw new OpsError(
      'RESTORE_NEWER_SCHEMA',
      `${source} holds schema ${version}, newer than this build knows (${BUILD_SCHEMA_VERSION}): restore it with the svc build that wrote it, or a newer one`,
      { file: source, schema_version: version, build_schema_version: BUILD_SCHEMA_VERSION },
    );
  }
  const differing = applied.filter((m) => checksum(known.get(m.version)!.sql) !== m.checksum).map((m) => m.name);
  if (differing.length > 0) {
    throw new OpsError('RESTORE_CORRUPT', `${source} records migrations whose text differs from this build's: it was written by a modified build`, {
      file: source,
      reason: 'migration_checksum',
      migrations: differing,
    });
  }
  return { version, applied: applied.length };
}

/**
 * Restores a backup as DIR/svc.sqlite: DIR must be empty (or not exist); the backup must pass
 * `PRAGMA integrity_check` and hold a schema this build knows (not newer). The copy is written
 * under a temporary name and named svc.sqlite only once whole. Start the server on DIR afterwards.
 */
export function restore(file: string, dataDir: string): RestoreResult {
  const source = resolve(file);
  const dir = resolve(dataDir);
  if (!existsSync(source) || !statSync(source).isFile()) throw new OpsError('RESTORE_SOURCE_MISSING', `no backup file at ${source}`, { file: source });
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory())
      throw new OpsError('RESTORE_TARGET_NOT_EMPTY', `${dir} is a file, not a folder: name a new or empty folder with --data`, { data_dir: dir });
    const entries = readdirSync(dir);
    if (entries.length > 0) {
      throw new OpsError('RESTORE_TARGET_NOT_EMPTY', `${dir} is not empty: restore into a new or empty folder, then point the server at it`, {
        data_dir: dir,
        entries: entries.slice(0, 10),
      });
    }
  }
  let db: Database | null = null;
  try {
    try {
      db = openExisting(source, { readonly: true });
    } catch (e) {
      throw new OpsError('RESTORE_CORRUPT', `${source} cannot be opened as a SQLite database (${why(e)})`, { file: source, reason: 'not_a_database' });
    }
    const { version, applied } = checkBackup(db, source);
    const target = join(dir, DB_FILE);
    try {
      mkdirSync(dir, { recursive: true });
      writeCopy(db, target);
    } catch (e) {
      throw new OpsError('RESTORE_FAILED', `could not write ${target}: ${why(e)}`, { database: target });
    }
    return {
      restored: source,
      data_dir: dir,
      database: target,
      schema_version: version,
      build_schema_version: BUILD_SCHEMA_VERSION,
      pending_migrations: MIGRATIONS.length - applied,
    };
  } finally {
    db?.close();
  }
}

/** The newest backup recorded in this database, if any: what the console's Health page shows. */
export const lastBackup = (db: Database): BackupRow | null => opsStore(db).lastBackup.get();
