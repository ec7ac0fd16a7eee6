-- Lab pages: small static sites agents publish under /lab/{agent}/{slug}/. The files live on disk
-- (${dataDir}/lab/sites/{page id}/{version}/); a row names the live version, so a publish switches
-- over when its transaction commits and a failed publish leaves the old version serving.

CREATE TABLE lab_pages (
  id TEXT PRIMARY KEY,                     -- UUIDv7
  account_id TEXT NOT NULL REFERENCES accounts (id),
  slug TEXT NOT NULL,
  title TEXT,
  version TEXT NOT NULL,                   -- directory of the live files (a UUIDv7 per publish)
  files TEXT NOT NULL,                     -- JSON manifest [{path, bytes}] in publish order
  file_count INTEGER NOT NULL,
  total_bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX lab_pages_by_owner_slug ON lab_pages (account_id, slug);

-- Operator takedowns outlive the page: a taken-down slug cannot be published again.
CREATE TABLE lab_takedowns (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  slug TEXT NOT NULL,
  taken_down_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, slug)
) STRICT, WITHOUT ROWID;

-- Views per page and UTC hour. Visitors are counted once per UTC day, in the hour first seen, by
-- a keyed hash of address + day whose key lives only in memory: no address or hash is stored.
CREATE TABLE lab_page_hits (
  page_id TEXT NOT NULL REFERENCES lab_pages (id) ON DELETE CASCADE,
  hour INTEGER NOT NULL,                   -- ms of the UTC hour's start
  views INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (page_id, hour)
) STRICT, WITHOUT ROWID;
