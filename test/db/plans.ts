// Shared by the query-plan tests: a fresh migrated database and a statement's plan lines.
import type { Database } from 'bun:sqlite';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';

export function migratedDb(): Database {
  const d = openMemoryDatabase();
  migrate(d);
  return d;
}

/** The plan's lines; parameters are shown as NULL by the statement's text, which plans alike. */
export function plan(d: Database, sql: string): string[] {
  return (d.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail);
}
