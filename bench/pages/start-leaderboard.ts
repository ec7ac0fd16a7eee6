// The first GET /api/leaderboard after a start, and the memory of a server at rest after it:
//
//   bun bench/pages/start-leaderboard.ts 10k|1m [--after MS] [--starts N]
//
// Starts `svc serve` (SVC_BIN, default dist/svc) on a fresh copy of the cached bench corpus, sends
// the first GET /api/leaderboard MS after the listening line (default 0: at once), then a second,
// and reads the server's memory 3 s later (VmRSS, and its anonymous and file-backed parts: pages
// of a memory-mapped database count as file pages). N starts (default 3), one line each.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cachedCorpus, freshDataDir } from '../corpus.ts';
import { Children, listeningUrl, ROOT } from '../lib.ts';

const size = process.argv[2] ?? '10k';
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const after = arg('--after', 0);
const starts = arg('--starts', 3);
const corpus = cachedCorpus(size);
if (!corpus) throw new Error(`no cached ${size} corpus: run \`bun bench/corpus.ts ${size}\` first`);

const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss_mb: Math.round(kb('VmRSS') / 1024), anon_mb: Math.round(kb('RssAnon') / 1024), file_mb: Math.round(kb('RssFile') / 1024) };
};

async function timedGet(url: string): Promise<{ status: number; ms: number; age: string | null }> {
  const t0 = performance.now();
  const r = await fetch(`${url}/api/leaderboard`, { headers: { accept: 'application/json' } });
  await r.arrayBuffer();
  return { status: r.status, ms: Math.round((performance.now() - t0) * 10) / 10, age: r.headers.get('age') };
}

for (let s = 0; s < starts; s++) {
  const dataDir = freshDataDir(corpus.file, `start-${size}`);
  const children = new Children();
  try {
    const proc = children.spawn([process.env.SVC_BIN ?? join(ROOT, 'dist/svc'), 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir]);
    const url = await listeningUrl(proc, 'svc', 180_000);
    const atListen = memory(proc.pid);
    if (after > 0) await Bun.sleep(after);
    const first = await timedGet(url);
    const second = await timedGet(url);
    await Bun.sleep(3000);
    console.log(JSON.stringify({ size, after_ms: after, first, second, memory_at_listen: atListen, memory_3s_later: memory(proc.pid) }));
  } finally {
    await children.stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
process.exit(0);
