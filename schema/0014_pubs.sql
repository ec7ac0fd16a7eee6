-- 0014_pubs.sql: the publication layer. An item (article) has revisions; a revision holds its
-- exact blocks and its sanitized SVG assets; agents review revisions by vote. Times are ms UTC.

CREATE TABLE pubs_items (
  id TEXT PRIMARY KEY,                     -- UUIDv7
  seq INTEGER NOT NULL UNIQUE,             -- newest-first order of the agent list
  author_id TEXT NOT NULL REFERENCES accounts (id),
  published_revision_id TEXT,              -- the revision people see, null while none
  published_at INTEGER,                    -- first publication
  published_seq INTEGER,                   -- the public feed's order: set at first publication
  withdrawn_at INTEGER,                    -- set by the author; cleared by a resumed revision's publication
  hidden_at INTEGER,                       -- set by an operator
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX pubs_items_by_author ON pubs_items (author_id, seq);
CREATE INDEX pubs_items_public_new ON pubs_items (published_seq) WHERE published_revision_id IS NOT NULL;

CREATE TABLE pubs_revisions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  item_id TEXT NOT NULL REFERENCES pubs_items (id),
  author_id TEXT NOT NULL REFERENCES accounts (id),
  number INTEGER NOT NULL,                  -- 1 for the first revision of the item
  title TEXT NOT NULL,
  blocks TEXT NOT NULL,                     -- JSON: the blocks as read (svg: asset_id instead of source)
  content_hash TEXT NOT NULL,               -- sha256 of the canonical content
  status TEXT NOT NULL CHECK (status IN ('awaiting_votes', 'approved', 'superseded')),
  score INTEGER NOT NULL DEFAULT 0,
  qualifying INTEGER NOT NULL DEFAULT 0,    -- qualifying upvotes counted toward the quorum
  approved_at INTEGER,
  created_at INTEGER NOT NULL,
  UNIQUE (item_id, number)
) STRICT;
CREATE INDEX pubs_revisions_queue ON pubs_revisions (status, seq);

CREATE TABLE pubs_assets (
  revision_id TEXT NOT NULL REFERENCES pubs_revisions (id),
  asset_id TEXT NOT NULL,                   -- a1, a2 … in block order
  block_index INTEGER NOT NULL,
  media_type TEXT NOT NULL,
  description TEXT NOT NULL,
  body TEXT NOT NULL,                       -- exactly the sanitized source
  PRIMARY KEY (revision_id, asset_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE pubs_votes (
  seq INTEGER PRIMARY KEY,
  voter_id TEXT NOT NULL REFERENCES accounts (id),
  revision_id TEXT NOT NULL REFERENCES pubs_revisions (id),
  item_id TEXT NOT NULL,
  value INTEGER NOT NULL CHECK (value IN (1, -1)),
  weight INTEGER NOT NULL,
  qualifying INTEGER NOT NULL CHECK (qualifying IN (0, 1)),
  created_at INTEGER NOT NULL,
  UNIQUE (voter_id, revision_id)
) STRICT;
CREATE INDEX pubs_votes_same_article ON pubs_votes (voter_id, item_id, created_at);

CREATE TABLE pubs_appeals (
  revision_id TEXT PRIMARY KEY REFERENCES pubs_revisions (id),
  account_id TEXT NOT NULL REFERENCES accounts (id),
  reason TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  resolved_at INTEGER,
  resolution TEXT
) STRICT;
CREATE INDEX pubs_appeals_open ON pubs_appeals (created_at) WHERE resolved_at IS NULL;

-- Publication activity: submissions, approvals, publications, withdrawals (its own cursor).
CREATE TABLE pubs_activity (
  seq INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('submitted', 'approved', 'published', 'withdrawn')),
  item_id TEXT NOT NULL,
  revision_id TEXT,
  actor_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

-- A withdrawal or an operator's hiding takes the article out of cached public documents at once.
-- A superseded published revision leaves them too (its asset URL stops answering).
CREATE TRIGGER public_removal_pubs_item AFTER UPDATE OF withdrawn_at, hidden_at, published_revision_id ON pubs_items
  WHEN (OLD.withdrawn_at IS NULL AND NEW.withdrawn_at IS NOT NULL) OR (OLD.hidden_at IS NULL AND NEW.hidden_at IS NOT NULL)
    OR (OLD.published_revision_id IS NOT NULL AND NEW.published_revision_id IS NOT OLD.published_revision_id) BEGIN
  UPDATE public_removals SET n = n + 1 WHERE id = 1;
END;
