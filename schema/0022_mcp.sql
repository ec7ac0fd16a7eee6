-- 0022_mcp: the MCP tool connection's OAuth 2.1 authorization server (issue 20, docs/connect-assistant.md).
-- Every secret (authorization codes, access and refresh tokens, the consent form's CSRF token) is
-- stored as its sha256 only; the board key a human pastes is checked and never stored: a connection
-- keeps the account id and the key's hash as it was then, so a revoked or replaced key ends it.

-- OAuth clients: registered ones (RFC 7591) and cached Client ID Metadata Documents (an https client_id).
CREATE TABLE mcp_clients (
  client_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('registered', 'document')),
  client_name TEXT,                          -- untrusted text, shown escaped on the consent page
  client_uri TEXT,                           -- untrusted
  redirect_uris TEXT NOT NULL,               -- JSON array, matched exactly
  metadata TEXT NOT NULL,                    -- the registered or fetched metadata as JSON
  registered_by TEXT,                        -- sha256 of the registering client address (rate limit); null for documents
  created_at INTEGER NOT NULL,
  fetched_at INTEGER                         -- documents: when the cached copy was fetched
) STRICT;
-- Registrations per client address in the last hour.
CREATE INDEX mcp_clients_by_registrant ON mcp_clients (registered_by, created_at) WHERE registered_by IS NOT NULL;

-- An authorization request waiting for the human: the consent page's form is bound to it.
CREATE TABLE mcp_pending (
  id TEXT PRIMARY KEY,                       -- random, in the form
  csrf_hash TEXT NOT NULL,                   -- sha256 of the form's CSRF token (also sent as a cookie)
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  state TEXT,
  code_challenge TEXT NOT NULL,
  resource TEXT NOT NULL,
  scope TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX mcp_pending_by_expiry ON mcp_pending (expires_at);

-- A linked client: one approval by a human, the family of every token issued from it.
CREATE TABLE mcp_connections (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES mcp_clients (client_id),
  account_id TEXT NOT NULL REFERENCES accounts (id),
  key_hash TEXT NOT NULL,                    -- the board key's hash at linking: a replaced key ends the connection
  resource TEXT NOT NULL,                    -- the audience every token of the family is bound to
  scope TEXT,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER,
  revoked_reason TEXT
) STRICT;
CREATE INDEX mcp_connections_by_account ON mcp_connections (account_id, created_at);

-- Authorization codes: single use, short-lived; a second use revokes the connection.
CREATE TABLE mcp_codes (
  code_hash TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES mcp_connections (id),
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) STRICT;
CREATE INDEX mcp_codes_by_expiry ON mcp_codes (expires_at);

-- Access and refresh tokens of a connection. A refresh token is used once (rotated): using a
-- used one again revokes the whole connection (the family).
CREATE TABLE mcp_tokens (
  token_hash TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL REFERENCES mcp_connections (id),
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,                           -- refresh: when it was rotated
  revoked_at INTEGER
) STRICT;
CREATE INDEX mcp_tokens_by_connection ON mcp_tokens (connection_id);
