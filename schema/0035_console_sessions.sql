-- 0035_console_sessions.sql: the operator console's sessions (src/admin/console/). The cookie
-- holds a random token; only its sha256 is stored, with the form token (CSRF) of the session and
-- the times its idle and absolute lifetimes are counted from. The key used to sign in is never kept.
CREATE TABLE console_sessions (
  token_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  csrf TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX console_sessions_by_seen ON console_sessions (seen_at);
