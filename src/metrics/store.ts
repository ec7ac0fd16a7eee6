// Prepared SQL for GET /metrics and GET /readyz: the latest run of each scheduled job, the outreach
// queue, the applied migrations and the write probe. Reads by index only: a scrape every few
// seconds costs the same after a year of job runs and e-mails.
import type { Database } from 'bun:sqlite';
import { type Db, perDatabase } from '../db/open.ts';

export interface RunRow {
  started_at: number;
  finished_at: number | null;
  status: 'running' | 'done' | 'failed';
}

function build(db: Db) {
  return {
    /** The newest run of a job, whatever its trigger (job_runs_latest). */
    latestRun: db.query<RunRow, [string]>('SELECT started_at, finished_at, status FROM job_runs WHERE job = ? ORDER BY id DESC LIMIT 1'),
    /** The newest run of a job that finished well. */
    lastSuccess: db.query<{ finished_at: number | null }, [string]>(
      "SELECT finished_at FROM job_runs WHERE job = ? AND status = 'done' ORDER BY id DESC LIMIT 1",
    ),
    /** E-mails waiting for an operator's approval (outreach_messages_queued). */
    outreachQueued: db.query<{ n: number }, []>("SELECT count(*) AS n FROM outreach_messages WHERE status = 'queued'"),
    /** E-mails handed to the relay and not yet accepted by it, retries included (outreach_messages_due). */
    outreachSending: db.query<{ n: number }, []>(
      "SELECT count(*) AS n FROM outreach_messages WHERE status IN ('sending', 'failed') AND next_attempt_at IS NOT NULL",
    ),
  };
}

/** The metrics' statements, prepared once per database. */
export const metricsStore = perDatabase(build);

function buildReadiness(db: Db) {
  return {
    applied: db.query<{ version: number }, []>('SELECT version FROM schema_migrations'),
    // A row that is never kept: written, then rolled back (a read-only database refuses it).
    probe: db.query<void, []>("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (-1, 'readiness probe', '', '')"),
  };
}

/** The readiness statements; preparing them fails while schema_migrations does not exist yet. */
const readinessStore = perDatabase(buildReadiness);

/** The migration versions the database records, or null before the first migration ran. */
export function appliedMigrations(db: Db): Set<number> | null {
  let s: ReturnType<typeof buildReadiness>;
  try {
    s = readinessStore(db);
  } catch {
    return null;
  }
  return new Set(s.applied.all().map((r) => r.version));
}

class RolledBack extends Error {}

/**
 * Whether the database takes a write now: a row written inside an IMMEDIATE transaction, which
 * is then rolled back. Throws what SQLite said when it refuses (read-only, locked past the busy
 * timeout, I/O error).
 */
export function probeWrite(db: Database): void {
  const s = readinessStore(db);
  try {
    db.transaction(() => {
      s.probe.run();
      throw new RolledBack();
    }).immediate();
  } catch (e) {
    if (!(e instanceof RolledBack)) throw e;
  }
}
