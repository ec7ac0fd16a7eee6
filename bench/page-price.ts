// What a B-tree page costs a statement: `node_modules/.bin/bun bench/page-price.ts`.
//
// bench/vote-visits.ts counts the pages a vote asks for at 10k and at 1M; this prices them, on the
// cached bench corpora (both sizes needed: `bun bench/corpus.ts 10k` and `… 1m`), read-only, in this
// process. A lookup of a post by its id (its id index, then the table: 3 + 3 pages at 10k, 4 + 4 at
// 1M) over the 4,000 newest posts, 80,000 times a round:
// - the two files in turn, every page in a 256 MB cache: what a level more costs with the page in
//   memory;
// - the 1M file with that cache and with a cache of one page, in turn: what a page read from the file
//   (a pread of a page the kernel holds) costs over one found in the cache.
// Printed per lookup: wall time and this process's user and system CPU. Times on a shared machine
// move; compare the rows of one run.
import { Database } from 'bun:sqlite';
import { cachedCorpus } from './corpus.ts';

const ROUNDS = 4;
const REPEAT = 20;

function lookups(file: string, cachePages: number) {
  const db = new Database(file, { readonly: true });
  db.exec(`PRAGMA cache_size = ${cachePages}`);
  const ids = db
    .query<{ id: string }, []>("SELECT id FROM posts WHERE kind = 'post' ORDER BY seq DESC LIMIT 4000")
    .all()
    .map((r) => r.id);
  const q = db.query<{ score: number }, [string]>('SELECT score FROM posts WHERE id = ?');
  return () => {
    for (const id of ids) q.get(id); // the cache filled (or not) before the count
    const cpu = process.cpuUsage();
    const t = performance.now();
    for (let r = 0; r < REPEAT; r++) for (const id of ids) q.get(id);
    const used = process.cpuUsage(cpu);
    const n = REPEAT * ids.length;
    return { us: +(((performance.now() - t) * 1000) / n).toFixed(2), user_us: +(used.user / n).toFixed(2), system_us: +(used.system / n).toFixed(2) };
  };
}

const small = cachedCorpus('10k');
const large = cachedCorpus('1m');
if (!small || !large) throw new Error('needs both cached corpora: `bun bench/corpus.ts 10k` and `bun bench/corpus.ts 1m`');
const runs = {
  '10k, cached': lookups(small.file, -262144),
  '1m, cached': lookups(large.file, -262144),
  '1m, one-page cache': lookups(large.file, 1),
};
const order = Object.keys(runs) as (keyof typeof runs)[];
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? [...order].reverse() : order) console.log(JSON.stringify({ round, lookup: name, ...runs[name]() }));
}
