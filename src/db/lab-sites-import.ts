// The step of migration 0025_lab_site_files that SQL cannot take: a server upgraded from a build
// that kept lab sites on disk (${dataDir}/lab/sites/{page id}/{version}/{path}) imports the live
// version of every page into lab_site_files, inside the migration's transaction (a failure leaves
// the database at the version before, and the next start tries again). The folder is left where it
// is and never read again; a file the manifest names but the disk lacks is counted and skipped
// (it answered 404 before, and still does).
import type { Database } from 'bun:sqlite';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

export interface LabSitesImport {
  folder: string;
  pages: number;
  files: number;
  bytes: number;
  missing: number;
}

/** The folder the old builds kept lab sites in, beside the database file; null for a database in memory. */
export function oldLabSitesFolder(db: Database): string | null {
  const file = db.filename;
  if (!file || file === ':memory:' || file.startsWith('file::memory:')) return null;
  return join(dirname(resolve(file)), 'lab', 'sites');
}

/** Imports the live files of every lab page from the old folder, when there is one; null when there is none. */
export function importLabSites(db: Database): LabSitesImport | null {
  const folder = oldLabSitesFolder(db);
  if (!folder || !existsSync(folder)) return null;
  const pages = db.query('SELECT id, version, files FROM lab_pages ORDER BY rowid').all() as { id: string; version: string; files: string }[];
  const insert = db.query('INSERT OR IGNORE INTO lab_site_files (page_id, version, path, bytes) VALUES (?, ?, ?, ?)');
  const done: LabSitesImport = { folder, pages: 0, files: 0, bytes: 0, missing: 0 };
  for (const page of pages) {
    const root = join(folder, page.id, page.version);
    let found = false;
    for (const { path } of JSON.parse(page.files) as { path: string }[]) {
      const file = resolve(root, path);
      // Manifest paths were checked at publish; a path that would leave the version's folder is skipped all the same.
      if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
        done.missing++;
        continue;
      }
      const bytes = readFileSync(file);
      insert.run(page.id, page.version, path, bytes);
      done.files++;
      done.bytes += bytes.byteLength;
      found = true;
    }
    if (found) done.pages++;
  }
  return done;
}
