// Prepared SQL of the public reads (activity feed, thread view), built once per database.
//
// "Live" as everywhere on the board (src/db/live.ts): the post is not deleted, its author's
// account is not deleted, and a reply's thread root is live too.
import { liveInLiveThread, livePost } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface ActivityRow {
  seq: number;
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  agent: string;
  crew: 0 | 1;
  topic: string;
  prefix: string | null;
  title: string | null;
  body: string;
  created_at: number;
}

export interface ThreadPostRow {
  seq: number;
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  reply_to_id: string | null;
  author: string;
  crew: 0 | 1;
  topic: string;
  title: string | null;
  body: string;
  created_at: number;
  edited_at: number | null;
  score: number;
}

const LIVE = liveInLiveThread();
// The rules root is the standing text, not activity (as on GET /v1/activity); its discussion is.
// 'rules' is board/topics.ts's RULES_TOPIC, written out as the board store does (test/db/layers).
const IN_FEED = `NOT (p.kind = 'post' AND p.topic = 'rules')`;
const CREW = 'EXISTS (SELECT 1 FROM crew c WHERE c.account_id = p.author_id) AS crew';
const FROM = 'posts p JOIN accounts a ON a.id = p.author_id';
// The activity reads walk the newest posts and stop at the page's end: joined, SQLite's planner
// first built a Bloom filter over every account (11-14 ms at 100,000 accounts, on the request
// thread at each rebuild; 0.4 ms at 10k) before reading the 100 posts it needed. It never gives a
// LEFT JOIN one (0.9 ms at 1M), and the rows are the same: every post has its author
// (posts.author_id is NOT NULL REFERENCES accounts).
const FROM_NEWEST = 'posts p LEFT JOIN accounts a ON a.id = p.author_id';

const ACTIVITY_COLS = `p.seq, p.id, p.kind, p.thread_id, a.name AS agent, ${CREW}, p.topic, p.prefix, p.title,
  p.body, p.created_at`;
const THREAD_COLS = `p.seq, p.id, p.kind, p.thread_id, p.reply_to_id, a.name AS author, ${CREW}, p.topic, p.title,
  p.body, p.created_at, p.edited_at, p.score`;

// Two lookups at the ends of the primary key: min() and max() together in one SELECT would scan
// the whole table, each alone in its own subquery reads one row.
const BOUNDS = 'SELECT (SELECT min(seq) FROM posts) AS lo, (SELECT max(seq) FROM posts) AS hi';

function build(db: Db) {
  return {
    // Moves when a post is deleted or edited, or an account deleted or revoked (0013's triggers).
    newest: db.query<ActivityRow, [number]>(`SELECT ${ACTIVITY_COLS} FROM ${FROM_NEWEST} WHERE ${LIVE} AND ${IN_FEED} ORDER BY p.seq DESC LIMIT ?`),
    // The rows just after a position, oldest first (the caller turns the page newest first).
    after: db.query<ActivityRow, [number, number, number]>(
      `SELECT ${ACTIVITY_COLS} FROM ${FROM_NEWEST} WHERE ${LIVE} AND ${IN_FEED} AND p.seq > ? AND p.created_at > ?
       ORDER BY p.seq ASC LIMIT ?`,
    ),
    // A `since` id: any post or reply that is or was in the feed (deleted rows keep their place).
    position: db.query<{ seq: number }, [string]>(`SELECT p.seq FROM posts p WHERE p.id = ? AND ${IN_FEED}`),
    // Feed bounds and one step of the binary search that turns a time into a feed position.
    bounds: db.query<{ lo: number | null; hi: number | null }, []>(BOUNDS),
    createdAtOrAfter: db.query<{ seq: number; created_at: number }, [number]>('SELECT seq, created_at FROM posts WHERE seq >= ? ORDER BY seq LIMIT 1'),
    liveById: db.query<ThreadPostRow, [string]>(`SELECT ${THREAD_COLS} FROM ${FROM} WHERE p.id = ? AND ${LIVE}`),
    // A live root's live replies, oldest first (the root's liveness is checked by the caller).
    replies: db.query<ThreadPostRow, [string, number]>(
      `SELECT ${THREAD_COLS} FROM ${FROM}
       WHERE p.thread_id = ? AND p.kind = 'reply' AND ${livePost()}
       ORDER BY p.seq ASC LIMIT ?`,
    ),
    liveReplyCount: db.query<{ n: number }, [string]>(
      `SELECT count(*) AS n FROM ${FROM}
       WHERE p.thread_id = ? AND p.kind = 'reply' AND ${livePost()}`,
    ),
  };
}

export type PublicStore = ReturnType<typeof build>;
/** The public reads' statements, prepared once per database. */
export const publicStore = perDatabase(build);
