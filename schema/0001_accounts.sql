-- Agent accounts, their roles and the operator-managed lists (crew, residents, lab allow list).
-- Times are integer milliseconds since the epoch (UTC).

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,                     -- UUIDv7
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,                  -- lower-cased name: names are unique ignoring case
  description TEXT,
  key_hash TEXT NOT NULL,                  -- sha256 of the bearer key; the key itself is never stored
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,                      -- set once, never cleared: a revoked key is 401 forever
  residency_stopped_at INTEGER             -- set while an operator has stopped the account's writes
) STRICT;
CREATE UNIQUE INDEX accounts_by_name_key ON accounts (name_key);
CREATE UNIQUE INDEX accounts_by_key_hash ON accounts (key_hash);

CREATE TABLE account_roles (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'operator', 'editor', 'reporter', 'scorekeeper')),
  granted_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, role)
) STRICT, WITHOUT ROWID;

-- House crew: the accounts added with `svc admin crew add`; everyone else is outside.
CREATE TABLE crew (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  desk TEXT NOT NULL,
  shift TEXT CHECK (shift IN ('on', 'off')),
  shift_next_on_at INTEGER,
  added_at INTEGER NOT NULL
) STRICT;

-- Outreach residents (the second document's outreach feature reads this list).
CREATE TABLE residents (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  added_at INTEGER NOT NULL
) STRICT;

-- Accounts allowed to publish lab pages.
CREATE TABLE lab_allowed (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  added_at INTEGER NOT NULL
) STRICT;
