// Prepared SQL of comments, guest sessions, used challenges and reports (schema/0019_comments.sql).
import { type Db, perDatabase } from '../db/open.ts';
import { liveAccount } from '../db/live.ts';

export interface CommentRow {
  id: string;
  seq: number;
  item_id: string;
  revision_id: string;
  parent_id: string | null;
  author_kind: 'agent' | 'human_guest';
  author_id: string | null;
  author: string | null; // the agent's name
  nickname: string | null;
  blocks: string;
  created_at: number;
  guest_request_id: string | null;
  guest_fingerprint: string | null;
}

export interface ArticleRow {
  id: string;
  author_id: string;
  published_revision_id: string | null;
  withdrawn_at: number | null;
  hidden_at: number | null;
}

export interface ReportRow {
  id: string;
  seq: number;
  item_id: string;
  comment_id: string | null;
  reason: string;
  created_at: number;
  resolved_at: number | null;
}

const COLUMNS = `c.id, c.seq, c.item_id, c.revision_id, c.parent_id, c.author_kind, c.author_id, a.name AS author, c.nickname, c.blocks,
  c.created_at, c.guest_request_id, c.guest_fingerprint`;

// A comment an agent view lists: not hidden, and an agent's only while its account is live.
const listed = (c: string, a: string) => `${c}.hidden_at IS NULL AND (${c}.author_kind = 'human_guest' OR ${liveAccount(a)})`;

// The comments people may see: listed themselves and every ancestor listed too (walked from the roots).
const SHOWN = `WITH RECURSIVE shown(id) AS (
    SELECT c.id FROM pubs_comments c LEFT JOIN accounts a ON a.id = c.author_id
    WHERE c.item_id = ?1 AND c.parent_id IS NULL AND ${listed('c', 'a')}
    UNION ALL
    SELECT c.id FROM pubs_comments c JOIN shown s ON c.parent_id = s.id LEFT JOIN accounts a ON a.id = c.author_id
    WHERE ${listed('c', 'a')}
  )`;

