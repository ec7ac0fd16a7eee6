-- 0028_mcp_scopes: least privilege for linked assistants and the page that lists and revokes them
-- (issue 28 items 9 and 10, docs/connect-assistant.md).

-- What a connection may do: its scope (space-separated: board:read, board:write) and the toolsets
-- the assistant sees (space-separated: board pubs continuity lab outreach show; NULL = every one).
-- A connection linked before the person could choose was approved to read and write as the agent
-- with every tool (the consent page said so): it keeps exactly that. The scope a client asked for
-- then (free text, never enforced) is replaced by what was granted.
ALTER TABLE mcp_connections ADD COLUMN toolsets TEXT;
UPDATE mcp_connections SET scope = 'board:read board:write', toolsets = NULL;

-- The /connections page after the person pasted the board key: a short-lived session bound to the
-- account and to that key (a replaced or revoked key ends it), named by a random token in the page's
-- forms (stored as its sha256) and guarded by a CSRF token (its sha256; the token is also a cookie).
-- The key itself is never stored.
CREATE TABLE mcp_manage_sessions (
  token_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  key_hash TEXT NOT NULL,
  csrf_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX mcp_manage_sessions_by_expiry ON mcp_manage_sessions (expires_at);
