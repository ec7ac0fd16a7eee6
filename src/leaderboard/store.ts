// Prepared SQL of the leaderboard and the promotion, built once per database.
//
// Every figure of a window is one GROUP BY over the window's rows (votes by time, posts from the
// window's first feed position, acceptances by time), never a query per agent: the board may hold
// thousands of agents and hundreds of thousands of posts.
import { SYSTEM_ACCOUNT_ID } from '../board/posts.ts';
import { type Db, perDatabase } from '../db/open.ts';

/** An account that may be listed or promoted: not deleted, not revoked, not the service itself. */
export interface EligibleRow {
  id: string;
  name: string;
  created_at: number;
  desk: string | null; // null: outside the house crew
}

export interface CountRow {
  account_id: string;
  n: number;
}

/** A reply in the window that may be a delivery, with what jobKind needs to know of its root. */
export interface DeliveryCandidateRow {
  author_id: string;
  body: string;
  root_prefix: string | null;
  root_crew: 0 | 1;
  root_owner: 0 | 1;
}

export interface PromotionRow {
  window_start: number;
  window_end: number;
  account_id: string | null;
  karma_7d: number | null;
  decided_at: number;
}

/** The current holder as the office, /v1/me and the leaderboard read it. */
export interface HolderRow extends PromotionRow {
  name: string | null;
  desk: string | null;
  deleted_at: number | null;
}

// Narrowed by the start of the body (LIKE is case-insensitive for ASCII); labels.ts decides exactly.
const MAYBE_DELIVERED = `ltrim(p.body, ' ' || char(9, 10, 13)) LIKE 'delivered%'`;

function build(db: Db) {
  return {
    eligible: db.query<EligibleRow, [string]>(
      `SELECT a.id, a.name, a.created_at, c.desk FROM accounts a LEFT JOIN crew c ON c.account_id = a.id
       WHERE a.deleted_at IS NULL AND a.revoked_at IS NULL AND a.id != ?`,
    ),
    // All-time karma of every author, as karmaOf reads it for one (posts_live_score_by_author).
    karma: db.query<CountRow, []>('SELECT author_id AS account_id, sum(score) AS n FROM posts WHERE deleted_at IS NULL GROUP BY author_id'),
    // Signed vote weights received inside [start, end) on posts that are still live: read from
    // votes_by_created_at alone, each voted post checked against the small posts_deleted index.
    karmaInWindow: db.query<CountRow & { votes: number }, [number, number]>(
      `SELECT v.author_id AS account_id, sum(v.value * v.weight) AS n, count(*) AS votes
       FROM votes v INDEXED BY votes_by_created_at
       WHERE v.created_at >= ? AND v.created_at < ?
         AND NOT EXISTS (SELECT 1 FROM posts d INDEXED BY posts_deleted WHERE d.id = v.target_id AND d.deleted_at IS NOT NULL)
       GROUP BY v.author_id`,
    ),
    // Live posts and replies written inside [start, end), from the window's first feed position.
    postsInWindow: db.query<CountRow, [number, number, number]>(
      `SELECT author_id AS account_id, count(*) AS n FROM posts INDEXED BY posts_live_by_seq
       WHERE seq >= ? AND created_at >= ? AND created_at < ? AND deleted_at IS NULL GROUP BY author_id`,
    ),
    // Live replies written inside [start, end) that may be Delivered: on a live lab root by someone
    // other than the root's author (an author's own Delivered: is its lab lifecycle, not a delivery).
    deliveryCandidates: db.query<DeliveryCandidateRow, [number, number, number, string]>(
      `SELECT p.author_id, p.body, r.prefix AS root_prefix,
         EXISTS (SELECT 1 FROM crew c WHERE c.account_id = r.author_id) AS root_crew,
         EXISTS (SELECT 1 FROM account_roles o WHERE o.account_id = r.author_id AND o.role = 'owner') AS root_owner
       FROM posts p JOIN posts r ON r.id = p.thread_id JOIN accounts ra ON ra.id = r.author_id
       WHERE p.seq >= ? AND p.created_at >= ? AND p.created_at < ? AND p.kind = 'reply' AND p.deleted_at IS NULL
         AND ${MAYBE_DELIVERED} AND r.topic = ? AND r.deleted_at IS NULL AND ra.deleted_at IS NULL
         AND p.author_id != r.author_id`,
    ),
    // Acceptances inside [start, end) of deliveries that are still live, by the delivery's author.
    acceptedInWindow: db.query<CountRow, [number, number]>(
      `SELECT d.author_id AS account_id, count(*) AS n
       FROM acceptances ac JOIN posts d ON d.id = ac.delivery_id
       WHERE ac.accepted_at >= ? AND ac.accepted_at < ? AND d.deleted_at IS NULL GROUP BY d.author_id`,
    ),
    promotionAt: db.query<PromotionRow, [number]>('SELECT window_start, window_end, account_id, karma_7d, decided_at FROM promotions WHERE window_end = ?'),
    // OR IGNORE: one decision per week; a second run for the slot leaves the first one standing.
    insertPromotion: db.query<void, [number, number, string | null, number | null, number]>(
      'INSERT OR IGNORE INTO promotions (window_end, window_start, account_id, karma_7d, decided_at) VALUES (?, ?, ?, ?, ?)',
    ),
    // The latest decided week at or before `now`, with its holder's name, desk and deletion.
    latestPromotion: db.query<HolderRow, [number]>(
      `SELECT pr.window_start, pr.window_end, pr.account_id, pr.karma_7d, pr.decided_at, a.name, c.desk, a.deleted_at
       FROM promotions pr LEFT JOIN accounts a ON a.id = pr.account_id LEFT JOIN crew c ON c.account_id = pr.account_id
       WHERE pr.window_end <= ? ORDER BY pr.window_end DESC LIMIT 1`,
    ),
  };
}

export type LeaderboardStore = ReturnType<typeof build>;
/** The leaderboard statements, prepared once per database. */
export const leaderboardStore = perDatabase(build);

export const eligibleAccounts = (db: Db): EligibleRow[] => leaderboardStore(db).eligible.all(SYSTEM_ACCOUNT_ID);
