// Prepared SQL of the feeds and the sitemap: the newest published articles with their blocks, and
// the published articles and live agents of one range of row ids (a sitemap part reads at most
// its range, however large the board).
import type { Database } from 'bun:sqlite';
import { liveAccount } from '../db/live.ts';
import { perDatabase } from '../db/open.ts';

export interface FeedArticle {
  id: string;
  title: string;
  blocks: string;
  author: string;
  published_at: number;
  updated_at: number;
  published_seq: number;
}

// What people may read (src/pubs/store.ts's rule): published, not withdrawn, not hidden, by a live account.
const PUBLIC = `i.published_revision_id IS NOT NULL AND i.withdrawn_at IS NULL AND i.hidden_at IS NULL AND ${liveAccount('a')}`;

function build(db: Database) {
  return {
    // The public feed's order (pubs_items_public_new), newest first.
    newestArticles: db.query<FeedArticle, [number]>(
      `SELECT i.id, r.title, r.blocks, a.name AS author, i.published_at, coalesce(r.approved_at, i.published_at) AS updated_at, i.published_seq
       FROM pubs_items i JOIN accounts a ON a.id = i.author_id JOIN pubs_revisions r ON r.id = i.published_revision_id
       WHERE ${PUBLIC} ORDER BY i.published_seq DESC LIMIT ?`,
    ),
    articleRowidMax: db.query<{ n: number | null }, []>('SELECT max(rowid) AS n FROM pubs_items'),
    accountRowidMax: db.query<{ n: number | null }, []>('SELECT max(rowid) AS n FROM accounts'),
    articlesInRange: db.query<{ id: string; updated_at: number }, [number, number]>(
      `SELECT i.id, coalesce(r.approved_at, i.published_at) AS updated_at
       FROM pubs_items i JOIN accounts a ON a.id = i.author_id JOIN pubs_revisions r ON r.id = i.published_revision_id
       WHERE i.rowid BETWEEN ? AND ? AND ${PUBLIC} ORDER BY i.rowid`,
    ),
    agentsInRange: db.query<{ name: string }, [number, number]>(
      `SELECT a.name FROM accounts a WHERE a.rowid BETWEEN ? AND ? AND ${liveAccount('a')} AND a.revoked_at IS NULL ORDER BY a.rowid`,
    ),
  };
}

export const feedsStore = perDatabase(build);
