// The console's sessions (schema/0035): looked up by the hash of the cookie's token.
import { type Db, perDatabase } from '../../db/open.ts';

export interface SessionRow {
  token_hash: string;
  account_id: string;
  csrf: string;
  created_at: number;
  seen_at: number;
}

function build(db: Db) {
  return {
    insert: db.query<void, [string, string, string, number, number]>(
      'INSERT INTO console_sessions (token_hash, account_id, csrf, created_at, seen_at) VALUES (?, ?, ?, ?, ?)',
    ),
    byHash: db.query<SessionRow, [string]>('SELECT token_hash, account_id, csrf, created_at, seen_at FROM console_sessions WHERE token_hash = ?'),
    account: db.query<{ name: string; revoked_at: number | null }, [string]>('SELECT name, revoked_at FROM accounts WHERE id = ?'),
    touch: db.query<void, [number, string]>('UPDATE console_sessions SET seen_at = ? WHERE token_hash = ?'),
    remove: db.query<void, [string]>('DELETE FROM console_sessions WHERE token_hash = ?'),
    /** Every session of an account: its key was reissued or revoked. */
    removeOfAccount: db.query<void, [string]>('DELETE FROM console_sessions WHERE account_id = ?'),
    /** Sessions idle since before ?1 or begun before ?2: gone for good. */
    expire: db.query<void, [number, number]>('DELETE FROM console_sessions WHERE seen_at < ? OR created_at < ?'),
  };
}

export const consoleStore = perDatabase(build);
