// What the full-text index's layout costs a write: `node_modules/.bin/bun bench/fts-layout.ts`.
//
// On the cached 10k corpus's posts (`bun bench/corpus.ts 10k`), read-only, in memory, in this
// process, twice each:
// - the index as 0003 declared it (detail = full) and as 0040 does (detail = none), and
//   detail = column between: the microseconds to index a post (batches of 64 in a transaction, no
//   savepoints, a 'merge' every 20 batches as the worker would) and the bytes of the index once
//   optimized;
// - both written as the group commit writes them, each post in its own savepoint, against the
//   same posts without: FTS5 writes its pending terms out when a savepoint opens or is
//   released, so each write becomes a segment of its own (docs/performance.md, "The index without
//   positions").
// Times on a shared machine move; compare the rows of one run.
import { Database } from 'bun:sqlite';
import { cachedCorpus } from './corpus.ts';

const TOKENIZE = "porter unicode61 remove_diacritics 2 categories 'L* N* Co Mn Mc'";
const BATCH = 64;

const corpus = cachedCorpus('10k');
if (!corpus) throw new Error('no cached 10k corpus: run `bun bench/corpus.ts 10k` first');
const src = new Database(corpus.file, { readonly: true });
const posts = src
  .query<{ title: string; body: string }, []>("SELECT coalesce(title, '') AS title, body FROM posts WHERE deleted_at IS NULL ORDER BY seq")
  .all();
src.close();

function indexAll(detail: string, savepoints: boolean, tokenize: string): { usPerPost: number; bytes: number; segments: number } {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5 (title, body, detail = ${detail}, tokenize = "${tokenize}")`);
  db.exec("INSERT INTO f (f, rank) VALUES ('automerge', 0)");
  db.exec("INSERT INTO f (f, rank) VALUES ('crisismerge', 1999)");
  const put = db.query('INSERT INTO f (title, body) VALUES (?, ?)');
  const open = db.query('SAVEPOINT w');
  const release = db.query('RELEASE w');
  let segments = 0;
  const count = db.query<{ n: number }, []>('SELECT count(DISTINCT id >> 37) AS n FROM f_data WHERE id >= 137438953472');
  const t = performance.now();
  for (let i = 0; i < posts.length; i += BATCH) {
    db.exec('BEGIN');
    for (const p of posts.slice(i, i + BATCH)) {
      if (savepoints) open.run();
      put.run(p.title, p.body);
      if (savepoints) release.run();
    }
    db.exec('COMMIT');
    if (i === 0) segments = count.get()!.n;
    if ((i / BATCH) % 20 === 19) db.exec("INSERT INTO f (f, rank) VALUES ('merge', 4000)");
  }
  const usPerPost = ((performance.now() - t) * 1000) / posts.length;
  db.exec("INSERT INTO f (f) VALUES ('optimize')");
  const bytes = db.query<{ b: number }, []>('SELECT sum(length(block)) AS b FROM f_data').get()!.b;
  db.close();
  return { usPerPost, bytes, segments };
}

console.log(`${posts.length} posts of the 10k corpus; batches of ${BATCH}`);
for (let round = 1; round <= 2; round++) {
  for (const detail of ['full', 'column', 'none']) {
    const r = indexAll(detail, false, TOKENIZE);
    console.log(`round ${round}  detail = ${detail.padEnd(6)}  ${r.usPerPost.toFixed(1).padStart(5)} µs a post  optimized ${(r.bytes / 1e6).toFixed(2)} MB`);
  }
  for (const detail of ['full', 'none'])
    for (const savepoints of [true, false]) {
      const r = indexAll(detail, savepoints, TOKENIZE);
      console.log(
        `round ${round}  detail = ${detail.padEnd(4)}, ${savepoints ? 'a savepoint a post' : 'no savepoints     '}  ${r.usPerPost.toFixed(1).padStart(5)} µs a post  segments after the first batch: ${r.segments}`,
      );
    }
}
