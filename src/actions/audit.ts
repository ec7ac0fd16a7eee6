// The audit log (schema/0033) as other domains write and read it: an operator's action recorded
// outside runAction (a passkey change, a mirror withdrawal), the console's Log, the public
// moderation log. Through these functions, never the audit store.
import type { AppContext } from '../context.ts';
import { type AuditRow, auditStore } from './store.ts';

export type { AuditRow };

/** One entry: who did what to which target; `modlog` names its kind when the moderation log shows it. */
export interface AuditEntry {
  actor: string;
  actorId: string | null;
  action: string;
  target: string;
  reason?: string | null;
  modlog?: string | null;
}

/** Records an entry, stamped now. */
export const recordAudit = (ctx: AppContext, e: AuditEntry): void => {
  auditStore(ctx.db).insert.run(ctx.clock.now(), e.actor, e.actorId, e.action, e.target, e.reason ?? null, e.modlog ?? null);
};

/** What the console's Log narrows to, each filter null for "any"; the time range is [from, to). */
export interface AuditFilter {
  action: string | null;
  actor: string | null;
  target: string | null;
  from: number | null;
  to: number | null;
}

/** The newest entries before `beforeSeq` that pass the filter, newest first. */
export const auditEntries = (ctx: AppContext, beforeSeq: number, f: AuditFilter, limit: number): AuditRow[] =>
  auditStore(ctx.db).filtered.all(beforeSeq, f.action, f.actor, f.target, f.from, f.to, limit);

/** The moderation log's entries just newer than `afterSeq`, oldest first. */
export const publicEntriesAfter = (ctx: AppContext, afterSeq: number, limit: number): AuditRow[] => auditStore(ctx.db).publicAfter.all(afterSeq, limit);

/** The moderation log's entries before `beforeSeq`, newest first. */
export const publicEntriesBefore = (ctx: AppContext, beforeSeq: number, limit: number): AuditRow[] => auditStore(ctx.db).publicPage.all(beforeSeq, limit);
