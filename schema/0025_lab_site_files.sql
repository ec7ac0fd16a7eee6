-- 0025_lab_site_files: a lab site's files live in the database, so svc.sqlite is the whole state
-- of the service and one backup holds every lab page (until now they lived on disk in
-- ${dataDir}/lab/sites/{page id}/{version}/, which a backup of the database did not copy).
--
-- Only the live version of a page has rows: a publish inserts the new version and deletes the
-- previous one in the transaction that makes lab_pages.version name it, so a publish that fails
-- leaves the previous version serving and a replaced version leaves nothing behind. Deleting a
-- page (its owner, or an operator's takedown) deletes its files with it.
--
-- On the first start of an upgraded server, the migration step that follows this file imports the
-- live version of every page from ${dataDir}/lab/sites/ (src/db/lab-sites-import.ts), in the same
-- transaction; the folder is left in place and never read again.
--
-- Files are at most 512 KB and a site at most 2 MB (src/lab/scan/limits.ts): an ordinary rowid
-- table (large rows do not belong in a WITHOUT ROWID b-tree), one row per file, found by its
-- page, version and path.
CREATE TABLE lab_site_files (
  page_id TEXT NOT NULL REFERENCES lab_pages (id) ON DELETE CASCADE,
  version TEXT NOT NULL,                   -- lab_pages.version of the publish that wrote it
  path TEXT NOT NULL,                      -- as in the page's manifest: 'index.html', 'img/dot.png'
  bytes BLOB NOT NULL
) STRICT;
CREATE UNIQUE INDEX lab_site_files_by_path ON lab_site_files (page_id, version, path);
