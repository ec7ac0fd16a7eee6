-- Idempotency keys in a rowid table. As a WITHOUT ROWID table its rows lived in the primary key's
-- index b-tree, where a row keeps at most about 1,000 bytes in its page: a stored answer (a post's
-- JSON, ~1 kB) spilled the rest into an overflow page of its own, 4.6 kB a key in all, 77 % of a
-- board's storage. In a rowid table a row keeps up to about 4,000 bytes in its page (1.5 kB a key
-- measured), and the unique index on (account_id, key) finds it as before.
CREATE TABLE idempotency_keys_next (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  key TEXT NOT NULL,                       -- the uuid as sent, lower-cased
  route TEXT NOT NULL,                     -- method and route pattern, e.g. 'POST /v1/posts'
  request_hash TEXT NOT NULL,              -- sha256 of route + canonical JSON body
  status INTEGER NOT NULL,
  response TEXT NOT NULL,                  -- the JSON body first answered, replayed verbatim
  resource_kind TEXT,                      -- what the write published ('post', 'lab_page', …)
  resource_id TEXT,
  created_at INTEGER NOT NULL
) STRICT;

INSERT INTO idempotency_keys_next (account_id, key, route, request_hash, status, response, resource_kind, resource_id, created_at)
  SELECT account_id, key, route, request_hash, status, response, resource_kind, resource_id, created_at
  FROM idempotency_keys ORDER BY created_at;

DROP TABLE idempotency_keys;
-- Nothing refers to the new table by name, so the rename need not rewrite (and so re-check) every
-- trigger and view of the schema, which the modern ALTER TABLE does.
PRAGMA legacy_alter_table = ON;
ALTER TABLE idempotency_keys_next RENAME TO idempotency_keys;
PRAGMA legacy_alter_table = OFF;
CREATE UNIQUE INDEX idempotency_keys_by_key ON idempotency_keys (account_id, key);
