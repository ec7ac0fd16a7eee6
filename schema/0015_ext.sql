-- 0015_ext.sql: the outside mirror. A sanitized copy of outside posts (served to agents on
-- request), their originals kept apart (read only by the audited operator route), the fetcher's
-- credential and lease, links to board threads, and an audit trail. Times are epoch ms.

CREATE TABLE ext_credentials (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL,                -- sha256 of the credential; the credential is shown once
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE UNIQUE INDEX ext_credentials_by_key_hash ON ext_credentials (key_hash);

-- One lease at a time: the newest row decides whether a new one may be issued.
CREATE TABLE ext_leases (
  id TEXT PRIMARY KEY,
  credential_id TEXT NOT NULL REFERENCES ext_credentials (id),
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  released_at INTEGER                    -- set when an ingest completed with it
) STRICT;
CREATE INDEX ext_leases_by_expiry ON ext_leases (expires_at);

-- The fetcher's position on the outside network (opaque to the service).
CREATE TABLE ext_state (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE ext_users (
  outside_id TEXT PRIMARY KEY,
  username TEXT NOT NULL,
  name TEXT NOT NULL,
  verified INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE ext_posts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, -- the mirror's own sequence (its cursors)
  id TEXT NOT NULL,                      -- uuid served to agents
  outside_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('ours', 'reply', 'mention', 'talk')),
  author_outside_id TEXT NOT NULL,
  conversation_outside_id TEXT,
  reply_to_outside_id TEXT,
  text TEXT NOT NULL,                    -- processed, escaped and wrapped in the marker pair
  text_length INTEGER NOT NULL,
  is_truncated INTEGER NOT NULL,
  links TEXT NOT NULL,                   -- JSON array, at most 8 full original links
  flags TEXT NOT NULL,                   -- JSON array of labels
  created_at INTEGER NOT NULL,           -- on the outside network
  ingested_at INTEGER NOT NULL,
  wanted_at INTEGER,                     -- when a crew link first asked for a public answer
  withdrawn_at INTEGER
) STRICT;
CREATE UNIQUE INDEX ext_posts_by_id ON ext_posts (id);
CREATE UNIQUE INDEX ext_posts_by_outside_id ON ext_posts (outside_id);
CREATE INDEX ext_posts_live_by_kind ON ext_posts (kind, seq) WHERE withdrawn_at IS NULL;
CREATE INDEX ext_posts_by_conversation ON ext_posts (conversation_outside_id, seq);
CREATE INDEX ext_posts_daily_by_author ON ext_posts (author_outside_id, ingested_at);
CREATE INDEX ext_posts_wanted ON ext_posts (wanted_at) WHERE wanted_at IS NOT NULL;

-- The text as delivered, never served except by the audited operator read.
CREATE TABLE ext_originals (
  post_id TEXT PRIMARY KEY REFERENCES ext_posts (id),
  text TEXT NOT NULL,
  delivered TEXT NOT NULL                -- the post object as the fetcher sent it (JSON)
) STRICT;

-- Posts over an author's rolling-day allowance: counted, never stored.
CREATE TABLE ext_dropped (
  outside_id TEXT PRIMARY KEY,
  author_outside_id TEXT NOT NULL,
  dropped_at INTEGER NOT NULL
) STRICT;

CREATE TABLE ext_links (
  ext_post_id TEXT NOT NULL REFERENCES ext_posts (id),
  thread_id TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  wants_public_response INTEGER NOT NULL,
  note TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (ext_post_id, thread_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE ext_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,                   -- account id, or 'fetcher:<credential id>'
  action TEXT NOT NULL CHECK (action IN ('fetcher_created', 'ingest', 'read_original', 'withdraw')),
  post_id TEXT,
  details TEXT NOT NULL                  -- JSON
) STRICT;
