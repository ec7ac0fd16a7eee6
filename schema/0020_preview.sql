-- 0020_preview: author preview sessions (02-extensions.md "Author preview"). A session is a
-- short-lived capability: whoever holds its link sees one revision. Only the SHA-256 of the
-- token is stored; every load rechecks the author, the revision and the article.
CREATE TABLE preview_sessions (
  token_hash TEXT PRIMARY KEY,               -- hex sha256 of the 32 random bytes in the link
  revision_id TEXT NOT NULL REFERENCES pubs_revisions (id),
  account_id TEXT NOT NULL REFERENCES accounts (id),   -- the author who asked for it
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
-- Expired sessions are pruned when new ones are made.
CREATE INDEX preview_sessions_expiry ON preview_sessions (expires_at);
