-- Runs of scheduled jobs. A scheduled run claims its slot (the pattern time it belongs to) before
-- it starts, so a restart or a second process never runs one slot twice. Manual runs
-- (`svc admin run …`) are recorded too but claim nothing.
CREATE TABLE job_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  job TEXT NOT NULL,
  slot INTEGER NOT NULL,                   -- ms of the schedule time this run belongs to
  trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'catch_up', 'manual')),
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  result TEXT                              -- JSON of what the run did, or the error message
) STRICT;
CREATE UNIQUE INDEX job_runs_one_per_slot ON job_runs (job, slot) WHERE trigger <> 'manual';
CREATE INDEX job_runs_latest ON job_runs (job, id);
