// Prepared SQL for the retained Idempotency-Key answers (idempotency_keys), built once per database.
import { type Db, perDatabase } from '../db/open.ts';

export interface KeyRow {
  route: string;
  request_hash: string;
  status: number;
  response: string;
}

function build(db: Db) {
  return {
    answer: db.query<KeyRow, [string, string]>('SELECT route, request_hash, status, response FROM idempotency_keys WHERE account_id = ? AND key = ?'),
    insert: db.query<void, [string, string, string, string, number, string, string | null, string | null, number]>(
      `INSERT INTO idempotency_keys (account_id, key, route, request_hash, status, response, resource_kind, resource_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // What a write published under the key, for the publication lookup.
    resource: db.query<{ resource_kind: string | null; resource_id: string | null }, [string, string]>(
      'SELECT resource_kind, resource_id FROM idempotency_keys WHERE account_id = ? AND key = ?',
    ),
  };
}

/** The idempotency statements, prepared once per database. */
export const idempotencyStore = perDatabase(build);
