// The audit log's SQL (schema/0033): written by runAction, read by the console's Log and by the
// public moderation log (the rows with a modlog kind).
import { type Db, perDatabase } from '../db/open.ts';

export interface AuditRow {
  seq: number;
  at: number;
  actor: string;
  action: string;
  target: string;
  reason: string | null;
  modlog: string | null;
}

function build(db: Db) {
  return {
    insert: db.query<void, [number, string, string | null, string, string, string | null, string | null]>(
      'INSERT INTO audit_log (at, actor, actor_id, action, target, reason, modlog) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    /**
     * The console's filtered Log: the newest entries before a seq, each filter NULL for "any":
     * the action, the actor's name, a part of the target, and a time range [from, to).
     */
    filtered: db.query<AuditRow, [number, string | null, string | null, string | null, number | null, number | null, number]>(
      `SELECT seq, at, actor, action, target, reason, modlog FROM audit_log
       WHERE seq < ?1 AND (?2 IS NULL OR action = ?2) AND (?3 IS NULL OR actor = ?3) AND (?4 IS NULL OR instr(target, ?4) > 0)
         AND (?5 IS NULL OR at >= ?5) AND (?6 IS NULL OR at < ?6)
       ORDER BY seq DESC LIMIT ?7`,
    ),
    /** The moderation log's entries just newer than `after`, oldest first (pageOf turns them). */
    publicAfter: db.query<AuditRow, [number, number]>(
      'SELECT seq, at, actor, action, target, reason, modlog FROM audit_log WHERE modlog IS NOT NULL AND seq > ? ORDER BY seq ASC LIMIT ?',
    ),
    /** The same for the moderation log: public entries only. */
    publicPage: db.query<AuditRow, [number, number]>(
      'SELECT seq, at, actor, action, target, reason, modlog FROM audit_log WHERE modlog IS NOT NULL AND seq < ? ORDER BY seq DESC LIMIT ?',
    ),
  };
}

export const auditStore = perDatabase(build);
