// What one vote writes: `node_modules/.bin/bun bench/vote-pages.ts [10k|100k|1m] [vote|reply]`
// (a reply instead with `reply`).
//
// Starts `svc serve` (SVC_BIN, default dist/svc) on a copy of the cached bench corpus, casts votes
// one at a time (each its own commit), and after each one reads the WAL: its frames, and the page
// numbers in them, mapped to the table or index that owns each page (SQLite's dbstat). Prints the
// frames of each vote and the pages a vote writes per B-tree, on average. A group commit shares
// some of these pages between the votes of a batch; a vote alone shows what each one touches.
import { Database } from 'bun:sqlite';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchKey, cachedCorpus, freshDataDir } from './corpus.ts';
import { Children, listeningUrl, ROOT } from './lib.ts';

const size = process.argv[2] ?? '10k';
const kind = process.argv[3] === 'reply' ? 'reply' : 'vote';
const VOTES = 30;
const corpus = cachedCorpus(size);
if (!corpus) throw new Error(`no cached ${size} corpus: run \`BENCH_SIZES=${size} npm run bench\` once first`);
const dataDir = freshDataDir(corpus.file, size);
const file = join(dataDir, 'svc.sqlite');
const children = new Children();
const proc = children.spawn([process.env.SVC_BIN ?? join(ROOT, 'dist/svc'), 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir]);
try {
  const url = await listeningUrl(proc, 'svc', 180_000);
  const db = new Database(file);
  // A passive checkpoint from this connection copies the log; the server's next write starts it over.
  const checkpoint = () => db.query<{ log: number }, []>('PRAGMA wal_checkpoint(PASSIVE)').get()!.log;
  const targets = db
    .query<{ id: string }, [number]>("SELECT id FROM posts WHERE deleted_at IS NULL AND kind = 'post' ORDER BY seq DESC LIMIT ?")
    .all(VOTES * 4)
    .map((r) => r.id);
  const [v0] = kind === 'vote' ? corpus.meta.roles.voters : corpus.meta.roles.writers;
  checkpoint();
  const frames: number[] = [];
  const pages: number[][] = [];
  for (let i = 0; i < VOTES; i++) {
    const target = targets[VOTES + i * 3]!;
    const r = await fetch(kind === 'vote' ? `${url}/votes` : `${url}/v1/posts/${target}/replies`, {
      method: 'POST',
      headers: {
        'x-agent-protocol': 'svc/1',
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${benchKey(v0 + (i % 20))}`,
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify(kind === 'vote' ? { target_id: target, value: 1 } : { body: `A measured reply, number ${i}, on what the thread found.` }),
    });
    const text = await r.text();
    if (r.status >= 300) {
      process.stderr.write(`  ! ${kind} ${i}: ${r.status} ${text.slice(0, 200)}\n`);
      continue;
    }
    // The log's frames with its current salt: this write's commit (the previous ones were copied).
    const wal = readFileSync(`${file}-wal`);
    const salt = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
    const written: number[] = [];
    for (let at = 32; at + 24 <= wal.length; at += 24 + 4096) {
      if (wal.readUInt32BE(at + 8) !== salt[0] || wal.readUInt32BE(at + 12) !== salt[1]) break;
      written.push(wal.readUInt32BE(at));
    }
    pages.push(written);
    frames.push(checkpoint());
  }
  const owner = new Map<number, string>();
  for (const r of db.query<{ name: string; pageno: number }, []>('SELECT name, pageno FROM dbstat').all()) owner.set(r.pageno, r.name);
  const perTree = new Map<string, number>();
  for (const written of pages) {
    for (const page of new Set(written)) {
      const name = owner.get(page) ?? '(new page)';
      perTree.set(name, (perTree.get(name) ?? 0) + 1);
    }
  }
  console.log(`${size}: WAL frames of each ${kind} alone: ${frames.join(' ')}`);
  console.log(`pages a ${kind} writes, by table or index (average over the ${kind}s):`);
  for (const [name, n] of [...perTree].sort((a, b) => b[1] - a[1])) console.log(`  ${(n / pages.length).toFixed(2).padStart(5)}  ${name}`);
  db.close();
} finally {
  proc.kill('SIGTERM');
  await proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
