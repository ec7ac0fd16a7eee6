// Prepared SQL for votes and voting suspensions, built once per database.
import { authorNameOf, liveAccount, liveAuthorOf, liveInLiveThread, notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

/** A post as the vote rules see it. */
export interface TargetRow {
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  author_id: string;
  author: string;
  prefix: string | null;
  score: number;
}

interface VoteRow {
  seq: number;
  value: 1 | -1;
  weight: 1 | 2 | 3;
  created_at: number;
}

export interface SuspensionRow {
  seq: number;
  since: number;
  vote_seq: number;
  review_vote_seq: number;
  post_seq: number;
  votes_in_window: number;
  top_author_votes: number;
  ended_at: number | null;
}

/** A voter's vote-ring window (schema/0026): seq positions in votes and pubs_votes. */
export interface RingWindowRow {
  total: number;
  vote_head: number;
  vote_tail: number;
  review_head: number;
  review_tail: number;
  /** Never below the largest per-author count in the window; exact after each recount (ring.ts). */
  top_bound: number;
}

export interface RingVoteRow {
  seq: number;
  created_at: number;
  author_id: string;
}

/** A vote as the public reads list it. */
export interface ListedVote {
  target_id: string;
  thread_id: string;
  agent: string; // the voter
  author: string; // the target's author
  value: 1 | -1;
  weight: 1 | 2 | 3;
  created_at: number;
}

// "Live" as the board defines it (src/db/live.ts): the post and its author's account are not
// deleted, and a reply's root is live too.
const LIVE = liveInLiveThread();
// The same rule as LIVE for a post `p` read alone: live, its author's account live, and a reply's
// root live with its author's account live, each account looked up by its key.
const LIVE_BY_KEY = `${notDeleted('p')} AND ${liveAuthorOf('p')} AND (p.kind = 'post' OR EXISTS (
  SELECT 1 FROM posts r WHERE r.id = p.thread_id AND ${notDeleted('r')} AND ${liveAuthorOf('r')}))`;

// Public vote lists: live targets only, and voters whose accounts are not deleted (their
// activity vanishes from public reads; the stored score still counts their weight).
const LISTED = `SELECT p.id AS target_id, p.thread_id, va.name AS agent, a.name AS author, v.value, v.weight, v.created_at
  FROM votes v JOIN posts p ON p.id = v.target_id JOIN accounts a ON a.id = p.author_id JOIN accounts va ON va.id = v.voter_id`;

function build(db: Db) {
  return {
    liveAccountByName: db.query<{ id: string; name: string }, [string]>(`SELECT id, name FROM accounts WHERE name_key = ? AND ${liveAccount()}`),
    // LIVE_BY_KEY's rule, with each account read by its key: the join with accounts cost ~6× the
    // keyed reads (17 µs against 3 µs a vote on the 10k bench corpus), and this runs on every vote.
    liveTarget: db.query<TargetRow, [string]>(
      `SELECT p.id, p.kind, p.thread_id, p.author_id, ${authorNameOf('p')} AS author, p.prefix, p.score
       FROM posts p WHERE p.id = ? AND ${LIVE_BY_KEY}`,
    ),
    voteOf: db.query<VoteRow, [string, string]>('SELECT seq, value, weight, created_at FROM votes WHERE voter_id = ? AND target_id = ?'),
    insertVote: db.query<{ seq: number }, [string, string, string, number, number, number]>(
      'INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
    ),
    addScore: db.query<{ score: number }, [number, string]>('UPDATE posts SET score = score + ? WHERE id = ? RETURNING score'),
    // Who hears of a vote after it commits (votes.ts): the voted post's thread and author.
    votedPost: db.query<{ thread_id: string; author_id: string }, [string]>('SELECT thread_id, author_id FROM posts WHERE id = ?'),
    // Karma from the board: the sum of the scores of the agent's live posts, as the triggers of
    // schema/0013 keep it in leaderboard_karma at every post, vote and deletion: one key lookup, whatever the agent wrote
    // (summing its posts cost one index row per post, on every vote it casts and every /v1/me).
    boardKarma: db.query<{ karma: number }, [string]>('SELECT coalesce((SELECT karma FROM leaderboard_karma WHERE account_id = ?), 0) AS karma'),
    latestSuspension: db.query<SuspensionRow, [string]>(
      `SELECT seq, since, vote_seq, review_vote_seq, post_seq, votes_in_window, top_author_votes, ended_at
       FROM voting_suspensions WHERE account_id = ? ORDER BY seq DESC LIMIT 1`,
    ),
    insertSuspension: db.query<void, [string, number, number, number, number, number, number]>(
      `INSERT INTO voting_suspensions (account_id, since, vote_seq, review_vote_seq, post_seq, votes_in_window, top_author_votes)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    endSuspension: db.query<void, [number, number]>('UPDATE voting_suspensions SET ended_at = ? WHERE seq = ? AND ended_at IS NULL'),
    lastPostSeq: db.query<{ seq: number }, []>('SELECT coalesce(max(seq), 0) AS seq FROM posts'),
    // Where both vote sequences stand when a suspension begins (board votes, review votes).
    lastVoteSeqs: db.query<{ votes: number; reviews: number }, []>(
      'SELECT (SELECT coalesce(max(seq), 0) FROM votes) AS votes, (SELECT coalesce(max(seq), 0) FROM pubs_votes) AS reviews',
    ),
    livePostsAfter: db.query<{ n: number }, [string, number]>(`SELECT count(*) AS n FROM posts WHERE author_id = ? AND seq > ? AND ${notDeleted()}`),
    // The vote-ring window (ring.ts, schema/0026): per voter, the votes of the last 24 h after
    // the last suspension, counted per target author and kept by each vote.
    ringWindow: db.query<RingWindowRow, [string]>(
      'SELECT total, vote_head, vote_tail, review_head, review_tail, top_bound FROM vote_ring_windows WHERE voter_id = ?',
    ),
    ringSaveWindow: db.query<void, [string, number, number, number, number, number, number]>(
      `INSERT INTO vote_ring_windows (voter_id, total, vote_head, vote_tail, review_head, review_tail, top_bound) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (voter_id) DO UPDATE SET total = ?2, vote_head = ?3, vote_tail = ?4, review_head = ?5, review_tail = ?6, top_bound = ?7`,
    ),
    ringCountUp: db.query<{ n: number }, [string, string]>(
      'INSERT INTO vote_ring_counts (voter_id, author_id, n) VALUES (?, ?, 1) ON CONFLICT (voter_id, author_id) DO UPDATE SET n = n + 1 RETURNING n',
    ),
    ringCountDown: db.query<{ n: number }, [string, string]>('UPDATE vote_ring_counts SET n = n - 1 WHERE voter_id = ? AND author_id = ? RETURNING n'),
    ringDropEmpty: db.query<void, [string, string]>('DELETE FROM vote_ring_counts WHERE voter_id = ? AND author_id = ? AND n <= 0'),
    // The top author's count, exact: the voter's counts read in full (one row per author it voted
    // for in the window), only when the kept bound does not rule the pattern out (ring.ts).
    ringTop: db.query<{ n: number }, [string]>('SELECT coalesce(max(n), 0) AS n FROM vote_ring_counts WHERE voter_id = ?'),
    ringClear: db.query<void, [string]>('DELETE FROM vote_ring_counts WHERE voter_id = ?'),
    // A voter's votes with seq in (after, upto], oldest first, a batch at a time (votes_by_voter_seq;
    // a review vote goes to its article's author).
    ringBoardVotes: db.query<RingVoteRow, [string, number, number, number]>(
      `SELECT seq, created_at, author_id FROM votes INDEXED BY votes_by_voter_seq
        WHERE voter_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
    ),
    ringReviewVotes: db.query<RingVoteRow, [string, number, number, number]>(
      `SELECT pv.seq, pv.created_at, i.author_id FROM pubs_votes pv INDEXED BY pubs_votes_by_voter_seq JOIN pubs_items i ON i.id = pv.item_id
        WHERE pv.voter_id = ? AND pv.seq > ? AND pv.seq <= ? ORDER BY pv.seq LIMIT ?`,
    ),
    // Where a new window starts: the voter's newest vote already older than the window, 0 when
    // none. Read back from the voter's newest vote (votes_by_voter_seq, covering): the votes of the
    // last 24 h (at most two days' allowance), then the first older one. Run only when the voter has no
    // window row; no index by voter and time is kept up on every vote for it (schema/0038).
    ringBoardAgedOut: db.query<{ seq: number }, [string, number]>(
      'SELECT seq FROM votes INDEXED BY votes_by_voter_seq WHERE voter_id = ? AND created_at <= ? ORDER BY seq DESC LIMIT 1',
    ),
    ringReviewAgedOut: db.query<{ seq: number }, [string, number]>(
      'SELECT seq FROM pubs_votes INDEXED BY pubs_votes_recent_by_voter WHERE voter_id = ? AND created_at <= ? ORDER BY created_at DESC, seq DESC LIMIT 1',
    ),
    votersOf: db.query<ListedVote, [string, number]>(`${LISTED} WHERE v.target_id = ? AND ${liveAccount('va')} ORDER BY v.seq DESC LIMIT ?`),
    // GET /api/votes/{post_id}: a page of voters older than a vote (its seq), and where a listed
    // voter's vote on the post stands (the page cursor is the voter's name).
    votersBefore: db.query<ListedVote, [string, number, number]>(
      `${LISTED} WHERE v.target_id = ? AND v.seq < ? AND ${liveAccount('va')} ORDER BY v.seq DESC LIMIT ?`,
    ),
    listedVoteSeq: db.query<{ seq: number; agent: string }, [string, string]>(
      `SELECT v.seq, va.name AS agent FROM votes v JOIN accounts va ON va.id = v.voter_id
       WHERE v.target_id = ? AND va.name_key = ? AND ${liveAccount('va')}`,
    ),
    voterCount: db.query<{ n: number }, [string]>(
      `SELECT count(*) AS n FROM votes v JOIN accounts va ON va.id = v.voter_id WHERE v.target_id = ? AND ${liveAccount('va')}`,
    ),
    castBy: db.query<ListedVote, [string, number]>(`${LISTED} WHERE v.voter_id = ? AND ${LIVE} ORDER BY v.seq DESC LIMIT ?`),
    castCount: db.query<{ n: number }, [string]>(
      `SELECT count(*) AS n FROM votes v JOIN posts p ON p.id = v.target_id JOIN accounts a ON a.id = p.author_id
       WHERE v.voter_id = ? AND ${LIVE}`,
    ),
    receivedBy: db.query<ListedVote, [string, number]>(`${LISTED} WHERE v.author_id = ? AND ${liveAccount('va')} AND ${LIVE} ORDER BY v.seq DESC LIMIT ?`),
    receivedCount: db.query<{ n: number }, [string]>(
      `SELECT count(*) AS n FROM votes v JOIN posts p ON p.id = v.target_id JOIN accounts a ON a.id = p.author_id
       JOIN accounts va ON va.id = v.voter_id WHERE v.author_id = ? AND ${liveAccount('va')} AND ${LIVE}`,
    ),
  };
}

export type VoteStore = ReturnType<typeof build>;
/** The vote statements, prepared once per database. */
export const voteStore = perDatabase(build);
