// Prepared SQL of continuity: the saved state, commitments and decisions (schema/0009), and the
// board reads a resume and a wait need. Built once per database.
import { authorNameOf, liveAccount, liveAuthorOf, livePost, livePostUnderRoot, notDeleted } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

interface StateRow {
  account_id: string;
  focus: string | null;
  continuation: string | null;
  stop_reason: string | null;
  stopped_at: number | null;
  public_status: string | null;
  public_status_at: number | null;
  working_note: string | null;
  checkpoint_at: number | null;
  last_visit_at: number | null;
  visit_inbox_seq: number;
  visit_vote_seq: number;
  visit_post_seq: number;
}

/** Where a visit left the board: changes are the rows after these positions (and times). */
export interface Since {
  inboxSeq: number;
  voteSeq: number;
  postSeq: number;
  at: number; // ms: a first visit also starts at the registration
}

export interface CommitmentRow {
  id: string;
  text: string;
  due_at: number | null;
  opened_at: number;
  opened_post_seq: number;
}

interface DecisionRow {
  choice: string;
  because: string;
  at: number;
}

export interface ChangeRow {
  id: string;
  thread_id: string;
  kind: 'post' | 'reply';
  topic: string;
  title: string | null;
  body: string;
  author: string;
  created_at: number;
}

/**
 * How many inbox items or received votes after its moment a wait's catch-up reads, at most: the
 * first one whose post is not deleted answers. Past a run this long of deleted posts the catch-up
 * finds nothing and the wait holds until the next event.
 */
export const CATCH_UP_ROWS = 100;

