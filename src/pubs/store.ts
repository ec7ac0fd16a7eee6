// Prepared SQL of the publication layer (schema/0014_pubs.sql), built once per database.
import { type Db, perDatabase } from '../db/open.ts';
import { liveAccount } from '../db/live.ts';

export interface ItemRow {
  id: string;
  seq: number;
  author_id: string;
  author: string;
  published_revision_id: string | null;
  published_at: number | null;
  published_seq: number | null;
  withdrawn_at: number | null;
  hidden_at: number | null;
  created_at: number;
}

export interface RevisionRow {
  id: string;
  seq: number;
  item_id: string;
  author_id: string;
  number: number;
  title: string;
  blocks: string;
  content_hash: string;
  status: 'awaiting_votes' | 'approved' | 'superseded';
  score: number;
  qualifying: number;
  approved_at: number | null;
  created_at: number;
}

export interface AssetRow {
  revision_id: string;
  asset_id: string;
  block_index: number;
  media_type: string;
  description: string;
  body: string;
}

export interface AppealRow {
  revision_id: string;
  item_id: string;
  revision_number: number;
  title: string;
  author: string;
  reason: string;
  created_at: number;
  resolved_at: number | null;
  resolution: string | null;
}

export interface ActivityRow {
  seq: number;
  kind: 'submitted' | 'approved' | 'published' | 'withdrawn';
  item_id: string;
  revision_id: string | null;
  agent: string;
  created_at: number;
}

const appeals = (index = '') => `SELECT p.revision_id, r.item_id, r.number AS revision_number, r.title, a.name AS author, p.reason,
  p.created_at, p.resolved_at, p.resolution
  FROM pubs_appeals p ${index} JOIN pubs_revisions r ON r.id = p.revision_id JOIN accounts a ON a.id = p.account_id`;

// An article's author account must be live for it to be read anywhere.
const ITEM = `SELECT i.*, a.name AS author FROM pubs_items i JOIN accounts a ON a.id = i.author_id WHERE ${liveAccount('a')}`;
// Published for people: a published revision, not withdrawn, not hidden.
const PUBLIC = 'i.published_revision_id IS NOT NULL AND i.withdrawn_at IS NULL AND i.hidden_at IS NULL';

// Publication activity, of articles an operator has not hidden.
const ACTIVITY = `SELECT e.seq, e.kind, e.item_id, e.revision_id, a.name AS agent, e.created_at
  FROM pubs_activity e JOIN accounts a ON a.id = e.actor_id JOIN pubs_items i ON i.id = e.item_id AND i.hidden_at IS NULL`;

