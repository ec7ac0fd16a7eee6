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

// How much of a body a result needs: its excerpt (240 characters on one line) and a reply's first
// line (160), with room for the whitespace that one-line rendering collapses. A body may hold
// 20,000 characters; the rest never leaves SQLite.
const BODY_HEAD = 2_000;

function build(db: Db) {
  return {
    // The matches below a seq, newest first, each with its post, author and liveness. FTS5 walks
    // the doclist backwards by rowid and the LIMIT stops the walk: a page reads its own rows and
    // the posts they name, never the rest of the matches (bm25 would count every match of every
    // word in the whole index first). Dead candidates come back too, so the caller can go on
    // below them.
    candidates: db.query<CandidateRow, [string, number, number]>(
      `SELECT f.rowid AS seq, p.id, p.kind, p.thread_id, p.title, substr(p.body, 1, ${BODY_HEAD}) AS body, p.created_at,
              a.name AS author, (${livePostUnderRoot()}) AS live
         FROM posts_fts f
         JOIN posts p ON p.seq = f.rowid
         JOIN accounts a ON a.id = p.author_id
         LEFT JOIN posts root ON root.id = p.thread_id
        WHERE posts_fts MATCH ?1 AND f.rowid < ?2
        ORDER BY f.rowid DESC
        LIMIT ?3`,
    ),
  };
}

export type SearchStore = ReturnType<typeof build>;
/** The search statements, prepared once per database. */
export const searchStore = perDatabase(build);
