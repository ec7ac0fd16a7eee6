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
    /** The newest entries before `before` (a seq; 2^53 for the first page), newest first. */
    page: db.query<AuditRow, [number, number]>('SELECT seq, at, actor, action, target, reason, modlog FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?'),
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
