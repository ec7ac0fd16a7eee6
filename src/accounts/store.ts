import { liveAccount } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface AccountRow {
  id: string;
  name: string;
  description: string | null;
  created_at: number;
  revoked_at: number | null;
  residency_stopped_at: number | null;
}

/** The key_hash prefix of an account made without a key: not a hash any key can have (keys are checked against their pattern before hashing). */
export const KEYLESS = 'no-key:';

/** An account holding a role, with what says whether it can still act. */
export interface HolderRow extends AccountRow {
  deleted_at: number | null;
}

interface CrewRow {
  desk: string;
  shift: 'on' | 'off' | null;
  shift_next_on_at: number | null;
}

const COLS = 'id, name, description, created_at, revoked_at, residency_stopped_at';
/** A key works while its account is neither revoked nor deleted. */
const KEY_WORKS = `revoked_at IS NULL AND ${liveAccount()}`;

function build(db: Db) {
  return {
    insert: db.query<void, [string, string, string, string | null, string, number, string | null]>(
      'INSERT INTO accounts (id, name, name_key, description, key_hash, created_at, key_prefix) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byKeyHash: db.query<AccountRow, [string]>(`SELECT ${COLS} FROM accounts WHERE key_hash = ?`),
    byName: db.query<AccountRow, [string]>(`SELECT ${COLS} FROM accounts WHERE name_key = ?`),
    byId: db.query<AccountRow, [string]>(`SELECT ${COLS} FROM accounts WHERE id = ?`),
    /** The account's key hash while the key works. */
    workingKey: db.query<{ key_hash: string }, [string]>(`SELECT key_hash FROM accounts WHERE id = ? AND ${KEY_WORKS}`),
    /** The account while the given key hash is its key and the key works. */
    holdingKey: db.query<AccountRow, [string, string]>(`SELECT ${COLS} FROM accounts WHERE id = ? AND key_hash = ? AND ${KEY_WORKS}`),
    // A revoked account is no longer live: deleted_at takes its writing out of every public read
    // and feed (the rows are kept, as deleted posts are).
    revoke: db.query<void, [number, string]>('UPDATE accounts SET revoked_at = ?1, deleted_at = coalesce(deleted_at, ?1) WHERE id = ?2 AND revoked_at IS NULL'),
    setKeyHash: db.query<void, [string, string]>('UPDATE accounts SET key_hash = ? WHERE id = ?'),
    setKey: db.query<void, [string, string, string]>('UPDATE accounts SET key_hash = ?, key_prefix = ? WHERE id = ?'),
    stopResidency: db.query<void, [number, string]>('UPDATE accounts SET residency_stopped_at = ? WHERE id = ? AND residency_stopped_at IS NULL'),
    resumeResidency: db.query<void, [string]>('UPDATE accounts SET residency_stopped_at = NULL WHERE id = ?'),
    /** Holders of a role: keyed (operator-made) accounts first, then by grant time. */
    roleHolders: db.query<HolderRow, [string]>(
      `SELECT a.id, a.name, a.description, a.created_at, a.revoked_at, a.residency_stopped_at, a.deleted_at
       FROM account_roles r JOIN accounts a ON a.id = r.account_id
       WHERE r.role = ?
       ORDER BY a.key_hash LIKE '${KEYLESS}%', r.granted_at, a.id`,
    ),
    roles: db.query<{ role: string }, [string]>('SELECT role FROM account_roles WHERE account_id = ? ORDER BY role'),
    grantRole: db.query<void, [string, string, number]>('INSERT OR IGNORE INTO account_roles (account_id, role, granted_at) VALUES (?, ?, ?)'),
    revokeRole: db.query<void, [string, string]>('DELETE FROM account_roles WHERE account_id = ? AND role = ?'),
    crew: db.query<CrewRow, [string]>('SELECT desk, shift, shift_next_on_at FROM crew WHERE account_id = ?'),
    addCrew: db.query<void, [string, string, number]>(
      'INSERT INTO crew (account_id, desk, added_at) VALUES (?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET desk = excluded.desk',
    ),
    removeCrew: db.query<void, [string]>('DELETE FROM crew WHERE account_id = ?'),
    setShift: db.query<void, [string, number | null, string]>('UPDATE crew SET shift = ?, shift_next_on_at = ? WHERE account_id = ?'),
    /** Live crew members per shift ('on', 'off' or never set), for the office document. */
    crewByShift: db.query<{ shift: string | null; n: number }, []>(
      `SELECT k.shift, count(*) AS n FROM crew k JOIN accounts a ON a.id = k.account_id WHERE ${liveAccount('a')} GROUP BY k.shift`,
    ),
    isResident: db.query<{ one: number }, [string]>('SELECT 1 AS one FROM residents WHERE account_id = ?'),
    addResident: db.query<void, [string, number]>('INSERT OR IGNORE INTO residents (account_id, added_at) VALUES (?, ?)'),
    removeResident: db.query<void, [string]>('DELETE FROM residents WHERE account_id = ?'),
    isLabAllowed: db.query<{ one: number }, [string]>('SELECT 1 AS one FROM lab_allowed WHERE account_id = ?'),
    allowLab: db.query<void, [string, number]>('INSERT OR IGNORE INTO lab_allowed (account_id, added_at) VALUES (?, ?)'),
    denyLab: db.query<void, [string]>('DELETE FROM lab_allowed WHERE account_id = ?'),
  };
}

/** The account statements, prepared once per database. */
export const accountStore = perDatabase(build);
