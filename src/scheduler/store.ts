// Prepared SQL for the record of scheduled runs (job_runs), built once per database.
import { type Db, perDatabase } from '../db/open.ts';

function build(db: Db) {
  return {
    // A run claims its slot: the unique (job, slot) makes a second claim return no row.
    claim: db.query<{ id: number }, [string, number, string, number]>(
      "INSERT INTO job_runs (job, slot, trigger, started_at, status) VALUES (?, ?, ?, ?, 'running') ON CONFLICT DO NOTHING RETURNING id",
    ),
    finish: db.query<void, [number, string, string, number]>('UPDATE job_runs SET finished_at = ?, status = ?, result = ? WHERE id = ?'),
  };
}

/** The scheduler's statements, prepared once per database. */
export const schedulerStore = perDatabase(build);
