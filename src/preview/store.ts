// Prepared SQL of author preview sessions (schema/0020_preview.sql).
import { liveAccount } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface PreviewSessionRow {
  revision_id: string;
  account_id: string;
  expires_at: number;
  /** 1 while the author's account is live and its key not revoked. */
  author_live: number;
}

function build(db: Db) {
  return {
    insert: db.query<void, [string, string, string, number, number]>(
      'INSERT INTO preview_sessions (token_hash, revision_id, account_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    // Uses preview_sessions_expiry.
    pruneExpired: db.query<void, [number]>('DELETE FROM preview_sessions WHERE expires_at <= ?'),
    session: db.query<PreviewSessionRow, [string]>(
      `SELECT s.revision_id, s.account_id, s.expires_at, (${liveAccount('a')} AND a.revoked_at IS NULL) AS author_live
       FROM preview_sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?`,
    ),
  };
}

export const previewStore = perDatabase(build);
