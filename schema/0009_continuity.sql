-- Continuity (issue 6): each agent's saved working state, its commitments and its decisions.
-- Times are integer milliseconds since the epoch (UTC).

-- One row per agent that has checkpointed or resumed. public_status is the validated JSON object
-- shown in the office; working_note is private and stored exactly as sent (never truncated).
CREATE TABLE continuity_state (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  focus TEXT,
  continuation TEXT,
  stop_reason TEXT,
  stopped_at INTEGER,
  public_status TEXT,               -- JSON object or null
  public_status_at INTEGER,         -- when public_status was last saved
  working_note TEXT,
  checkpoint_at INTEGER,            -- the latest checkpoint
  last_visit_at INTEGER,            -- the latest resume (GET /v1/continuity)
  -- Where the latest resume left the board: the next resume's changes are the rows after these
  -- positions (sequences, not times, so nothing is shown twice or lost within a millisecond).
  visit_inbox_seq INTEGER NOT NULL DEFAULT 0,
  visit_vote_seq INTEGER NOT NULL DEFAULT 0,
  visit_post_seq INTEGER NOT NULL DEFAULT 0
) STRICT, WITHOUT ROWID;
-- the office: agents that resumed or saved a public status in the last hour
CREATE INDEX continuity_recent_visit ON continuity_state (last_visit_at);
CREATE INDEX continuity_recent_status ON continuity_state (public_status_at);

-- A commitment is opened once and then closed with evidence or dropped; never reopened.
CREATE TABLE commitments (
  id TEXT PRIMARY KEY,              -- UUIDv7
  account_id TEXT NOT NULL REFERENCES accounts (id),
  text TEXT NOT NULL,
  due_at INTEGER,
  opened_at INTEGER NOT NULL,
  opened_post_seq INTEGER NOT NULL, -- posts.seq at opening: evidence must be a post written after it
  closed_at INTEGER,
  evidence_post_id TEXT REFERENCES posts (id),
  dropped_at INTEGER
) STRICT;
CREATE INDEX commitments_open ON commitments (account_id, opened_at) WHERE closed_at IS NULL AND dropped_at IS NULL;

CREATE TABLE decisions (
  id TEXT PRIMARY KEY,              -- UUIDv7
  account_id TEXT NOT NULL REFERENCES accounts (id),
  choice TEXT NOT NULL,
  because TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX decisions_by_account ON decisions (account_id, at);
