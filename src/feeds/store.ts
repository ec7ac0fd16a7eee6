// Prepared SQL of the feeds and the sitemap: the newest published articles with their blocks (all,
// or one author's), and the published articles, live threads and live agents of one range of row
// ids (a sitemap part reads at most its range, however large the board).
import type { Database } from 'bun:sqlite';
import { liveAccount, liveAuthorOf, notDeleted } from '../db/live.ts';
import { perDatabase } from '../db/open.ts';

export interface FeedArticle {
  id: string;
  revision_id: string;
  title: string;
  blocks: string;
  author: string;
  published_at: number;
  updated_at: number;
  published_seq: number;
}

// What people may read (src/pubs/store.ts's rule): published, not withdrawn, not hidden, by a live account.
const PUBLIC = `i.published_revision_id IS NOT NULL AND i.withdrawn_at IS NULL AND i.hidden_at IS NULL AND ${liveAccount('a')}`;
const ARTICLE_COLS = `i.id, r.id AS revision_id, r.title, r.blocks, a.name AS author, i.published_at, coalesce(r.approved_at, i.published_at) AS updated_at, i.published_seq`;
const ARTICLE_FROM = 'pubs_items i JOIN accounts a ON a.id = i.author_id JOIN pubs_revisions r ON r.id = i.published_revision_id';

function build(db: Database) {
  return {
    // The public feed's order (pubs_items_public_new), newest first.
    newestArticles: db.query<FeedArticle, [number]>(`SELECT ${ARTICLE_COLS} FROM ${ARTICLE_FROM} WHERE ${PUBLIC} ORDER BY i.published_seq DESC LIMIT ?`),
    // One author's published articles, newest first (pubs_items_by_author: an author's items are few).
    authorArticles: db.query<FeedArticle, [string, number]>(
      `SELECT ${ARTICLE_COLS} FROM ${ARTICLE_FROM} WHERE i.author_id = ? AND ${PUBLIC} ORDER BY i.published_seq DESC LIMIT ?`,
    ),
    articleRowidMax: db.query<{ n: number | null }, []>('SELECT max(rowid) AS n FROM pubs_items'),
    accountRowidMax: db.query<{ n: number | null }, []>('SELECT max(rowid) AS n FROM accounts'),
    // NOT INDEXED: the rowid range itself; at a board's statistics SQLite preferred walking every
    // published article in pubs_items_public_new (test/db/query-plans.test.ts).
    articlesInRange: db.query<{ id: string; updated_at: number }, [number, number]>(
      `SELECT i.id, coalesce(r.approved_at, i.published_at) AS updated_at
       FROM pubs_items i NOT INDEXED JOIN accounts a ON a.id = i.author_id JOIN pubs_revisions r ON r.id = i.published_revision_id
       WHERE i.rowid BETWEEN ? AND ? AND ${PUBLIC} ORDER BY i.rowid`,
    ),
    threadRowidMax: db.query<{ n: number | null }, []>('SELECT max(seq) AS n FROM posts'),
    // Live roots of one range of posts.seq (the roots' partial index), with when the page last
    // changed: the root's writing or edit, or its newest live reply.
    threadsInRange: db.query<{ id: string; updated_at: number }, [number, number]>(
      `SELECT p.id, max(p.created_at, coalesce(p.edited_at, 0), coalesce((SELECT r.created_at FROM posts r INDEXED BY posts_thread_replies
         WHERE r.thread_id = p.id AND r.kind = 'reply' AND ${notDeleted('r')} ORDER BY r.seq DESC LIMIT 1), 0)) AS updated_at
       FROM posts p INDEXED BY posts_live_roots
       WHERE p.seq BETWEEN ? AND ? AND p.kind = 'post' AND ${notDeleted('p')} AND ${liveAuthorOf('p')} ORDER BY p.seq`,
    ),
    agentsInRange: db.query<{ name: string }, [number, number]>(
      `SELECT a.name FROM accounts a WHERE a.rowid BETWEEN ? AND ? AND ${liveAccount('a')} AND a.revoked_at IS NULL ORDER BY a.rowid`,
    ),
  };
}

export const feedsStore = perDatabase(build);
