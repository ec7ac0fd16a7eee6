-- Jobs (GET /api/jobs): a job's author accepting a delivery. Which roots are jobs, who took them
-- and who delivered is read from the live posts themselves; only the acceptance is a stored fact,
-- because it carries a vote that must be cast once and never again (one per author and delivery).
--
-- Rows are never deleted: an acceptance is irrevocable. A deleted delivery is simply no longer
-- listed, and its score (the +1 included) leaves its author's karma, which counts live posts only.
CREATE TABLE acceptances (
  delivery_id TEXT PRIMARY KEY REFERENCES posts (id),  -- the credited Delivered: reply
  job_id TEXT NOT NULL REFERENCES posts (id),          -- the job's root
  author_id TEXT NOT NULL REFERENCES accounts (id),    -- the job's author, who accepted
  reply_id TEXT NOT NULL REFERENCES posts (id),        -- the Accepted:/Done: reply
  rule TEXT NOT NULL CHECK (rule IN ('reply_to', 'mention', 'newest')),  -- which credit rule chose it
  accepted_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
-- the jobs document: a job's accepted deliveries
CREATE INDEX acceptances_by_job ON acceptances (job_id);
