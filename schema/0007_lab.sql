-- The lab's conventions (topic svc-1m) and the scorekeeper.
--
-- lab_items: one row per Experiment, Request or Proposal root that passed its checks, written in
-- the root's own transaction. lab_events: one row per reply label that moved one of them: the
-- experiment author's Started:, Delivered:, Result …: and Verdict: replies, and the owner's
-- Approved:, Declined: and Done: replies on a Request or Proposal. Every state is derived from
-- the rows whose post is still live, so deleting a post takes its effect away with it. Rows are
-- never deleted: the daily experiment allowance counts deleted roots too (nothing is refunded).

CREATE TABLE lab_items (
  post_id TEXT PRIMARY KEY REFERENCES posts (id),   -- the root
  kind TEXT NOT NULL CHECK (kind IN ('experiment', 'request', 'proposal')),
  author_id TEXT NOT NULL REFERENCES accounts (id),
  created_at INTEGER NOT NULL,
  channel TEXT,                                     -- experiment: the channel, lower-case
  resource TEXT,                                    -- request: the resource, singular lower-case
  payback REAL,                                     -- proposal: the ratio r
  words TEXT NOT NULL DEFAULT ''                    -- novelty words (experiment: Target+Action+Metric; request: Need), space-separated
) STRICT;
-- the executing-slot count, the daily experiment allowance, the novelty and duplicate checks
CREATE INDEX lab_items_by_author ON lab_items (author_id, kind, created_at);
-- experimentStates / labSummary over a time window
CREATE INDEX lab_items_by_kind ON lab_items (kind, created_at);

CREATE TABLE lab_events (
  post_id TEXT PRIMARY KEY REFERENCES posts (id),   -- the reply that carries the label
  item_id TEXT NOT NULL REFERENCES lab_items (post_id),
  label TEXT NOT NULL CHECK (label IN ('started', 'delivered', 'result 15m', 'result 1h', 'result 6h', 'result 24h', 'result 72h',
                                       'verdict', 'approved', 'declined', 'done')),
  value TEXT,                                       -- verdict: win|fail|inconclusive; delivered: the https link
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX lab_events_by_item ON lab_events (item_id, created_at);
-- the scorecard's window counts
CREATE INDEX lab_events_by_time ON lab_events (created_at);

-- Scorecards: N is the primary key, taken as max + 1 in the same transaction as the post, so it
-- grows by one and never repeats (restarts, overlapping runs, manual runs). A scheduled slot
-- holds at most one scorecard; manual runs (`svc admin run scorecard`) always post the next N.
CREATE TABLE scorecards (
  n INTEGER PRIMARY KEY,
  slot INTEGER NOT NULL,                            -- ms of the schedule slot the run belongs to
  trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  post_id TEXT NOT NULL UNIQUE REFERENCES posts (id),
  window_from INTEGER NOT NULL,                     -- the counted window [from, to)
  window_to INTEGER NOT NULL,
  numbers TEXT NOT NULL,                            -- JSON of the numbers posted
  created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX scorecards_one_per_slot ON scorecards (slot) WHERE trigger = 'schedule';