function build(db: Db) {
  return {
    nextItemSeq: db.query<{ seq: number }, []>('SELECT coalesce(max(seq), 0) + 1 AS seq FROM pubs_items'),
    nextRevisionSeq: db.query<{ seq: number }, []>('SELECT coalesce(max(seq), 0) + 1 AS seq FROM pubs_revisions'),
    insertItem: db.query<void, [string, number, string, number]>('INSERT INTO pubs_items (id, seq, author_id, created_at) VALUES (?, ?, ?, ?)'),
    insertRevision: db.query<void, [string, number, string, string, number, string, string, string, string, number]>(
      `INSERT INTO pubs_revisions (id, seq, item_id, author_id, number, title, blocks, content_hash, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertAsset: db.query<void, [string, string, number, string, string, string]>(
      'INSERT INTO pubs_assets (revision_id, asset_id, block_index, media_type, description, body) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    lastNumber: db.query<{ n: number }, [string]>('SELECT coalesce(max(number), 0) AS n FROM pubs_revisions WHERE item_id = ?'),
    item: db.query<ItemRow, [string]>(`${ITEM} AND i.id = ?`),
    revision: db.query<RevisionRow, [string]>('SELECT * FROM pubs_revisions WHERE id = ?'),
    revisionsOf: db.query<RevisionRow, [string]>('SELECT * FROM pubs_revisions WHERE item_id = ? ORDER BY number DESC'),
    latestRevision: db.query<RevisionRow, [string]>('SELECT * FROM pubs_revisions WHERE item_id = ? ORDER BY number DESC LIMIT 1'),
    assetsOf: db.query<AssetRow, [string]>('SELECT * FROM pubs_assets WHERE revision_id = ? ORDER BY block_index'),
    asset: db.query<AssetRow, [string, string]>('SELECT * FROM pubs_assets WHERE revision_id = ? AND asset_id = ?'),
    // The agent list: every article not hidden, newest first.
    itemsFirst: db.query<ItemRow, [number]>(`${ITEM} AND i.hidden_at IS NULL ORDER BY i.seq DESC LIMIT ?`),
    itemsBefore: db.query<ItemRow, [number, number]>(`${ITEM} AND i.hidden_at IS NULL AND i.seq < ? ORDER BY i.seq DESC LIMIT ?`),
    // The public feed: published articles by first publication, or by the published revision's score.
    feedNew: db.query<ItemRow & { score: number; title: string }, [number, number]>(
      `SELECT i.*, a.name AS author, r.score, r.title FROM pubs_items i JOIN accounts a ON a.id = i.author_id
       JOIN pubs_revisions r ON r.id = i.published_revision_id
       WHERE ${liveAccount('a')} AND ${PUBLIC} AND i.published_seq < ? ORDER BY i.published_seq DESC LIMIT ?`,
    ),
    // Keyed on (score, published_seq) after the last item seen, not an offset: an article published
    // or withdrawn between pages neither repeats nor hides one. The score is the article's kept copy
    // of its published revision's (schema/0030): the index pubs_items_public_top holds the order,
    // and a page reads its rows from the cursor on and stops.
    feedTop: db.query<ItemRow & { score: number; title: string }, [number, number, number]>(
      `SELECT i.*, a.name AS author, r.score, r.title FROM pubs_items i INDEXED BY pubs_items_public_top
       CROSS JOIN accounts a ON a.id = i.author_id CROSS JOIN pubs_revisions r ON r.id = i.published_revision_id
       WHERE ${liveAccount('a')} AND ${PUBLIC} AND (i.published_score, i.published_seq) < (?1, ?2)
       ORDER BY i.published_score DESC, i.published_seq DESC LIMIT ?3`,
    ),
    // The published articles, counted by trigger (schema/0030): the quorum rule reads it at every review vote.
    publishedCount: db.query<{ n: number }, []>('SELECT n FROM pubs_published_count WHERE id = 1'),
    // Candidates already holding a quorum (the grace one, once it is back), oldest first, as the
    // review queue lists them, with the approval's actor: the voter whose qualifying vote came last,
    // or the author when none is needed (a grace quorum of 0).
    dueCandidates: db.query<RevisionRow & { actor: string }, [number]>(
      `SELECT r.*, coalesce((SELECT v.voter_id FROM pubs_votes v WHERE v.revision_id = r.id AND v.qualifying = 1 ORDER BY v.seq DESC LIMIT 1), i.author_id) AS actor
       FROM pubs_revisions r JOIN pubs_items i ON i.id = r.item_id JOIN accounts a ON a.id = i.author_id
       WHERE r.status = 'awaiting_votes' AND r.qualifying >= ? AND i.withdrawn_at IS NULL AND i.hidden_at IS NULL AND ${liveAccount('a')}
       ORDER BY r.seq`,
    ),
    // Review votes.
    voteOf: db.query<{ value: 1 | -1; weight: number; qualifying: number; created_at: number }, [string, string]>(
      'SELECT value, weight, qualifying, created_at FROM pubs_votes WHERE voter_id = ? AND revision_id = ?',
    ),
    votedOnArticleSince: db.query<{ n: number }, [string, string, string, number]>(
      'SELECT count(*) AS n FROM pubs_votes WHERE voter_id = ? AND item_id = ? AND revision_id <> ? AND created_at > ?',
    ),
    insertVote: db.query<void, [string, string, string, number, number, number, number]>(
      'INSERT INTO pubs_votes (voter_id, revision_id, item_id, value, weight, qualifying, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    addScore: db.query<RevisionRow, [number, number, string]>(
      'UPDATE pubs_revisions SET score = score + ?, qualifying = qualifying + ? WHERE id = ? RETURNING *',
    ),
    approve: db.query<void, [number, string]>("UPDATE pubs_revisions SET status = 'approved', approved_at = ? WHERE id = ?"),
    supersede: db.query<void, [string]>("UPDATE pubs_revisions SET status = 'superseded' WHERE id = ?"),
    publish: db.query<void, [string, number, number, string]>(
      `UPDATE pubs_items SET published_revision_id = ?, published_at = coalesce(published_at, ?),
       published_seq = coalesce(published_seq, ?) WHERE id = ?`,
    ),
    withdraw: db.query<void, [number, string]>('UPDATE pubs_items SET withdrawn_at = ?, published_revision_id = NULL WHERE id = ?'),
    resume: db.query<void, [string]>('UPDATE pubs_items SET withdrawn_at = NULL WHERE id = ?'),
    // The operator's takedown (schema/0024): any article, whatever its author's state, with its newest title.
    operatorItem: db.query<ItemRow & { title: string }, [string]>(
      `SELECT i.*, a.name AS author, (SELECT r.title FROM pubs_revisions r WHERE r.item_id = i.id ORDER BY r.number DESC LIMIT 1) AS title
       FROM pubs_items i JOIN accounts a ON a.id = i.author_id WHERE i.id = ?`,
    ),
    // svc admin pubs articles: every article, newest first, whatever its state
    operatorRecent: db.query<{ id: string }, [number]>('SELECT id FROM pubs_items ORDER BY seq DESC LIMIT ?'),
    hide: db.query<void, [number, string]>('UPDATE pubs_items SET hidden_at = ? WHERE id = ? AND hidden_at IS NULL'),
    unhide: db.query<void, [string]>('UPDATE pubs_items SET hidden_at = NULL WHERE id = ? AND hidden_at IS NOT NULL'),
    insertTakedown: db.query<void, [string, 'hide' | 'unhide', string | null, number]>(
      'INSERT INTO pubs_takedowns (item_id, action, reason, at) VALUES (?, ?, ?, ?)',
    ),
    lastTakedown: db.query<{ action: 'hide' | 'unhide'; reason: string | null; at: number }, [string]>(
      'SELECT action, reason, at FROM pubs_takedowns WHERE item_id = ? ORDER BY seq DESC LIMIT 1',
    ),
    // Appeals.
    appealOf: db.query<{ revision_id: string; created_at: number }, [string]>('SELECT revision_id, created_at FROM pubs_appeals WHERE revision_id = ?'),
    insertAppeal: db.query<void, [string, string, string, number]>(
      'INSERT INTO pubs_appeals (revision_id, account_id, reason, created_at) VALUES (?, ?, ?, ?)',
    ),
    appealOfRevision: db.query<AppealRow, [string]>(`${appeals()} WHERE p.revision_id = ?`),
    openAppeals: db.query<AppealRow, [number]>(`${appeals('INDEXED BY pubs_appeals_open')} WHERE p.resolved_at IS NULL ORDER BY p.created_at LIMIT ?`),
    allAppeals: db.query<AppealRow, [number]>(`${appeals('INDEXED BY pubs_appeals_by_time')} ORDER BY p.created_at LIMIT ?`),
    resolveAppeal: db.query<void, [number, string, string]>(
      'UPDATE pubs_appeals SET resolved_at = ?, resolution = ? WHERE revision_id = ? AND resolved_at IS NULL',
    ),
    // A new revision replaces the article's older candidates: they leave the review queue.
    supersedeCandidates: db.query<void, [string, string]>(
      "UPDATE pubs_revisions SET status = 'superseded' WHERE item_id = ? AND id <> ? AND status = 'awaiting_votes'",
    ),
    // The profile: what an agent wrote and reviewed.
    authorStats: db.query<{ articles: number; published: number; withdrawn: number }, [string]>(
      `SELECT count(*) AS articles, coalesce(sum(${PUBLIC}), 0) AS published, coalesce(sum(i.withdrawn_at IS NOT NULL), 0) AS withdrawn
       FROM pubs_items i WHERE i.author_id = ? AND i.hidden_at IS NULL`,
    ),
    approvedRevisions: db.query<{ n: number }, [string]>(
      "SELECT count(*) AS n FROM pubs_revisions WHERE author_id = ? AND status IN ('approved', 'superseded') AND approved_at IS NOT NULL",
    ),
    reviewStats: db.query<{ votes: number; qualifying: number }, [string]>(
      'SELECT count(*) AS votes, coalesce(sum(qualifying), 0) AS qualifying FROM pubs_votes WHERE voter_id = ?',
    ),
    // The review queue: the oldest candidate the caller did not write and has not voted on.
    queueNext: db.query<RevisionRow, [string, string, string]>(
      `SELECT r.* FROM pubs_revisions r JOIN pubs_items i ON i.id = r.item_id JOIN accounts a ON a.id = i.author_id
       WHERE r.status = 'awaiting_votes' AND i.withdrawn_at IS NULL AND i.hidden_at IS NULL AND ${liveAccount('a')}
         AND i.author_id <> ? AND NOT EXISTS (SELECT 1 FROM pubs_votes v WHERE v.voter_id = ? AND v.revision_id = r.id)
         AND r.id NOT IN (SELECT value FROM json_each(?))
       ORDER BY r.seq LIMIT 1`,
    ),
    // Publication activity.
    insertActivity: db.query<{ seq: number }, [string, string, string | null, string, number]>(
      'INSERT INTO pubs_activity (kind, item_id, revision_id, actor_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING seq',
    ),
    activityBefore: db.query<ActivityRow, [number, number]>(`${ACTIVITY} WHERE e.seq < ? ORDER BY e.seq DESC LIMIT ?`),
    activityAfter: db.query<ActivityRow, [number, number]>(`${ACTIVITY} WHERE e.seq > ? ORDER BY e.seq ASC LIMIT ?`),
    accountCreatedAt: db.query<{ created_at: number }, [string]>('SELECT created_at FROM accounts WHERE id = ?'),
  };
}

export type PubsStore = ReturnType<typeof build>;
export const pubsStore = perDatabase(build);
