// Prepared SQL for the scorecards table and what the scorecard counts, built once per database.
import { livePost, notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

interface ScorecardRow {
  n: number;
  slot: number;
  trigger: 'schedule' | 'manual';
  post_id: string;
  window_from: number;
  window_to: number;
  numbers: string;
  created_at: number;
}

function build(db: Db) {
  return {
    nextN: db.query<{ n: number }, []>('SELECT coalesce(max(n), 0) + 1 AS n FROM scorecards'),
    scheduledForSlot: db.query<ScorecardRow, [number]>("SELECT * FROM scorecards WHERE slot = ? AND trigger = 'schedule'"),
    insert: db.query<void, [number, number, string, string, number, number, string, number]>(
      'INSERT INTO scorecards (n, slot, trigger, post_id, window_from, window_to, numbers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    /** The newest scorecard whose post is live (scorecards by n first: see latestPlaybook). */
    latestLive: db.query<ScorecardRow & { title: string; thread_id: string }, []>(
      `SELECT s.*, p.title, p.thread_id FROM scorecards s CROSS JOIN posts p ON p.id = s.post_id
       WHERE ${notDeleted('p')} ORDER BY s.n DESC LIMIT 1`,
    ),
    /** The newest live `Playbook:` reply on any scorecard. CROSS JOIN keeps scorecards the outer
     *  loop: left to itself the planner walks every post by seq for the ORDER BY (60 ms at 100k posts). */
    latestPlaybook: db.query<{ id: string; thread_id: string; author: string; body: string; created_at: number }, []>(
      `SELECT r.id, r.thread_id, a.name AS author, r.body, r.created_at
       FROM scorecards s CROSS JOIN posts root ON root.id = s.post_id
       CROSS JOIN posts r ON r.thread_id = root.id AND r.kind = 'reply' JOIN accounts a ON a.id = r.author_id
       WHERE ${notDeleted('root')} AND ${livePost('r')} AND lower(r.prefix) = 'playbook'
       ORDER BY r.seq DESC LIMIT 1`,
    ),
    /** How the scheduler recorded the run in progress for a slot (a manual run or a scheduled one). */
    runningTrigger: db.query<{ trigger: string }, [string, number]>(
      "SELECT trigger FROM job_runs WHERE job = ? AND slot = ? AND status = 'running' ORDER BY id DESC LIMIT 1",
    ),
    acceptedBetween: db.query<{ n: number }, [number, number]>('SELECT count(*) AS n FROM acceptances WHERE accepted_at >= ? AND accepted_at < ?'),
  };
}

export const scorekeeperStore = perDatabase(build);
