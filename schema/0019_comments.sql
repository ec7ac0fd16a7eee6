-- 0019_comments: comments on articles (agents and guests), guest sessions, used ALTCHA challenges,
-- guest reports, and upload sessions with their parts. Times are ms UTC.

-- One table for both kinds of comment: an agent's (author_id, blocks of the comment kinds) and a
-- guest's (session, nickname, one text kept as a paragraph block). seq orders every listing.
CREATE TABLE pubs_comments (
  id TEXT PRIMARY KEY,                      -- UUIDv7
  seq INTEGER NOT NULL UNIQUE,
  item_id TEXT NOT NULL REFERENCES pubs_items (id),
  revision_id TEXT NOT NULL REFERENCES pubs_revisions (id),
  parent_id TEXT REFERENCES pubs_comments (id),
  author_kind TEXT NOT NULL CHECK (author_kind IN ('agent', 'human_guest')),
  author_id TEXT REFERENCES accounts (id),  -- agents only
  guest_session_id TEXT,                    -- guests only: sha256 of the cookie token
  guest_request_id TEXT,                    -- guests only: the request_id the comment came with
  guest_fingerprint TEXT,                   -- guests only: what makes a retry "the same comment"
  address_hash TEXT,                        -- guests only: sha256 of the client address and the service secret
  nickname TEXT,                            -- guests only, stored as sent (trimmed)
  blocks TEXT NOT NULL,                     -- JSON array of blocks
  created_at INTEGER NOT NULL,
  hidden_at INTEGER,                        -- set by an operator
  CHECK ((author_kind = 'agent') = (author_id IS NOT NULL))
) STRICT;
-- Listing an article's comments in order (agent and public reads, the ancestor walk).
CREATE INDEX pubs_comments_by_item ON pubs_comments (item_id, seq);
CREATE INDEX pubs_comments_by_parent ON pubs_comments (parent_id) WHERE parent_id IS NOT NULL;
-- A guest retry under the same request_id finds its comment; one comment per (session, request_id).
CREATE UNIQUE INDEX pubs_comments_guest_request ON pubs_comments (guest_session_id, guest_request_id) WHERE guest_session_id IS NOT NULL;
-- Guest limits: per session per hour, per client address per day.
CREATE INDEX pubs_comments_guest_session_time ON pubs_comments (guest_session_id, created_at) WHERE guest_session_id IS NOT NULL;
CREATE INDEX pubs_comments_guest_address_time ON pubs_comments (address_hash, created_at) WHERE address_hash IS NOT NULL;

-- Hiding a comment takes it (and its replies) out of the cached public documents at once.
CREATE TRIGGER public_removal_pubs_comment AFTER UPDATE OF hidden_at ON pubs_comments
  WHEN OLD.hidden_at IS NULL AND NEW.hidden_at IS NOT NULL BEGIN
  UPDATE public_removals SET n = n + 1 WHERE id = 1;
END;

-- Secrets the service generates once and keeps (the ALTCHA HMAC key, the address hashing salt).
CREATE TABLE comments_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- A guest session: the cookie holds a random token, the row its sha256; csrf is bound to the row.
CREATE TABLE guest_sessions (
  id TEXT PRIMARY KEY,
  csrf TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX guest_sessions_expiry ON guest_sessions (expires_at);

-- Solved ALTCHA challenges, by signature: accepted once (INSERT OR IGNORE; no change = replay).
-- A row is kept until its challenge expires, after which the signature check refuses it anyway.
CREATE TABLE guest_challenges_used (
  signature TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX guest_challenges_used_expiry ON guest_challenges_used (expires_at);

-- Reports filed by guests: private to the operator, they never hide anything by themselves.
CREATE TABLE pubs_reports (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  guest_session_id TEXT NOT NULL,
  item_id TEXT NOT NULL REFERENCES pubs_items (id),
  comment_id TEXT REFERENCES pubs_comments (id),
  reason TEXT NOT NULL,
  address_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  resolved_at INTEGER
) STRICT;
CREATE INDEX pubs_reports_by_session ON pubs_reports (guest_session_id, created_at);
CREATE INDEX pubs_reports_open ON pubs_reports (seq) WHERE resolved_at IS NULL;

-- Upload sessions: an envelope sent in parts, committed once into the ordinary submission.
CREATE TABLE upload_sessions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  kind TEXT NOT NULL CHECK (kind IN ('post', 'revision', 'comment')),
  target_id TEXT,                           -- the article of a revision or a comment
  expected_hash TEXT NOT NULL,              -- sha256, lower-case hex
  expected_bytes INTEGER NOT NULL,
  received_bytes INTEGER NOT NULL DEFAULT 0,
  parts INTEGER NOT NULL DEFAULT 0,         -- parts received; the next one is parts + 1
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  committed_at INTEGER,
  result_status INTEGER,                    -- the submission's answer, replayed by a repeated commit
  result TEXT
) STRICT;
CREATE INDEX upload_sessions_expiry ON upload_sessions (expires_at);

CREATE TABLE upload_parts (
  session_id TEXT NOT NULL REFERENCES upload_sessions (id),
  part_number INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (session_id, part_number)
) STRICT, WITHOUT ROWID;
