import type { Database } from 'bun:sqlite';
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { importLabSites } from './lab-sites-import.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { appliedMigrations, writeCopy } from './snapshot.ts';

interface MigrateResult {
  applied: string[];
  current: number;
  /** The copy of the database written before this upgrade (null: nothing was pending, or a new database). */
  snapshot: string | null;
}

/** Why migrate refused to run; the message says what to do. */
export class MigrationError extends Error {
  constructor(
    readonly code: 'MIGRATION_NEWER_DATABASE' | 'MIGRATION_EDITED' | 'MIGRATION_SNAPSHOT_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/** Snapshots kept beside the database: the newest (highest schema version) this many. */
export const SNAPSHOTS_KEPT = 3;

/** A migration's recorded checksum: sha256 of its text. */
export const checksum = (sql: string): string => new Bun.CryptoHasher('sha256').update(sql).digest('hex');

// Steps SQL cannot take, run right after their migration's SQL in the same transaction.
const STEPS: Record<string, (db: Database) => object | null> = {
  '0025_lab_site_files.sql': importLabSites,
};

/** The file name of the snapshot that holds schema `version` of the database file `dbFile`: `svc.sqlite.v0024.bak`. */
export const snapshotName = (dbFile: string, version: number): string => `${basename(dbFile)}.v${String(version).padStart(4, '0')}.bak`;

/** The snapshots beside `dbFile`, highest schema version first. */
export function listSnapshots(dbFile: string): { path: string; version: number }[] {
  const base = basename(dbFile);
  const dir = dirname(resolve(dbFile));
  const found: { path: string; version: number }[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${base}.v`) || !name.endsWith('.bak')) continue;
    const digits = name.slice(base.length + 2, -4);
    if (/^\d+$/.test(digits)) found.push({ path: join(dir, name), version: Number(digits) });
  }
  return found.sort((a, b) => b.version - a.version);
}

/**
 * Before an upgrade: a consistent copy of the database as it is (schema `version`) beside it,
 * replacing an older copy of the same version; only the newest SNAPSHOTS_KEPT are kept. A database
 * in memory has no snapshot.
 */
function snapshotBeforeUpgrade(db: Database, version: number): string | null {
  const file = db.filename;
  if (!file || file === ':memory:' || file.startsWith('file::memory:')) return null;
  const target = join(dirname(resolve(file)), snapshotName(file, version));
  try {
    writeCopy(db, target, { replace: true });
  } catch (e) {
    throw new MigrationError(
      'MIGRATION_SNAPSHOT_FAILED',
      `could not write ${target} before upgrading the database from schema ${version} (${String((e as Error)?.message ?? e)}); nothing was migrated: free disk space in ${dirname(target)} and start again`,
    );
  }
  for (const old of listSnapshots(file).slice(SNAPSHOTS_KEPT)) rmSync(old.path, { force: true });
  return target;
}

/**
 * Applies pending migrations in order, each in its own transaction. A landed migration must never
 * change: its checksum is recorded and a mismatch stops the start instead of running on a
 * schema nobody wrote. A database that already holds migrations is copied beside itself first
 * (`svc.sqlite.v0024.bak`), so an upgrade can be undone with `svc restore`.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): MigrateResult {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const rows = appliedMigrations(db);
  const done = new Map(rows.map((r) => [r.version, r]));
  const known = new Set(migrations.map((m) => m.version));
  for (const r of rows) {
    if (!known.has(r.version)) {
      throw new MigrationError('MIGRATION_NEWER_DATABASE', `database has migration ${r.name} that this build does not know: use a newer svc`);
    }
  }
  for (const m of migrations) {
    const prior = done.get(m.version);
    if (prior && prior.checksum !== checksum(m.sql)) throw new MigrationError('MIGRATION_EDITED', `migration ${m.name} was edited after it was applied`);
  }
  const pending = migrations.filter((m) => !done.has(m.version));
  const held = rows.at(-1)?.version;
  const snapshot = held !== undefined && pending.length > 0 ? snapshotBeforeUpgrade(db, held) : null;
  if (snapshot) console.error(JSON.stringify({ event: 'pre_upgrade_snapshot', path: snapshot, schema_version: held }));
  const applied: string[] = [];
  for (const m of pending) {
    db.transaction(() => {
      db.exec(m.sql);
      const step = STEPS[m.name]?.(db);
      if (step) console.error(JSON.stringify({ event: 'migration_step', migration: m.name, ...step }));
      db.query('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)').run(
        m.version,
        m.name,
        checksum(m.sql),
        new Date().toISOString(),
      );
    }).immediate();
    applied.push(m.name);
  }
  return { applied, current: migrations.at(-1)?.version ?? 0, snapshot };
}
