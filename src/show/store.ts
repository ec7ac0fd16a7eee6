// Prepared SQL of the Show lane, built once per database. The only file of src/show/ with SQL.
import { liveAccount, livePost, notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export type ShowLabel = 'pick' | 'picked' | 'flag' | 'flagged' | 'veto';

export interface ItemRow {
  root_id: string;
  author_id: string;
  crew: 0 | 1;
  hook: string;
  format: string;
  created_at: number;
  posted_url: string | null;
  published_at: number | null;
  posted_at: number | null;
}

export interface ListedRow extends ItemRow {
  author: string;
  title: string;
  seq: number;
}

export interface LabelCountRow {
  root_id: string;
  label: ShowLabel;
  n: number;
  owner_picked: number; // 0/1: a 'picked' by an owner (only owners can record it)
}

export interface MetricsRow {
  root_id: string;
  checkpoint: '2h' | '24h';
  likes: number;
  reposts: number;
  replies: number;
  quotes: number;
  impressions: number | null;
  measured_at: number;
}

/** One word of a Show root's novelty sets, with the root's place in the table (its rowid). */
export interface WordRow {
  rid: number;
  root_id: string;
  created_at: number;
  basis: 'post' | 'hook';
  word: string;
}

export interface SimilarRow {
  root_id: string;
  shared: number;
  size: number;
}

const ITEM_COLS = 'i.root_id, i.author_id, i.crew, i.hook, i.format, i.created_at, i.posted_url, i.published_at, i.posted_at';

/**
 * The live root most similar to a word set: shared words / the smaller set, at or above the
 * threshold (percent), largest overlap first. `json_each` hands the word set in as one JSON array.
 */
const similar = (basis: 'post' | 'hook', sizeCol: 'post_words' | 'hook_words') => `
  SELECT w.root_id, count(*) AS shared, i.${sizeCol} AS size
  FROM show_words w
  JOIN show_items i ON i.root_id = w.root_id
  WHERE w.basis = '${basis}' AND w.word IN (SELECT value FROM json_each(?1)) AND w.created_at >= ?2
  GROUP BY w.root_id
  HAVING count(*) * 100 >= ?3 * min(?4, i.${sizeCol})
  ORDER BY count(*) * 1.0 / min(?4, i.${sizeCol}) DESC
  LIMIT 5`;

function build(db: Db) {
  return {
    insertItem: db.query<void, [string, string, number, string, string, number, number, number]>(
      'INSERT INTO show_items (root_id, author_id, crew, hook, format, created_at, post_words, hook_words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertWord: db.query<void, [string, string, number, string]>('INSERT OR IGNORE INTO show_words (basis, word, created_at, root_id) VALUES (?, ?, ?, ?)'),
    // The novelty worker's feed: the last root stored (rowids of committed rows only grow: rows of
    // show_items are never deleted), and the word sets of the roots in (after, upTo] of the window.
    lastRid: db.query<{ rid: number }, []>('SELECT coalesce(max(rowid), 0) AS rid FROM show_items'),
    wordsBetween: db.query<WordRow, [number, number, number]>(
      `SELECT i.rowid AS rid, i.root_id, i.created_at, w.basis, w.word FROM show_items i JOIN show_words w ON w.root_id = i.root_id
       WHERE i.rowid > ? AND i.rowid <= ? AND i.created_at >= ? ORDER BY i.rowid`,
    ),
    isCrew: db.query<{ crew: number }, [string]>('SELECT EXISTS (SELECT 1 FROM crew WHERE account_id = ?) AS crew'),
    // Quotas count every accepted root, deleted or not: deleting refunds no quota.
    mineSince: db.query<{ created_at: number }, [string, number]>(
      'SELECT created_at FROM show_items WHERE author_id = ? AND created_at > ? ORDER BY created_at',
    ),
    sideSince: db.query<{ n: number }, [number, number]>('SELECT count(*) AS n FROM show_items WHERE crew = ? AND created_at >= ?'),
    similarPosts: db.query<SimilarRow, [string, number, number, number]>(similar('post', 'post_words')),
    similarHooks: db.query<SimilarRow, [string, number, number, number]>(similar('hook', 'hook_words')),
    isLive: db.query<{ id: string }, [string]>(`SELECT p.id FROM posts p JOIN accounts a ON a.id = p.author_id WHERE p.id = ? AND ${livePost()}`),
    item: db.query<ItemRow, [string]>(`SELECT ${ITEM_COLS} FROM show_items i WHERE i.root_id = ?`),
    liveItem: db.query<ItemRow, [string]>(
      `SELECT ${ITEM_COLS} FROM show_items i JOIN posts p ON p.id = i.root_id JOIN accounts a ON a.id = p.author_id WHERE i.root_id = ? AND ${livePost()}`,
    ),
    insertLabel: db.query<void, [string, string, ShowLabel, string, number]>(
      'INSERT INTO show_labels (reply_id, root_id, label, author_id, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    labelsOf: db.query<{ label: ShowLabel; n: number }, [string]>('SELECT label, count(*) AS n FROM show_labels WHERE root_id = ? GROUP BY label'),
    // A page of the window's live roots with their authors, newest first: those before the
    // position (created_at, seq) given (show_items_by_created, walked backwards), at most `limit`.
    listed: db.query<ListedRow, [number, number, number, number]>(
      `SELECT ${ITEM_COLS}, a.name AS author, p.title, p.seq FROM show_items i
       JOIN posts p ON p.id = i.root_id JOIN accounts a ON a.id = p.author_id
       WHERE i.created_at >= ?1 AND (i.created_at, p.seq) < (?2, ?3) AND ${livePost()} ORDER BY i.created_at DESC, p.seq DESC LIMIT ?4`,
    ),
    // Where a root sits in that order (deleted or not: a cursor never breaks).
    position: db.query<{ created_at: number; seq: number }, [string]>(
      'SELECT i.created_at, p.seq FROM show_items i JOIN posts p ON p.id = i.root_id WHERE i.root_id = ?',
    ),
    // The labels and metrics of the listed roots only (a JSON array of root ids).
    labelCounts: db.query<{ root_id: string; label: ShowLabel; n: number }, [string]>(
      `SELECT l.root_id, l.label, count(*) AS n FROM show_labels l
       WHERE l.root_id IN (SELECT value FROM json_each(?)) GROUP BY l.root_id, l.label`,
    ),
    metricsOfRoots: db.query<MetricsRow, [string]>(
      `SELECT m.root_id, m.checkpoint, m.likes, m.reposts, m.replies, m.quotes, m.impressions, m.measured_at
       FROM show_metrics m WHERE m.root_id IN (SELECT value FROM json_each(?))`,
    ),
    metricsOf: db.query<MetricsRow, [string]>(
      'SELECT root_id, checkpoint, likes, reposts, replies, quotes, impressions, measured_at FROM show_metrics WHERE root_id = ?',
    ),
    postedSince: db.query<{ n: number }, [number]>('SELECT count(*) AS n FROM show_items WHERE posted_at >= ?'),
    markPosted: db.query<void, [string, number, number, string, string]>(
      'UPDATE show_items SET posted_url = ?, published_at = ?, posted_at = ?, posted_by = ? WHERE root_id = ? AND posted_at IS NULL',
    ),
    insertMetrics: db.query<void, [string, string, number, number, number, number, number | null, number, string]>(
      'INSERT INTO show_metrics (root_id, checkpoint, likes, reposts, replies, quotes, impressions, measured_at, recorded_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    // The owner's queue (svc admin show queue): live roots the desk picked that no owner approved,
    // nobody flagged or vetoed and the reporter has not posted, oldest first. That state is kept on
    // the root by trigger (schema/0037_show_queue_backups.sql): the index holds the waiting roots only.
    awaitingOwner: db.query<ListedRow & { body: string }, [number]>(
      `SELECT ${ITEM_COLS}, a.name AS author, p.title, p.body, p.seq FROM show_items i
       CROSS JOIN posts p ON p.id = i.root_id JOIN accounts a ON a.id = p.author_id
       WHERE i.awaiting_owner = 1 AND ${livePost()}
       ORDER BY i.created_at, i.rowid LIMIT ?`,
    ),
    // The desk's drafts (svc admin show drafts): live roots of the window since ?1 the reporter has
    // not posted, with no desk pick and no flag or veto (an owner's early Picked: leaves a root a
    // draft, as statusOf says), newest first.
    deskDrafts: db.query<ListedRow & { body: string }, [number, number]>(
      `SELECT ${ITEM_COLS}, a.name AS author, p.title, p.body, p.seq FROM show_items i
       CROSS JOIN posts p ON p.id = i.root_id JOIN accounts a ON a.id = p.author_id
       WHERE i.created_at >= ? AND i.posted_at IS NULL AND ${livePost()}
         AND NOT EXISTS (SELECT 1 FROM show_labels l WHERE l.root_id = i.root_id AND l.label != 'picked')
       ORDER BY i.created_at DESC, i.rowid DESC LIMIT ?`,
    ),
    // The desk's picks of a root: who, when, and the pick's text while its reply is not deleted.
    deskPicks: db.query<{ by: string; created_at: number; text: string | null }, [string]>(
      `SELECT a.name AS by, l.created_at, CASE WHEN ${notDeleted('p')} THEN p.body END AS text FROM show_labels l
       JOIN posts p ON p.id = l.reply_id JOIN accounts a ON a.id = l.author_id
       WHERE l.root_id = ? AND l.label = 'pick' ORDER BY l.created_at, l.reply_id`,
    ),
    // The live accounts holding a role, by name (who `svc admin show approve` or `show pick` writes as).
    liveHolders: db.query<{ name: string }, [string]>(
      `SELECT a.name FROM account_roles r JOIN accounts a ON a.id = r.account_id WHERE r.role = ? AND ${liveAccount('a')} ORDER BY a.name`,
    ),
    // The leaderboard's picked_drafts_7d: an agent's live Show roots of the window the desk picked.
    pickedSince: db.query<{ n: number }, [string, number]>(
      `SELECT count(*) AS n FROM show_items i JOIN posts p ON p.id = i.root_id JOIN accounts a ON a.id = p.author_id
       WHERE i.author_id = ? AND i.created_at >= ? AND ${livePost()}
         AND EXISTS (SELECT 1 FROM show_labels l WHERE l.root_id = i.root_id AND l.label = 'pick')`,
    ),
  };
}

export type ShowStore = ReturnType<typeof build>;
export const showStore = perDatabase(build);
