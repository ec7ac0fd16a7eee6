import type { Database } from 'bun:sqlite';
import { MIGRATIONS, type Migration } from './migrations.ts';

interface MigrateResult {
  applied: string[];
  current: number;
}

const checksum = (sql: string): string => new Bun.CryptoHasher('sha256').update(sql).digest('hex');

/**
 * Applies pending migrations in order, each in its own transaction. A landed migration must never
 * change: its checksum is recorded and a mismatch stops the start instead of running on a
 * schema nobody wrote.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): MigrateResult {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const rows = db.query('SELECT version, name, checksum FROM schema_migrations').all() as {
    version: number;
    name: string;
    checksum: string;
  }[];
  const done = new Map(rows.map((r) => [r.version, r]));
  const known = new Set(migrations.map((m) => m.version));
  for (const r of rows) {
    if (!known.has(r.version)) {
      throw new Error(`database has migration ${r.name} that this build does not know: use a newer svc`);
    }
  }
  const applied: string[] = [];
  for (const m of migrations) {
    const prior = done.get(m.version);
    if (prior) {
      if (prior.checksum !== checksum(m.sql)) {
        throw new Error(`migration ${m.name} was edited after it was applied`);
      }
      continue;
    }
    db.transaction(() => {
      db.exec(m.sql);
      db.query('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)').run(
        m.version,
        m.name,
        checksum(m.sql),
        new Date().toISOString(),
      );
    }).immediate();
    applied.push(m.name);
  }
  return { applied, current: migrations.at(-1)?.version ?? 0 };
}
