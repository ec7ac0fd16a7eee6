// Whole-database copies: the backup, the restore and the snapshot taken before an upgrade all write
// a consistent copy with VACUUM INTO (one read transaction: a server may keep writing meanwhile,
// in WAL mode it is never blocked) into a temporary name beside the target, flush it to disk and
// only then give it its name, so a copy that exists under its name is whole.
import type { Database } from 'bun:sqlite';
import { openFile } from './open.ts';
import { closeSync, constants, copyFileSync, fsyncSync, linkSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Opens an existing database file without creating one (the source of a backup or a restore). */
export function openExisting(file: string, opts: { readonly?: boolean } = {}): Database {
  const db = openFile(file, opts.readonly ? { readonly: true } : { readwrite: true, create: false });
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a consistent copy of `db` to `target`. With `replace`, an existing target is replaced
 * (atomically); without it, an existing target makes this throw with code EEXIST and is left alone.
 */
export function writeCopy(db: Database, target: string, opts: { replace?: boolean } = {}): void {
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.partial`);
  try {
    db.query('VACUUM INTO ?').run(partial);
    fsyncPath(partial);
    if (opts.replace) renameSync(partial, target);
    else {
      try {
        linkSync(partial, target); // fails with EEXIST instead of overwriting
      } catch (e) {
        // A file system without hard links: an exclusive copy (still EEXIST on an existing target).
        const code = (e as NodeJS.ErrnoException)?.code;
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
        copyFileSync(partial, target, constants.COPYFILE_EXCL);
        fsyncPath(target);
      }
    }
    fsyncPath(dirname(target));
  } finally {
    rmSync(partial, { force: true });
  }
}

/** 'ok', or the problems `PRAGMA integrity_check` found (at most `max`). */
export function integrityProblems(db: Database, max = 10): string[] {
  const rows = db.query(`PRAGMA integrity_check(${Math.max(1, Math.floor(max))})`).all() as { integrity_check: string }[];
  const found = rows.map((r) => r.integrity_check);
  return found.length === 1 && found[0] === 'ok' ? [] : found;
}

/** The migrations a database records (empty when it has none, or no table for them). */
export function appliedMigrations(db: Database): { version: number; name: string; checksum: string }[] {
  const table = db.query("SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) return [];
  return db.query('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all() as { version: number; name: string; checksum: string }[];
}
