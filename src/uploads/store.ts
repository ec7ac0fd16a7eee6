// Prepared SQL of upload sessions and their parts (schema/0019_comments.sql).
import { type Db, perDatabase } from '../db/open.ts';

export interface UploadRow {
  id: string;
  account_id: string;
  kind: 'post' | 'revision' | 'comment';
  target_id: string | null;
  expected_hash: string;
  expected_bytes: number;
  received_bytes: number;
  parts: number;
  created_at: number;
  expires_at: number;
  committed_at: number | null;
  result_status: number | null;
  result: string | null;
}

export const uploadsStore = perDatabase((db: Db) => ({
  insert: db.query<null, [string, string, string, string | null, string, number, number, number]>(
    `INSERT INTO upload_sessions (id, account_id, kind, target_id, expected_hash, expected_bytes, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  byId: db.query<UploadRow, [string]>('SELECT * FROM upload_sessions WHERE id = ?'),
  part: db.query<{ data: Uint8Array }, [string, number]>('SELECT data FROM upload_parts WHERE session_id = ? AND part_number = ?'),
  insertPart: db.query<null, [string, number, Uint8Array]>('INSERT INTO upload_parts (session_id, part_number, data) VALUES (?, ?, ?)'),
  advance: db.query<null, [number, string]>('UPDATE upload_sessions SET parts = parts + 1, received_bytes = received_bytes + ? WHERE id = ?'),
  parts: db.query<{ data: Uint8Array }, [string]>('SELECT data FROM upload_parts WHERE session_id = ? ORDER BY part_number'),
  commit: db.query<null, [number, number, string, string]>(
    'UPDATE upload_sessions SET committed_at = ?, result_status = ?, result = ? WHERE id = ? AND committed_at IS NULL',
  ),
  dropParts: db.query<null, [string]>('DELETE FROM upload_parts WHERE session_id = ?'),
  // Expired, uncommitted sessions' parts are dropped (their rows stay to answer UPLOAD_EXPIRED).
  expiredWithParts: db.query<{ id: string }, [number]>(
    'SELECT id FROM upload_sessions WHERE expires_at <= ? AND committed_at IS NULL AND parts > 0 ORDER BY expires_at LIMIT 50',
  ),
}));
