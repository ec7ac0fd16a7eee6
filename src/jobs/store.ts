// Prepared SQL of the jobs document, of the open jobs other domains read (open.ts) and of
// acceptances, built once per database.
//
// "Live" as everywhere on the board (src/db/live.ts): the post is not deleted and its author's
// account is not deleted (a root's replies are read only for a live root, and deleting a root
// deletes them).
import { livePost, liveRoot } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface JobRootRow {
  seq: number;
  id: string;
  author_id: string;
  author: string;
  crew: 0 | 1;
  owner: 0 | 1; // the author holds the owner role
  title: string | null;
  body: string;
  prefix: string | null;
  created_at: number;
}

export interface LabelledReplyRow {
  seq: number;
  id: string;
  thread_id: string;
  reply_to_id: string | null;
  author_id: string;
  agent: string;
  crew: 0 | 1;
  body: string;
  prefix: string | null;
  created_at: number;
}

export interface AcceptanceRow {
  delivery_id: string;
  accepted_at: number;
}

const FLAGS = `EXISTS (SELECT 1 FROM crew c WHERE c.account_id = p.author_id) AS crew,
  EXISTS (SELECT 1 FROM account_roles r WHERE r.account_id = p.author_id AND r.role = 'owner') AS owner`;
const ROOT_COLS = `p.seq, p.id, p.author_id, a.name AS author, ${FLAGS}, p.title, p.body, p.prefix, p.created_at`;
const LIVE_ROOT = liveRoot();

// Only replies whose first text could be a job label or a verdict are read: the SQL narrows by
// the start of the body (LIKE is case-insensitive for ASCII), labels.ts decides exactly.
const LEAD = `ltrim(p.body, ' ' || char(9, 10, 13))`;
/** A reply that may carry a job label (SQL over `p`): the jobs document's and the open jobs' statements below, and the partial index posts_labelled_replies (schema/0031), say it the same way. */
export const MAYBE_LABELLED = `(${['taking', 'delivered', 'accepted', 'done', 'closed', 'declined', 'verdict'].map((l) => `${LEAD} LIKE '${l}%'`).join(' OR ')})`;

// Two lookups at the ends of the primary key: min() and max() together in one SELECT would scan
// the whole table, each alone in its own subquery reads one row.
const BOUNDS = 'SELECT (SELECT min(seq) FROM posts) AS lo, (SELECT max(seq) FROM posts) AS hi';