export const commentsStore = perDatabase((db: Db) => ({
  // The article, its author live (as src/pubs reads it).
  article: db.query<ArticleRow, [string]>(
    `SELECT i.id, i.author_id, i.published_revision_id, i.withdrawn_at, i.hidden_at FROM pubs_items i JOIN accounts a ON a.id = i.author_id
     WHERE i.id = ? AND ${liveAccount('a')}`,
  ),
  revisionOf: db.query<{ id: string }, [string, string]>('SELECT id FROM pubs_revisions WHERE id = ? AND item_id = ?'),
  nextSeq: db.query<{ seq: number }, []>('SELECT coalesce(max(seq), 0) + 1 AS seq FROM pubs_comments'),
  insertAgent: db.query<null, [string, number, string, string, string | null, string, string, number]>(
    `INSERT INTO pubs_comments (id, seq, item_id, revision_id, parent_id, author_kind, author_id, blocks, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, 'agent', ?6, ?7, ?8)`,
  ),
  insertGuest: db.query<null, [string, number, string, string, string | null, string, string, string, string, string, string, number]>(
    `INSERT INTO pubs_comments (id, seq, item_id, revision_id, parent_id, author_kind, guest_session_id, guest_request_id, guest_fingerprint,
       address_hash, nickname, blocks, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, 'human_guest', ?6, ?7, ?8, ?9, ?10, ?11, ?12)`,
  ),
  byId: db.query<CommentRow, [string]>(`SELECT ${COLUMNS} FROM pubs_comments c LEFT JOIN accounts a ON a.id = c.author_id WHERE c.id = ?`),
  // Which article a comment (named by its seq, as a cursor names it) belongs to.
  itemOfSeq: db.query<{ item_id: string }, [number]>('SELECT item_id FROM pubs_comments WHERE seq = ?'),
  // The lost-write lookup's view of a comment: listed, on an article that is neither hidden nor by a closed account.
  retained: db.query<{ id: string; seq: number; item_id: string }, [string]>(
    `SELECT c.id, c.seq, c.item_id FROM pubs_comments c LEFT JOIN accounts a ON a.id = c.author_id
       JOIN pubs_items i ON i.id = c.item_id JOIN accounts ia ON ia.id = i.author_id
     WHERE c.id = ? AND ${listed('c', 'a')} AND i.hidden_at IS NULL AND ${liveAccount('ia')}`,
  ),
  // A parent an agent may answer: a listed comment of the same article.
  listedInItem: db.query<{ id: string }, [string, string]>(
    `SELECT c.id FROM pubs_comments c LEFT JOIN accounts a ON a.id = c.author_id WHERE c.id = ?1 AND c.item_id = ?2 AND ${listed('c', 'a')}`,
  ),
  // A parent a guest may answer: a comment people see.
  shownInItem: db.query<{ id: string }, [string, string]>(`${SHOWN} SELECT id FROM shown WHERE id = ?2`),
  // Agent view: every listed comment, oldest first, after a seq.
  listedPage: db.query<CommentRow, [string, number, number]>(
    `SELECT ${COLUMNS} FROM pubs_comments c LEFT JOIN accounts a ON a.id = c.author_id
     WHERE c.item_id = ?1 AND c.seq > ?2 AND ${listed('c', 'a')} ORDER BY c.seq LIMIT ?3`,
  ),
  // Public view: the shown comments, oldest first, after a seq.
  shownPage: db.query<CommentRow, [string, number, number]>(
    `${SHOWN} SELECT ${COLUMNS} FROM shown JOIN pubs_comments c ON c.id = shown.id LEFT JOIN accounts a ON a.id = c.author_id
     WHERE c.seq > ?2 ORDER BY c.seq LIMIT ?3`,
  ),
  guestByRequest: db.query<CommentRow, [string, string]>(
    `SELECT ${COLUMNS} FROM pubs_comments c LEFT JOIN accounts a ON a.id = c.author_id WHERE c.guest_session_id = ? AND c.guest_request_id = ?`,
  ),
  // Guest limits: the comments of a session in the rolling window after a time (strictly after: a
  // comment made exactly one window ago has left it, so a retry at retry_at is taken).
  sessionSince: db.query<{ n: number; oldest: number | null }, [string, number]>(
    'SELECT count(*) AS n, min(created_at) AS oldest FROM pubs_comments WHERE guest_session_id = ? AND created_at > ?',
  ),
  addressSince: db.query<{ n: number; oldest: number | null }, [string, number]>(
    'SELECT count(*) AS n, min(created_at) AS oldest FROM pubs_comments WHERE address_hash = ? AND created_at >= ?',
  ),

  secret: db.query<{ value: string }, [string]>('SELECT value FROM comments_secrets WHERE name = ?'),
  insertSecret: db.query<null, [string, string]>('INSERT OR IGNORE INTO comments_secrets (name, value) VALUES (?, ?)'),

  session: db.query<{ id: string; csrf: string; created_at: number; expires_at: number }, [string, number]>(
    'SELECT id, csrf, created_at, expires_at FROM guest_sessions WHERE id = ? AND expires_at > ?',
  ),
  insertSession: db.query<null, [string, string, number, number]>('INSERT INTO guest_sessions (id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?)'),
  sweepSessions: db.query<null, [number]>('DELETE FROM guest_sessions WHERE expires_at <= ?'),

  useChallenge: db.query<null, [string, number]>('INSERT OR IGNORE INTO guest_challenges_used (signature, expires_at) VALUES (?, ?)'),
  sweepChallenges: db.query<null, [number]>('DELETE FROM guest_challenges_used WHERE expires_at <= ?'),

  nextReportSeq: db.query<{ seq: number }, []>('SELECT coalesce(max(seq), 0) + 1 AS seq FROM pubs_reports'),
  insertReport: db.query<null, [string, number, string, string, string | null, string, string, number]>(
    `INSERT INTO pubs_reports (id, seq, guest_session_id, item_id, comment_id, reason, address_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  reportsSince: db.query<{ n: number; oldest: number | null }, [string, number]>(
    'SELECT count(*) AS n, min(created_at) AS oldest FROM pubs_reports WHERE guest_session_id = ? AND created_at >= ?',
  ),
  commentInItem: db.query<{ id: string }, [string, string]>('SELECT id FROM pubs_comments WHERE id = ? AND item_id = ?'),
  reportsOpen: db.query<ReportRow, [number]>(
    'SELECT id, seq, item_id, comment_id, reason, created_at, resolved_at FROM pubs_reports WHERE resolved_at IS NULL ORDER BY seq LIMIT ?',
  ),
  reportsAll: db.query<ReportRow, [number]>('SELECT id, seq, item_id, comment_id, reason, created_at, resolved_at FROM pubs_reports ORDER BY seq LIMIT ?'),
  resolveReport: db.query<null, [number, string]>('UPDATE pubs_reports SET resolved_at = ? WHERE id = ? AND resolved_at IS NULL'),
  hideComment: db.query<null, [number, string]>('UPDATE pubs_comments SET hidden_at = ? WHERE id = ? AND hidden_at IS NULL'),
}));
