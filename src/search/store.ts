// Prepared SQL for search, built once per database. The FTS index holds only posts that are not
// deleted (its triggers un-index a deletion); the rest of "live" (the author's account is not
// deleted, a reply's thread root is not deleted) is read from the joined rows.
import { livePostUnderRoot } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface CandidateRow {
  seq: number;
  score: number;
  id: string;
  kind: 'post' | 'reply';
  thread_id: string;
  title: string | null;
  body: string;
  created_at: number;
  author: string;
  live: 0 | 1;
}

// bm25 weights per FTS column (title, body): a word in a title counts ten times a word in a body.
const TITLE_WEIGHT = 10;
const BODY_WEIGHT = 1;

// The window's matches with their score, computed once per match. The LIMIT -1 (no limit) keeps
// SQLite from flattening this into the query around it, which would copy bm25() into every place
// the score is compared and compute it up to three times per match.
const SCORED = `SELECT rowid AS seq, bm25(posts_fts, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score
  FROM posts_fts WHERE posts_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3 LIMIT -1`;

// The score the cursor's last result has now: bm25 depends on the whole index (how many posts
// hold each word, their average length), so every write moves every score a little, and a score
// carried from the previous page would no longer sit where its post sits in this page's ranking.
// The post's own current score does; the carried one (?4) stands in once the post is gone.
const KEY_SCORE = `coalesce((SELECT bm25(posts_fts, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) FROM posts_fts WHERE posts_fts MATCH ?1 AND rowid = ?5), ?4)`;

/** The score before every score: a first page starts after it (bm25 is finite). */
export const BEFORE_FIRST = { score: -Number.MAX_VALUE, seq: 0 } as const;

/** A page of ranked matches (`ranked`: seq and score, in rank order, limited) with its posts and authors. */
const pageOf = (ranked: string): string =>
  `SELECT m.seq, m.score, p.id, p.kind, p.thread_id, p.title, p.body, p.created_at, a.name AS author,
          (${livePostUnderRoot()}) AS live
     FROM (${ranked}) AS m
     JOIN posts p ON p.seq = m.seq
     JOIN accounts a ON a.id = p.author_id
     LEFT JOIN posts root ON root.id = p.thread_id
    ORDER BY m.score, m.seq DESC`;

function build(db: Db) {
  return {
    newestSeq: db.query<{ seq: number }, []>('SELECT coalesce(max(seq), 0) AS seq FROM posts'),
    // The seq of the n-th newest match at or below a ceiling (OFFSET n - 1); none when fewer match.
    // FTS5 walks a doclist backwards by rowid without ranking anything, so this stays cheap.
    nthNewestMatch: db.query<{ seq: number }, [string, number, number]>(
      'SELECT rowid AS seq FROM posts_fts WHERE posts_fts MATCH ? AND rowid <= ? ORDER BY rowid DESC LIMIT 1 OFFSET ?',
    ),
    // One page of the ranking, by keyset: the candidates after the cursor's post (score, seq) in
    // the order best match first (bm25 is lower for better matches), equal scores newer first. The window's
    // matches are scored once and only the page is kept (a top-N sort of LIMIT rows), so a deep
    // page costs what the first costs; only the page is joined to its post and author rows.
    // Every candidate comes back with its liveness: a page of dead ones moves the keyset on.
    candidates: db.query<CandidateRow, [string, number, number, number, number, number]>(
      pageOf(`SELECT seq, score FROM (${SCORED})
                WHERE score > (${KEY_SCORE}) OR (score = (${KEY_SCORE}) AND seq < ?5)
                ORDER BY score, seq DESC
                LIMIT ?6`),
    ),
    // The first page: the same ranking with nothing to pass, so without the keyset comparison
    // (and the layer around bm25 it needs), which costs the first page about a sixth more.
    firstCandidates: db.query<CandidateRow, [string, number, number, number]>(
      pageOf(`SELECT rowid AS seq, bm25(posts_fts, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score
                 FROM posts_fts WHERE posts_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3
                ORDER BY score, seq DESC
                LIMIT ?4`),
    ),
    // The ranked candidate at a position (a cursor of the earlier offset form names a position):
    // the keyset to continue after. Bounded by the window (at most MAX_RANKED matches).
    rankedAt: db.query<{ seq: number; score: number }, [string, number, number, number]>(
      `SELECT seq, score FROM (${SCORED}) ORDER BY score, seq DESC LIMIT 1 OFFSET ?4`,
    ),
  };
}

export type SearchStore = ReturnType<typeof build>;
/** The search statements, prepared once per database. */
export const searchStore = perDatabase(build);
