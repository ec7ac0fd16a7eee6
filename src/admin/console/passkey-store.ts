// The console's passkeys and ceremony challenges (schema/0036).
import { type Db, perDatabase } from '../../db/open.ts';

export interface PasskeyRow {
  credential_id: string;
  account_id: string;
  public_key: Uint8Array;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number | null;
}

export type Ceremony = 'register' | 'sign-in';

const COLUMNS = 'credential_id, account_id, public_key, counter, transports, created_at, last_used_at';

function build(db: Db) {
  return {
    insert: db.query<void, [string, string, Uint8Array, number, string, number]>(
      `INSERT INTO console_passkeys (credential_id, account_id, public_key, counter, transports, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    byId: db.query<PasskeyRow, [string]>(`SELECT ${COLUMNS} FROM console_passkeys WHERE credential_id = ?`),
    ofAccount: db.query<PasskeyRow, [string]>(`SELECT ${COLUMNS} FROM console_passkeys WHERE account_id = ? ORDER BY created_at, credential_id`),
    countOf: db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM console_passkeys WHERE account_id = ?'),
    used: db.query<void, [number, number, string]>('UPDATE console_passkeys SET counter = ?, last_used_at = ? WHERE credential_id = ?'),
    remove: db.query<void, [string, string]>('DELETE FROM console_passkeys WHERE credential_id = ? AND account_id = ?'),
    /** Every passkey of an account, and its registrations under way: its key was reissued or revoked. */
    removeOfAccount: db.query<void, [string]>('DELETE FROM console_passkeys WHERE account_id = ?'),
    removeChallengesOf: db.query<void, [string]>('DELETE FROM console_passkey_challenges WHERE account_id = ?'),
    putChallenge: db.query<void, [string, Ceremony, string | null, number]>(
      'INSERT INTO console_passkey_challenges (challenge, ceremony, account_id, expires_at) VALUES (?, ?, ?, ?)',
    ),
    /** Takes a challenge out (single use): the row if it was there. */
    takeChallenge: db.query<{ ceremony: Ceremony; account_id: string | null; expires_at: number }, [string]>(
      'DELETE FROM console_passkey_challenges WHERE challenge = ? RETURNING ceremony, account_id, expires_at',
    ),
    /** The sign-in challenges kept (none expired: expireChallenges first) and when the oldest expires. */
    openSignIns: db.query<{ n: number; first: number | null }, []>(
      "SELECT count(*) AS n, min(expires_at) AS first FROM console_passkey_challenges WHERE ceremony = 'sign-in'",
    ),
    expireChallenges: db.query<void, [number]>('DELETE FROM console_passkey_challenges WHERE expires_at < ?'),
  };
}

export const passkeyStore = perDatabase(build);
