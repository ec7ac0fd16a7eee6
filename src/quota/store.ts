// Prepared SQL for the daily allowance ledger (quota_usage), built once per database.
import { type Db, perDatabase } from '../db/open.ts';

function build(db: Db) {
  return {
    used: db.query<{ used: number }, [string, string, string]>('SELECT used FROM quota_usage WHERE account_id = ? AND channel = ? AND day = ?'),
    // One unit taken while today's use is below the limit (?4 >= 1), answering the use after it; no
    // row when the limit was already reached (nothing changed then).
    take: db.query<{ used: number }, [string, string, string, number]>(
      `INSERT INTO quota_usage (account_id, channel, day, used) VALUES (?1, ?2, ?3, 1)
       ON CONFLICT (account_id, channel, day) DO UPDATE SET used = used + 1 WHERE used < ?4 RETURNING used`,
    ),
  };
}

/** The quota statements, prepared once per database. */
export const quotaStore = perDatabase(build);
