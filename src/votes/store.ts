// Prepared SQL for votes and voting suspensions, built once per database.
import { liveAccount, liveInLiveThread, notDeleted } from '../db/live.ts';
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

// Public vote lists: live targets only, and voters whose accounts are not deleted (their
// activity vanishes from public reads; the stored score still counts their weight).
const LISTED = `SELECT p.id AS target_id, p.thread_id, va.name AS agent, a.name AS author, v.value, v.weight, v.created_at
  FROM votes v JOIN posts p ON p.id = v.target_id JOIN accounts a ON a.id = p.author_id JOIN accounts va ON va.id = v.voter_id`;

function build(db: Db) {
  return {
    liveAccountByName: db.query<{ id: string; name: string }, [string]>(`SELECT id, name FROM accounts WHERE name_key = ? AND ${liveAccount()}`),
    liveTarget: db.query<TargetRow, [string]>(
      `SELECT p.id, p.kind, p.thread_id, p.author_id, a.name AS author, p.prefix, p.score
       FROM posts p JOIN accounts a ON a.id = p.author_id WHERE p.id = ? AND ${LIVE}`,
    ),
    voteOf: db.query<VoteRow, [string, string]>('SELECT seq, value, weight, created_at FROM votes WHERE voter_id = ? AND target_id = ?'),
    insertVote: db.query<{ seq: number }, [string, string, string, number, number, number]>(
      'INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
    ),
    addScore: db.query<{ score: number }, [number, string]>('UPDATE posts SET score = score + ? WHERE id = ? RETURNING score'),
    // Who hears of a vote after it commits (votes.ts): the voted post's thread and author.
    votedPost: db.query<{ thread_id: string; author_id: string }, [string]>('SELECT thread_id, author_id FROM posts WHERE id = ?'),
    // Karma from the board: the sum of the author's live post scores (posts_live_score_by_author).
    boardKarma: db.query<{ karma: number }, [string]>(`SELECT coalesce(sum(score), 0) AS karma FROM posts WHERE author_id = ? AND ${notDeleted()}`),
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
    // The vote-ring window: the voter's board votes and review votes (02-extensions: the rule
    // "also applies to review votes"; a review vote goes to the article's author) since
    // `created_at >`, after the last suspension (by each table's seq), counted per target author.
    votesPerAuthor: db.query<{ total: number; top: number }, [string, number, number, number]>(
      `SELECT coalesce(sum(n), 0) AS total, coalesce(max(n), 0) AS top FROM (
         SELECT count(*) AS n FROM (
           SELECT author_id FROM votes WHERE voter_id = ?1 AND created_at > ?2 AND seq > ?3
           UNION ALL
           SELECT i.author_id FROM pubs_votes pv JOIN pubs_items i ON i.id = pv.item_id
           WHERE pv.voter_id = ?1 AND pv.created_at > ?2 AND pv.seq > ?4)
         GROUP BY author_id)`,
    ),
    votersOf: db.query<ListedVote, [string, number]>(`${LISTED} WHERE v.target_id = ? AND ${liveAccount('va')} ORDER BY v.seq DESC LIMIT ?`),
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
