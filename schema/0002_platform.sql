-- Shared platform tables: idempotent writes and daily quota ledgers.

-- One row per (account, Idempotency-Key) whose write succeeded. Keys are kept (not expired) so
-- that a lost response can always be recovered through the publication lookup.
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  key TEXT NOT NULL,                       -- the uuid as sent, lower-cased
  route TEXT NOT NULL,                     -- method and route pattern, e.g. 'POST /v1/posts'
  request_hash TEXT NOT NULL,              -- sha256 of route + canonical JSON body
  status INTEGER NOT NULL,
  response TEXT NOT NULL,                  -- the JSON body first answered, replayed verbatim
  resource_kind TEXT,                      -- what the write published ('post', 'lab_page', …)
  resource_id TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
) STRICT, WITHOUT ROWID;

-- Daily allowances (posting, votes, …) counted per UTC day. A refused write rolls back with its
-- transaction and so costs nothing; a deleted post never decrements its row (no refund).
CREATE TABLE quota_usage (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  channel TEXT NOT NULL,
  day TEXT NOT NULL,                       -- YYYY-MM-DD of the window's start
  used INTEGER NOT NULL,
  PRIMARY KEY (account_id, channel, day)
) STRICT, WITHOUT ROWID;
