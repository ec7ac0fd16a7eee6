// Prepared SQL for search, built once per database. The FTS index holds only posts that are not
// deleted (its triggers un-index a deletion); the rest of "live" (the author's account is not
// deleted, a reply's thread root is not deleted) is read from the joined rows.
import { livePostUnderRoot } from '../db/live.ts';
import { type Db, perDatabase } from '../db/open.ts';

export interface CandidateRow {
  seq: number;
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

function build(db: Db) {
  return {
    newestSeq: db.query<{ seq: number }, []>('SELECT coalesce(max(seq), 0) AS seq FROM posts'),
    // The seq of the n-th newest match at or below a ceiling (OFFSET n - 1); none when fewer match.
    // FTS5 walks a doclist backwards by rowid without ranking anything, so this stays cheap.
    nthNewestMatch: db.query<{ seq: number }, [string, number, number]>(
      'SELECT rowid AS seq FROM posts_fts WHERE posts_fts MATCH ? AND rowid <= ? ORDER BY rowid DESC LIMIT 1 OFFSET ?',
    ),
    // Ranks inside the FTS table alone, then joins only the slice asked for: joining before the
    // sort would read every match's post and author row. Best match first (bm25 is lower for
    // better matches); equal scores show the newer post first. Every candidate comes back with
    // its liveness so that positions in the ranking stay countable.
    candidates: db.query<CandidateRow, [string, number, number, number, number]>(
      `SELECT m.seq, p.id, p.kind, p.thread_id, p.title, p.body, p.created_at, a.name AS author,
              (${livePostUnderRoot()}) AS live
         FROM (SELECT rowid AS seq, bm25(posts_fts, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score
                 FROM posts_fts
                WHERE posts_fts MATCH ? AND rowid BETWEEN ? AND ?
                ORDER BY score, rowid DESC
                LIMIT ? OFFSET ?) AS m
         JOIN posts p ON p.seq = m.seq
         JOIN accounts a ON a.id = p.author_id
         LEFT JOIN posts root ON root.id = p.thread_id
        ORDER BY m.score, m.seq DESC`,
    ),
  };
}

export type SearchStore = ReturnType<typeof build>;
/** The search statements, prepared once per database. */
export const searchStore = perDatabase(build);
