// Prepared SQL for lab pages, their files, their takedowns and view counts.
import { type Db, perDatabase } from '../../db/open.ts';

export interface LabPageRow {
  id: string;
  seq: number;
  account_id: string;
  slug: string;
  title: string | null;
  version: string;
  files: string; // JSON [{path, bytes}]
  file_count: number;
  total_bytes: number;
  created_at: number;
  updated_at: number;
}

const COLS = 'rowid AS seq, id, account_id, slug, title, version, files, file_count, total_bytes, created_at, updated_at';

function build(db: Db) {
  return {
    isAllowed: db.query<{ one: number }, [string]>('SELECT 1 AS one FROM lab_allowed WHERE account_id = ?'),
    byOwnerSlug: db.query<LabPageRow, [string, string]>(`SELECT ${COLS} FROM lab_pages WHERE account_id = ? AND slug = ?`),
    byId: db.query<LabPageRow, [string]>(`SELECT ${COLS} FROM lab_pages WHERE id = ?`),
    ofOwner: db.query<LabPageRow, [string]>(`SELECT ${COLS} FROM lab_pages WHERE account_id = ? ORDER BY updated_at DESC, slug`),
    countOfOwner: db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM lab_pages WHERE account_id = ?'),
    // Public serving: the owner's account must be live (not revoked) for its pages to show.
    liveByNameSlug: db.query<LabPageRow & { name: string }, [string, string]>(
      `SELECT p.rowid AS seq, p.id, p.account_id, p.slug, p.title, p.version, p.files, p.file_count, p.total_bytes, p.created_at, p.updated_at, a.name
       FROM lab_pages p JOIN accounts a ON a.id = p.account_id
       WHERE a.name_key = ? AND p.slug = ? AND a.revoked_at IS NULL`,
    ),
    insert: db.query<void, [string, string, string, string | null, string, string, number, number, number, number]>(
      `INSERT INTO lab_pages (id, account_id, slug, title, version, files, file_count, total_bytes, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    update: db.query<void, [string | null, string, string, number, number, number, string]>(
      'UPDATE lab_pages SET title = ?, version = ?, files = ?, file_count = ?, total_bytes = ?, updated_at = ? WHERE id = ?',
    ),
    remove: db.query<void, [string]>('DELETE FROM lab_pages WHERE id = ?'),
    // A site's files (schema/0025_lab_site_files.sql): only the live version keeps rows.
    siteFile: db.query<{ bytes: Uint8Array<ArrayBuffer> }, [string, string, string]>(
      'SELECT bytes FROM lab_site_files WHERE page_id = ? AND version = ? AND path = ?',
    ),
    insertFile: db.query<void, [string, string, string, Uint8Array]>('INSERT INTO lab_site_files (page_id, version, path, bytes) VALUES (?, ?, ?, ?)'),
    removeOtherVersions: db.query<void, [string, string]>('DELETE FROM lab_site_files WHERE page_id = ? AND version <> ?'),
    // The same, sparing the versions (a JSON array) that other publishes of the page are staging.
    removeOtherVersionsExcept: db.query<void, [string, string, string]>(
      'DELETE FROM lab_site_files WHERE page_id = ? AND version <> ? AND version NOT IN (SELECT value FROM json_each(?))',
    ),
    removeVersion: db.query<void, [string, string]>('DELETE FROM lab_site_files WHERE page_id = ? AND version = ?'),
    removeFiles: db.query<void, [string]>('DELETE FROM lab_site_files WHERE page_id = ?'),
    takedown: db.query<{ taken_down_at: number }, [string, string]>('SELECT taken_down_at FROM lab_takedowns WHERE account_id = ? AND slug = ?'),
    addTakedown: db.query<void, [string, string, number]>('INSERT OR IGNORE INTO lab_takedowns (account_id, slug, taken_down_at) VALUES (?, ?, ?)'),
    takedownByName: db.query<{ taken_down_at: number }, [string, string]>(
      'SELECT t.taken_down_at FROM lab_takedowns t JOIN accounts a ON a.id = t.account_id WHERE a.name_key = ? AND t.slug = ?',
    ),
    hit: db.query<void, [string, number, number]>(
      `INSERT INTO lab_page_hits (page_id, hour, views, visitors) VALUES (?, ?, 1, ?)
       ON CONFLICT (page_id, hour) DO UPDATE SET views = views + 1, visitors = visitors + excluded.visitors`,
    ),
    totals: db.query<{ views_total: number; views_24h: number; visitors_24h: number }, [number, number, string]>(
      `SELECT coalesce(sum(views), 0) AS views_total,
              coalesce(sum(CASE WHEN hour > ? THEN views END), 0) AS views_24h,
              coalesce(sum(CASE WHEN hour > ? THEN visitors END), 0) AS visitors_24h
       FROM lab_page_hits WHERE page_id = ?`,
    ),
  };
}

export const labStore = perDatabase(build);
