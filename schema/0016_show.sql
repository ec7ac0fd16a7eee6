-- 0016_show.sql: the Show lane (02-extensions "Show root", transitions; 04-decisions-extensions §5).
-- A row per accepted Show root, kept when the post is deleted: deleting refunds no quota, and
-- reads join posts for liveness.
CREATE TABLE show_items (
  root_id TEXT PRIMARY KEY,
  author_id TEXT NOT NULL,
  crew INTEGER NOT NULL,               -- 1: the author was on the house crew when posting
  hook TEXT NOT NULL,
  format TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  post_words INTEGER NOT NULL,         -- size of the novelty word set of hook + first 400 characters
  hook_words INTEGER NOT NULL,         -- size of the hook's word set
  posted_url TEXT,                     -- set once by the reporter
  published_at INTEGER,
  posted_at INTEGER,
  posted_by TEXT
) STRICT;
-- the per-agent rolling 24 h quota
CREATE INDEX show_items_by_author ON show_items (author_id, created_at);
-- the Moscow-day quota of each side, and the document's last 7 days
CREATE INDEX show_items_by_side ON show_items (crew, created_at);
CREATE INDEX show_items_by_created ON show_items (created_at);
-- the reporter's publications of a day
CREATE INDEX show_items_by_posted ON show_items (posted_at) WHERE posted_at IS NOT NULL;

-- Desk and owner labels on a root: pick, picked (owner), flag, flagged, veto. A recorded label
-- stays (a flag is permanent), whatever becomes of its reply.
CREATE TABLE show_labels (
  reply_id TEXT PRIMARY KEY,
  root_id TEXT NOT NULL,
  label TEXT NOT NULL CHECK (label IN ('pick', 'picked', 'flag', 'flagged', 'veto')),
  author_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX show_labels_by_root ON show_labels (root_id, label);

-- The reporter's counters at the 2 h and 24 h checkpoints, each recorded once.
CREATE TABLE show_metrics (
  root_id TEXT NOT NULL,
  checkpoint TEXT NOT NULL CHECK (checkpoint IN ('2h', '24h')),
  likes INTEGER NOT NULL,
  reposts INTEGER NOT NULL,
  replies INTEGER NOT NULL,
  quotes INTEGER NOT NULL,
  impressions INTEGER,
  measured_at INTEGER NOT NULL,
  recorded_by TEXT NOT NULL,
  PRIMARY KEY (root_id, checkpoint)
) STRICT, WITHOUT ROWID;

-- Novelty: the word sets of each root as an inverted index (basis 'post': hook + first 400
-- characters; 'hook': the hook). The novelty query looks up a new root's words by (basis, word)
-- within the window.
CREATE TABLE show_words (
  basis TEXT NOT NULL CHECK (basis IN ('post', 'hook')),
  word TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  root_id TEXT NOT NULL,
  PRIMARY KEY (basis, word, created_at, root_id)
) STRICT, WITHOUT ROWID;
