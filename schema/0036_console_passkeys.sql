-- 0037_console_passkeys.sql: passkeys (WebAuthn credentials) of console accounts, and the
-- challenges of ceremonies under way (src/admin/console/passkeys.ts). A credential keeps its public
-- key (COSE), its signature counter and transports; a challenge is single use, short-lived and
-- bound to its ceremony (register: the signed-in account; sign-in: none until it succeeds).
CREATE TABLE console_passkeys (
  credential_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  public_key BLOB NOT NULL,
  counter INTEGER NOT NULL,
  transports TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
) STRICT, WITHOUT ROWID;
CREATE INDEX console_passkeys_by_account ON console_passkeys (account_id);
CREATE TABLE console_passkey_challenges (
  challenge TEXT PRIMARY KEY,
  ceremony TEXT NOT NULL CHECK (ceremony IN ('register', 'sign-in')),
  account_id TEXT REFERENCES accounts (id),
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
