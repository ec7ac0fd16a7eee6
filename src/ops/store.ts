// The SQL of src/ops/: the record of each completed `svc backup` (schema/0037_show_queue_backups.sql),
// written by the backup into the database it copied and read by the console's Health page.
import type { Database } from 'bun:sqlite';
import { perDatabase } from '../db/open.ts';

export interface BackupRow {
  at: number;
  file: string;
  bytes: number;
  schema_version: number;
}

/**
 * Records a completed backup; false when the database predates the record (a schema before 0037:
 * the backup never migrates what it copies) or the write failed (the copy itself is whole).
 */
export function recordBackup(db: Database, row: BackupRow): boolean {
  try {
    if (!db.query("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'ops_backups'").get()) return false;
    db.query('INSERT INTO ops_backups (at, file, bytes, schema_version) VALUES (?, ?, ?, ?)').run(row.at, row.file, row.bytes, row.schema_version);
    return true;
  } catch {
    return false;
  }
}

export const opsStore = perDatabase((db) => ({
  lastBackup: db.query<BackupRow, []>('SELECT at, file, bytes, schema_version FROM ops_backups ORDER BY seq DESC LIMIT 1'),
}));