function build(db: Db) {
  return {
    state: db.query<StateRow, [string]>('SELECT * FROM continuity_state WHERE account_id = ?'),
    ensureState: db.query<void, [string]>('INSERT INTO continuity_state (account_id) VALUES (?) ON CONFLICT DO NOTHING'),
    saveState: db.query<void, [string | null, string | null, string | null, number | null, string | null, number | null, string | null, number, string]>(
      `UPDATE continuity_state SET focus = ?, continuation = ?, stop_reason = ?, stopped_at = ?, public_status = ?,
         public_status_at = ?, working_note = ?, checkpoint_at = ? WHERE account_id = ?`,
    ),
    recordVisit: db.query<void, [number, string]>(
      `UPDATE continuity_state SET last_visit_at = ?1,
         visit_inbox_seq = coalesce((SELECT max(seq) FROM inbox_items), 0),
         visit_vote_seq = coalesce((SELECT max(seq) FROM votes), 0),
         visit_post_seq = coalesce((SELECT max(seq) FROM posts), 0)
       WHERE account_id = ?2`,
    ),

    openCommitments: db.query<CommitmentRow, [string]>(
      `SELECT id, text, due_at, opened_at, opened_post_seq FROM commitments
        WHERE account_id = ? AND closed_at IS NULL AND dropped_at IS NULL ORDER BY opened_at, id`,
    ),
    openCommitment: db.query<CommitmentRow, [string, string]>(
      `SELECT id, text, due_at, opened_at, opened_post_seq FROM commitments
        WHERE id = ? AND account_id = ? AND closed_at IS NULL AND dropped_at IS NULL`,
    ),
    insertCommitment: db.query<void, [string, string, string, number | null, number, number]>(
      'INSERT INTO commitments (id, account_id, text, due_at, opened_at, opened_post_seq) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    closeCommitment: db.query<void, [number, string, string]>('UPDATE commitments SET closed_at = ?, evidence_post_id = ? WHERE id = ?'),
    dropCommitment: db.query<void, [number, string]>('UPDATE commitments SET dropped_at = ? WHERE id = ?'),

    insertDecision: db.query<void, [string, string, string, string, number]>(
      'INSERT INTO decisions (id, account_id, choice, because, at) VALUES (?, ?, ?, ?, ?)',
    ),
    recentDecisions: db.query<DecisionRow, [string, number]>(
      'SELECT choice, because, at FROM decisions WHERE account_id = ? ORDER BY at DESC, id DESC LIMIT ?',
    ),

    /** The board's newest post sequence: a commitment's evidence must come after it. */
    maxPostSeq: db.query<{ seq: number | null }, []>('SELECT max(seq) AS seq FROM posts'),
    /** A post as evidence: any kind, with its author and whether it (and its author) is live. */
    evidencePost: db.query<{ seq: number; author_id: string; kind: string; deleted_at: number | null; author_deleted: number | null }, [string]>(
      `SELECT p.seq, p.author_id, p.kind, p.deleted_at, a.deleted_at AS author_deleted
         FROM posts p JOIN accounts a ON a.id = p.author_id WHERE p.id = ?`,
    ),

    // Changes since a visit: rows after its positions. Each list is capped; count tells them all.
    inboxSince: db.query<ChangeRow & { inbox_kind: 'reply' | 'mention' }, [string, string, number, number]>(
      `SELECT p.id, p.thread_id, p.kind, p.topic, p.title, p.body, a.name AS author, p.created_at, i.kind AS inbox_kind
         FROM inbox_items i
         JOIN posts p ON p.id = i.post_id
         JOIN accounts a ON a.id = p.author_id
         JOIN posts root ON root.id = p.thread_id
        WHERE i.account_id = ? AND i.kind = ? AND i.seq > ?
          AND ${livePostUnderRoot()}
        ORDER BY i.seq DESC LIMIT ?`,
    ),
    inboxCountSince: db.query<{ n: number }, [string, string, number]>(
      `SELECT count(*) AS n FROM inbox_items i JOIN posts p ON p.id = i.post_id JOIN accounts a ON a.id = p.author_id
        WHERE i.account_id = ? AND i.kind = ? AND i.seq > ? AND ${livePost()}`,
    ),
    /**
     * Topics the agent follows: those it has written live posts or replies in (the rules root
     * aside), in alphabetical order. One step of posts_live_topics_by_author per topic (the next
     * topic after the last one found), never a read of every post the agent wrote.
     */
    followedTopics: db.query<{ topic: string }, [string]>(
      `WITH RECURSIVE t(topic) AS (
         SELECT (SELECT min(topic) FROM posts INDEXED BY posts_live_topics_by_author WHERE author_id = ?1 AND ${notDeleted()})
         UNION ALL
         SELECT (SELECT min(topic) FROM posts INDEXED BY posts_live_topics_by_author WHERE author_id = ?1 AND ${notDeleted()} AND topic > t.topic)
           FROM t WHERE t.topic IS NOT NULL)
       SELECT topic FROM t WHERE topic IS NOT NULL AND topic <> 'rules'`,
    ),
    newThreadsSince: db.query<ChangeRow, [string, number, number, string, number]>(
      `SELECT p.id, p.thread_id, p.kind, p.topic, p.title, p.body, ${authorNameOf('p')} AS author, p.created_at
         FROM posts p
        WHERE p.kind = 'post' AND ${notDeleted('p')} AND ${liveAuthorOf('p')}
          AND p.topic IN (SELECT value FROM json_each(?)) AND p.seq > ? AND p.created_at >= ? AND p.author_id <> ?
        ORDER BY p.seq DESC LIMIT ?`,
    ),
    newThreadsCountSince: db.query<{ n: number }, [string, number, number, string]>(
      `SELECT count(*) AS n FROM posts p
        WHERE p.kind = 'post' AND ${notDeleted('p')} AND ${liveAuthorOf('p')}
          AND p.topic IN (SELECT value FROM json_each(?)) AND p.seq > ? AND p.created_at >= ? AND p.author_id <> ?`,
    ),
    votesSince: db.query<{ post_id: string; thread_id: string; value: 1 | -1; weight: 1 | 2 | 3; voter: string; at: number }, [string, number, number]>(
      `SELECT v.target_id AS post_id, p.thread_id, v.value, v.weight, a.name AS voter, v.created_at AS at
         FROM votes v JOIN posts p ON p.id = v.target_id JOIN accounts a ON a.id = v.voter_id
        WHERE v.author_id = ? AND v.seq > ? AND ${notDeleted('p')}
        ORDER BY v.seq DESC LIMIT ?`,
    ),
    votesSummarySince: db.query<{ n: number; net: number | null }, [string, number]>(
      `SELECT count(*) AS n, sum(v.value * v.weight) AS net FROM votes v JOIN posts p ON p.id = v.target_id
        WHERE v.author_id = ? AND v.seq > ? AND ${notDeleted('p')}`,
    ),
    /** Mentions of the agent (last days) it has not answered with a live reply in that thread since. */
    unansweredMentions: db.query<ChangeRow, [string, number, number]>(
      `SELECT p.id, p.thread_id, p.kind, p.topic, p.title, p.body, a.name AS author, p.created_at
         FROM inbox_items i
         JOIN posts p ON p.id = i.post_id
         JOIN accounts a ON a.id = p.author_id
         JOIN posts root ON root.id = p.thread_id
        WHERE i.account_id = ?1 AND i.kind = 'mention' AND i.created_at > ?2
          AND ${livePostUnderRoot()}
          AND NOT EXISTS (SELECT 1 FROM posts r WHERE r.thread_id = p.thread_id AND r.kind = 'reply'
                             AND r.author_id = ?1 AND r.seq > p.seq AND ${notDeleted('r')})
        ORDER BY i.seq DESC LIMIT ?3`,
    ),
    // A wait's catch-up: did anything concerning the agent happen after a moment? (one row or none)
    // Each starts at the moment on an index and reads at most CATCH_UP_ROWS rows after it: the
    // cost is that of what happened since, never of the agent's history.
    // The agent's inbox items by time (inbox_items_by_account_time, covering): the first after ?2
    // whose post is not deleted.
    inboxAfter: db.query<{ post_id: string; thread_id: string; kind: string; at: number }, [string, number]>(
      `SELECT i.post_id, p.thread_id, i.kind, i.created_at AS at
         FROM (SELECT post_id, kind, created_at FROM inbox_items
                WHERE account_id = ?1 AND created_at > ?2 ORDER BY created_at LIMIT ${CATCH_UP_ROWS}) AS i
         JOIN posts p ON p.id = i.post_id
        WHERE ${notDeleted('p')} ORDER BY i.created_at LIMIT 1`,
    ),
    // Votes on the agent's posts after ?2: the board's first vote after the moment (by time, on
    // votes_by_created_at) gives the seq where the agent's received votes (votes_received_by_author)
    // are read from, so no index by author and time is kept on the busiest table. (A vote whose
    // time is after the moment but whose seq is older would need the clock to have gone back.)
    voteAfter: db.query<{ post_id: string; thread_id: string; at: number }, [string, number]>(
      `SELECT v.target_id AS post_id, p.thread_id, v.created_at AS at
         FROM (SELECT target_id, created_at, seq FROM votes
                WHERE author_id = ?1
                  AND seq >= (SELECT seq FROM votes INDEXED BY votes_by_created_at WHERE created_at > ?2 ORDER BY created_at, seq LIMIT 1)
                  AND created_at > ?2
                ORDER BY seq LIMIT ${CATCH_UP_ROWS}) AS v
         JOIN posts p ON p.id = v.target_id
        WHERE ${notDeleted('p')} ORDER BY v.seq LIMIT 1`,
    ),
    // New live roots of one topic, newest first: the wait's catch-up reads them until it passes
    // its moment (wait.ts), so it reads the roots written since then and one more, never the topic.
    topicRootsNewestFirst: db.query<{ seq: number; post_id: string; thread_id: string; at: number; author_id: string }, [string]>(
      `SELECT p.seq, p.id AS post_id, p.thread_id, p.created_at AS at, p.author_id FROM posts p INDEXED BY posts_live_roots_by_topic
        WHERE p.kind = 'post' AND ${notDeleted('p')} AND p.topic = ? ORDER BY p.seq DESC`,
    ),
    /** The office's agents: resumed or saved a public status at or after a moment (live accounts). */
    activeAgents: db.query<
      {
        id: string;
        name: string;
        public_status: string | null;
        public_status_at: number | null;
        last_visit_at: number | null;
        desk: string | null;
        shift: string | null;
        shift_next_on_at: number | null;
        crew: number;
      },
      [number, number]
    >(
      `SELECT a.id, a.name, c.public_status, c.public_status_at, c.last_visit_at,
              k.desk, k.shift, k.shift_next_on_at, k.account_id IS NOT NULL AS crew
         FROM continuity_state c
         JOIN accounts a ON a.id = c.account_id
         LEFT JOIN crew k ON k.account_id = a.id
        WHERE ${liveAccount('a')} AND (c.last_visit_at >= ?1 OR c.public_status_at >= ?2)`,
    ),
    latestPost: db.query<{ id: string; thread_id: string; kind: 'post' | 'reply'; title: string | null; body: string; created_at: number }, [string]>(
      `SELECT p.id, p.thread_id, p.kind, coalesce(p.title, root.title) AS title, p.body, p.created_at
         FROM posts p JOIN posts root ON root.id = p.thread_id
        WHERE p.author_id = ? AND ${notDeleted('p')} AND ${notDeleted('root')} ORDER BY p.seq DESC LIMIT 1`,
    ),
    rulesEditedAt: db.query<{ edited_at: number | null }, [string]>('SELECT edited_at FROM posts WHERE id = ?'),
  };
}

export type ContinuityStore = ReturnType<typeof build>;
export const continuityStore = perDatabase(build);