function build(db: Db) {
  return {
    // The feed bounds and one step of the binary search that finds where the window starts.
    bounds: db.query<{ lo: number | null; hi: number | null }, []>(BOUNDS),
    createdAtOrAfter: db.query<{ seq: number; created_at: number }, [number]>('SELECT seq, created_at FROM posts WHERE seq >= ? ORDER BY seq LIMIT 1'),
    // Live roots of a topic in [from, before) of the feed, newest first, a chunk of `limit` at a
    // time (posts_live_roots_by_topic).
    rootsSince: db.query<JobRootRow, [string, number, number, number]>(
      `SELECT ${ROOT_COLS} FROM posts p INDEXED BY posts_live_roots_by_topic JOIN accounts a ON a.id = p.author_id
       WHERE ${LIVE_ROOT} AND p.topic = ? AND p.seq >= ? AND p.seq < ? ORDER BY p.seq DESC LIMIT ?`,
    ),
    // Where a root of the topic sits in the feed (deleted or not: a cursor never breaks).
    rootSeq: db.query<{ seq: number }, [string, string]>(`SELECT seq FROM posts WHERE id = ? AND kind = 'post' AND topic = ?`),
    liveRoot: db.query<JobRootRow & { topic: string }, [string]>(
      `SELECT ${ROOT_COLS}, p.topic FROM posts p JOIN accounts a ON a.id = p.author_id WHERE p.id = ? AND ${LIVE_ROOT}`,
    ),
    // A thread's live replies that may carry a label, oldest first (posts_thread_replies).
    labelledReplies: db.query<LabelledReplyRow, [string]>(
      `SELECT p.seq, p.id, p.thread_id, p.reply_to_id, p.author_id, a.name AS agent,
         EXISTS (SELECT 1 FROM crew c WHERE c.account_id = p.author_id) AS crew, p.body, p.prefix, p.created_at
       FROM posts p JOIN accounts a ON a.id = p.author_id
       WHERE p.thread_id = ? AND p.kind = 'reply' AND ${livePost()} AND ${MAYBE_LABELLED}
       ORDER BY p.seq ASC`,
    ),
    // The open jobs as resume lists them (open.ts). A job is a crew member's Request or Experiment or any
    // owner's root in the lab topic, so only those few authors' lab posts are read, each author's
    // newest first until the 14-day window is passed (never the whole topic: a busy lab has tens of
    // thousands of roots in a fortnight); then in one more statement the labelled replies of them all.
    // Moves with everything the open jobs are made of (migration 0032): a list made from them holds until it does.
    jobsChanges: db.query<{ n: number }, []>('SELECT n FROM jobs_changes WHERE id = 1'),
    jobAuthors: db.query<{ id: string }, []>(`SELECT account_id AS id FROM crew UNION SELECT account_id FROM account_roles WHERE role = 'owner'`),
    labPostsOfAuthorNewestFirst: db.query<JobRootRow & { kind: string }, [string, string]>(
      `SELECT p.seq, p.id, p.kind, p.author_id, a.name AS author,
              EXISTS (SELECT 1 FROM crew c WHERE c.account_id = p.author_id) AS crew,
              EXISTS (SELECT 1 FROM account_roles r WHERE r.account_id = p.author_id AND r.role = 'owner') AS owner,
              p.title, p.body, p.prefix, p.created_at
         FROM posts p INDEXED BY posts_live_topics_by_author JOIN accounts a ON a.id = p.author_id
        WHERE p.author_id = ?1 AND p.topic = ?2 AND ${livePost()} ORDER BY p.seq DESC`,
    ),
    labelledRepliesOf: db.query<LabelledReplyRow & { owner: 0 | 1 }, [string]>(
      `SELECT p.seq, p.id, p.thread_id, p.reply_to_id, p.author_id, a.name AS agent,
              EXISTS (SELECT 1 FROM crew c WHERE c.account_id = p.author_id) AS crew,
              EXISTS (SELECT 1 FROM account_roles r WHERE r.account_id = p.author_id AND r.role = 'owner') AS owner,
              p.body, p.prefix, p.created_at
         FROM json_each(?) JOIN posts p INDEXED BY posts_labelled_replies ON p.thread_id = json_each.value AND p.kind = 'reply'
         JOIN accounts a ON a.id = p.author_id
        WHERE ${livePost()} AND ${MAYBE_LABELLED}
        ORDER BY p.seq`,
    ),
    isOwner: db.query<{ one: number }, [string]>(`SELECT 1 AS one FROM account_roles WHERE account_id = ? AND role = 'owner'`),
    acceptancesOfJob: db.query<AcceptanceRow, [string]>('SELECT delivery_id, accepted_at FROM acceptances WHERE job_id = ?'),
    // OR IGNORE: a delivery is accepted once; changes = 0 tells the caller it already was.
    insertAcceptance: db.query<void, [string, string, string, string, string, number]>(
      `INSERT OR IGNORE INTO acceptances (delivery_id, job_id, author_id, reply_id, rule, accepted_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    // The deliveries a reply credited, with who hears of it (board/events.ts, after commit). The
    // CROSS JOIN keeps acceptances first (by reply), then each delivery by key: fresh statistics
    // (a new board's tiny tables) can never turn it into a walk of posts.
    creditedBy: db.query<{ delivery_id: string; thread_id: string; author_id: string; accepter_id: string }, [string]>(
      `SELECT a.delivery_id, d.thread_id, d.author_id, a.author_id AS accepter_id
         FROM acceptances a CROSS JOIN posts d ON d.id = a.delivery_id WHERE a.reply_id = ?`,
    ),
  };
}

export type JobsStore = ReturnType<typeof build>;
/** The jobs statements, prepared once per database. */
export const jobsStore = perDatabase(build);

/**
 * The first feed position written at or after `ms` (max seq + 1 when none): a binary search over
 * the feed's order, since posts are stamped with the time they were written. About twenty
 * primary-key lookups, so the 14-day window needs no time index of its own.
 */
export function firstSeqAtOrAfter(s: JobsStore, ms: number): number {
  const { lo, hi } = s.bounds.get()!;
  if (lo === null || hi === null) return 0;
  let low = lo;
  let high = hi + 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const row = s.createdAtOrAfter.get(mid)!; // mid <= hi, so a row exists
    if (row.created_at >= ms) high = mid;
    else low = row.seq + 1;
  }
  return low;
}
