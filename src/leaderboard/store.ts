// Prepared SQL of the leaderboard and the promotion, built once per database.
//
// A build reads per agent, not per post: all-time karma and the window's vote and post figures
// are kept up to date by triggers (schema/0013_leaderboard_week.sql) in leaderboard_karma and in
// hourly and daily rows of leaderboard_activity; only the two partial hours at the ends of a
// window are read from the votes and posts themselves. Deliveries and acceptances are few and are
// read through indexes of their own.
import { deleted, liveAccount, livePost, notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

/** An account that may be listed or promoted: not deleted, not revoked, not a service account. */
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

/** A reply in the window that may be a delivery: its author, its thread and the start of its text. */
export interface DeliveryCandidateRow {
  author_id: string;
  thread_id: string;
  body: string;
}

/** What jobKind needs to know of a delivery's root. */
export interface DeliveryRootRow {
  author_id: string;
  prefix: string | null;
  crew: 0 | 1;
  owner: 0 | 1;
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
// The very terms of the partial index posts_delivery_candidates, so the planner can use it.
const DELIVERY_CANDIDATE = `p.kind = 'reply' AND ${notDeleted('p')} AND ltrim(p.body, ' ' || char(9, 10, 13)) LIKE 'delivered%'`;

// A label is a word, spaces or tabs and a mark at the start of the text: 200 characters hold it.
const LABEL_TEXT_MAX = 200;

/** The figures of whole hours or days, per account. */
export interface SpanRow {
  account_id: string;
  karma: number;
  votes: number;
  posts: number;
}

function build(db: Db) {
  return {
    // Not the service's own accounts: the system account and whoever holds the scorekeeper role.
    eligible: db.query<EligibleRow, [string]>(
      `SELECT a.id, a.name, a.created_at, c.desk FROM accounts a LEFT JOIN crew c ON c.account_id = a.id
       WHERE ${liveAccount('a')} AND a.revoked_at IS NULL AND a.id != ?
         AND NOT EXISTS (SELECT 1 FROM account_roles r WHERE r.account_id = a.id AND r.role = 'scorekeeper')`,
    ),
    // All-time karma of every author, as karmaOf reads it for one (kept by the triggers).
    karma: db.query<CountRow, []>('SELECT account_id, karma AS n FROM leaderboard_karma WHERE karma != 0'),
    // The figures of the whole spans (hours or days) starting inside [from, to).
    spans: db.query<SpanRow, [number, number, number]>(
      `SELECT account_id, sum(karma) AS karma, sum(votes) AS votes, sum(posts) AS posts FROM leaderboard_activity
       WHERE span = ? AND at >= ? AND at < ? GROUP BY account_id`,
    ),
    // Signed vote weights received inside [start, end) on posts that are still live: read from
    // votes_by_created_at alone, each voted post checked against the small posts_deleted index.
    karmaInWindow: db.query<CountRow & { votes: number }, [number, number]>(
      `SELECT v.author_id AS account_id, sum(v.value * v.weight) AS n, count(*) AS votes
       FROM votes v INDEXED BY votes_by_created_at
       WHERE v.created_at >= ? AND v.created_at < ?
         AND NOT EXISTS (SELECT 1 FROM posts d INDEXED BY posts_deleted WHERE d.id = v.target_id AND ${deleted('d')})
       GROUP BY v.author_id`,
    ),
    // Live posts and replies written inside [start, end), between two feed positions.
    postsInWindow: db.query<CountRow, [number, number, number, number]>(
      `SELECT author_id AS account_id, count(*) AS n FROM posts INDEXED BY posts_live_by_seq
       WHERE seq >= ? AND seq < ? AND created_at >= ? AND created_at < ? AND ${notDeleted()} GROUP BY author_id`,
    ),
    // Live replies written inside [start, end) that may be Delivered: (posts_delivery_candidates),
    // with the start of their text: enough for labels.ts, whatever the length of the body.
    deliveryCandidates: db.query<DeliveryCandidateRow, [number, number, number]>(
      `SELECT p.author_id, p.thread_id, substr(ltrim(p.body, ' ' || char(9, 10, 13)), 1, ${LABEL_TEXT_MAX}) AS body
       FROM posts p INDEXED BY posts_delivery_candidates
       WHERE p.seq >= ? AND p.created_at >= ? AND p.created_at < ? AND ${DELIVERY_CANDIDATE}`,
    ),
    // A delivery's root as jobKind reads it, if it is a live lab root of a live account.
    deliveryRoot: db.query<DeliveryRootRow, [string, string]>(
      `SELECT r.author_id, r.prefix,
         EXISTS (SELECT 1 FROM crew c WHERE c.account_id = r.author_id) AS crew,
         EXISTS (SELECT 1 FROM account_roles o WHERE o.account_id = r.author_id AND o.role = 'owner') AS owner
       FROM posts r JOIN accounts ra ON ra.id = r.author_id
       WHERE r.id = ? AND r.kind = 'post' AND r.topic = ? AND ${livePost('r', 'ra')}`,
    ),
    // Acceptances inside [start, end) of deliveries that are still live, by the delivery's author.
    acceptedInWindow: db.query<CountRow, [number, number]>(
      `SELECT d.author_id AS account_id, count(*) AS n
       FROM acceptances ac INDEXED BY acceptances_by_accepted_at JOIN posts d ON d.id = ac.delivery_id
       WHERE ac.accepted_at >= ? AND ac.accepted_at < ? AND ${notDeleted('d')} GROUP BY d.author_id`,
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

/** Accounts that can rank: live, not the scorekeeper, and not `systemId` (the service's own account). */
export const eligibleAccounts = (db: Db, systemId: string): EligibleRow[] => leaderboardStore(db).eligible.all(systemId);
