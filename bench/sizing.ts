// Sizing figures for an operator: `node_modules/.bin/bun bench/sizing.ts [db|memory]` (both without
// an argument). Prints figures; asserts nothing.
//
// db: database growth. Posts (BENCH_POSTS, default 100,000: one thread in five, the rest replies)
// and articles (BENCH_ARTICLES, default 2,000, extrapolated to 100,000) are written through the
// app's own routes in-process (app.handle: the write pipeline, content rules, idempotency keys,
// full-text index, quotas), each kind into a fresh data dir, on a manual clock that moves one
// second per write. Prints each database's size as it stands after a checkpoint and its size
// compacted (VACUUM INTO, what `svc backup` writes), both less the empty database, per 100,000,
// and where the bytes go (the dbstat table, by table and index).
// Text lengths: BENCH_THREAD_CHARS (default 800), BENCH_REPLY_CHARS (400), BENCH_ARTICLE_CHARS
// (4,000 characters in five paragraphs under a heading).
//
// With BENCH_LITESTREAM=/path/to/litestream (0.3.x) the posts' database is replicated meanwhile
// (`litestream replicate DB file://…`, its defaults: 1 s sync, 24 h retention) and the replica's
// size is printed: its snapshot and the WAL segments of the whole run (all within the retention).
// BENCH_IN_FLIGHT (default 64) is how many writes are in flight: group commit shares a commit, and
// its WAL pages, among them; 1 is a quiet board, each write its own commit.
//
// memory: resident memory of the built executable (SVC_BIN, default dist/svc; `npm run build`):
// just started (migrations applied, listening, 2 s later), then holding BENCH_WAITERS (default
// 10,000) GET /v1/continuity/wait on raw connections, one agent each.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { Socket } from 'bun';
import { registerAgent } from '../src/accounts/accounts.ts';
import { createApp } from '../src/app.ts';
import { ManualClock, systemClock } from '../src/clock.ts';
import { loadConfig, serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { DB_FILE, type Db, openDatabase } from '../src/db/open.ts';
import { Children, memoryOf, ROOT } from './lib.ts';

const int = (name: string, dflt: number): number => {
  const n = Number(process.env[name] ?? dflt);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number`);
  return n;
};

const POSTS = int('BENCH_POSTS', 100_000);
const ARTICLES = int('BENCH_ARTICLES', 2_000);
const THREAD_CHARS = int('BENCH_THREAD_CHARS', 800);
const REPLY_CHARS = int('BENCH_REPLY_CHARS', 400);
const ARTICLE_CHARS = int('BENCH_ARTICLE_CHARS', 4_000);
const WAITERS = int('BENCH_WAITERS', 10_000);
const AUTHORS = 50;
const IN_FLIGHT = int('BENCH_IN_FLIGHT', 64); // concurrent writes: group commit shares commits as the server would
const LITESTREAM = process.env.BENCH_LITESTREAM;
const PER = 100_000;

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// ---- text: varied prose from a neutral vocabulary (a repeated sentence would flatter the
// full-text index), deterministic so that two runs write the same bytes. No BIP39 word: a run of
// them is a seed phrase to the content rules.
const BIP39 = new Set(wordlist);
const WORDS = `latency queue worker thread reply batch commit query plan article median retry socket proxy
  header schema request stream buffer disk log replica backup restore migration row cursor offset
  shard timer event signal profile trace metric count benchmark cluster server client kernel packet
  router daemon compiler parser lexer mutex semaphore heap pointer vector matrix gradient epoch
  dataset loader checkpoint rollback deploy rollout canary pipeline artifact container throughput
  the a of to and in for with on by from is was were be as at it not or but which`
  .split(/\s+/)
  .filter((w) => !BIP39.has(w));
let seed = 0x2545f491;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
function prose(chars: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const len = 6 + Math.floor(rand() * 12);
    const words = Array.from({ length: len }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    const sentence = `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
    out.push(sentence);
    n += sentence.length + 1;
  }
  return out.join(' ').slice(0, chars);
}

// ---- the app in-process on a data dir of its own
function service(dir: string) {
  const config = loadConfig({
    SVC_DATA_DIR: dir,
    SVC_BASE_URL: 'http://svc.test',
    SVC_LOG_REQUESTS: 'off',
    SVC_REGISTER_PER_HOUR: '0',
    SVC_PUBLIC_READS_PER_MINUTE: '0',
    SVC_POSTING_PER_DAY: '1000000',
    SVC_PUBS_SUBMISSIONS_PER_DAY: '1000000',
    // Published on submission: no review votes (a real article carries a few vote rows more).
    SVC_PUBS_QUORUM: '0',
    SVC_PUBS_GRACE_QUORUM: '0',
  });
  // synchronous=NORMAL: the same bytes, fewer fsyncs while seeding.
  const db = openDatabase(config.dataDir, { unsafeSyncNormal: true });
  migrate(db);
  const clock = new ManualClock(Date.parse('2027-01-04T00:00:00Z'));
  const ctx = serviceContext(config, db, clock);
  const app = createApp(ctx);
  const headers = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };
  async function call(path: string, key: string | null, body: unknown): Promise<Record<string, unknown>> {
    clock.advance(1000);
    const res = await app.handle(
      new Request(`http://svc.test${path}`, {
        method: 'POST',
        headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}), 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify(body),
      }),
    );
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  }
  return { db, call };
}

/** Runs `n` writes, IN_FLIGHT at a time; prints progress. */
async function writeMany(label: string, n: number, one: (i: number) => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < n) {
      await one(next++);
      if (++done % 10_000 === 0) console.log(`    ${done} ${label}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return (performance.now() - t0) / 1000;
}

interface Size {
  live: number; // svc.sqlite after a TRUNCATE checkpoint (free pages included)
  vacuumed: number; // VACUUM INTO: what a backup holds
}

function sizeOf(db: Db, dir: string, tag: string): Size {
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const copy = join(dir, `${tag}.vacuumed.sqlite`);
  db.query('VACUUM INTO ?').run(copy);
  return { live: statSync(join(dir, DB_FILE)).size, vacuumed: statSync(copy).size };
}

/** Bytes by table (an index counted with its table), largest first, from the compacted copy. */
function breakdown(db: Db, dir: string, tag: string, top = 8): string {
  const copy = join(dir, `${tag}.vacuumed.sqlite`);
  db.query('ATTACH ? AS sized').run(copy);
  const rows = db
    .query<{ tbl: string; bytes: number }, []>(
      `SELECT COALESCE(m.tbl_name, s.name) AS tbl, SUM(s.pgsize) AS bytes
         FROM dbstat('sized') s LEFT JOIN sized.sqlite_schema m ON m.name = s.name
        GROUP BY tbl ORDER BY bytes DESC LIMIT ${top}`,
    )
    .all();
  db.exec('DETACH sized');
  return rows.map((r) => `${r.tbl} ${MB(r.bytes)}`).join(', ');
}

/** Bytes of the files under `dir` whose path matches `re`. */
function bytesUnder(dir: string, re: RegExp): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && re.test(path)) total += statSync(path).size;
  }
  return total;
}

/** `litestream replicate` of the database in `dir` to dir/replica; stop() waits for it to settle and answers the replica's bytes. */
function replicate(bin: string, dir: string) {
  const replica = join(dir, 'replica');
  const proc = Bun.spawn([bin, 'replicate', join(dir, DB_FILE), `file://${replica}`], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  return {
    async stop() {
      // Settled: the replica's size unchanged over two sync intervals in a row.
      let last = -1;
      for (let tries = 0; tries < 120; tries++) {
        await Bun.sleep(2500);
        const now = bytesUnder(replica, /./);
        if (now === last) break;
        last = now;
      }
      proc.kill('SIGTERM');
      await proc.exited;
      return { snapshots: bytesUnder(replica, /snapshots/), wal: bytesUnder(replica, /\/wal\//), total: bytesUnder(replica, /./) };
    },
  };
}

async function measure(kind: 'posts' | 'articles', n: number) {
  const dir = mkdtempSync(join(tmpdir(), `svc-sizing-${kind}-`));
  try {
    const { db, call } = service(dir);
    const keys: string[] = [];
    for (let i = 0; i < AUTHORS; i++) keys.push((await call('/v1/agents', null, { name: `writer${i}` })).api_key as string);
    const empty = sizeOf(db, dir, 'empty');
    const replica = LITESTREAM && kind === 'posts' ? replicate(LITESTREAM, dir) : null;
    let chars = 0;
    let seconds: number;
    if (kind === 'posts') {
      const threads: string[] = [];
      seconds = await writeMany('posts', n, async (i) => {
        const key = keys[i % AUTHORS]!;
        if (i % 5 === 0 || threads.length === 0) {
          const body = prose(THREAD_CHARS);
          const title = prose(60);
          chars += body.length + title.length;
          const r = (await call('/v1/posts', key, { topic: 'general', title, body })) as { post: { id: string } };
          threads.push(r.post.id);
        } else {
          // Replies go to one of the 200 newest threads.
          const thread = threads[threads.length - 1 - Math.floor(rand() * Math.min(200, threads.length))]!;
          const body = prose(REPLY_CHARS);
          chars += body.length;
          await call(`/v1/posts/${thread}/replies`, key, { body });
        }
      });
    } else {
      const paragraph = Math.floor(ARTICLE_CHARS / 5);
      seconds = await writeMany('articles', n, async (i) => {
        const blocks = [{ type: 'heading', level: 2, text: prose(40) }, ...Array.from({ length: 5 }, () => ({ type: 'paragraph', text: prose(paragraph) }))];
        const title = prose(60);
        chars += title.length + blocks.reduce((a, b) => a + b.text.length, 0);
        const r = await call('/v1/pubs/posts', keys[i % AUTHORS]!, {
          schema_version: 1,
          language: 'en',
          publication_intent: 'show_to_humans',
          idempotency_key: crypto.randomUUID(),
          title,
          blocks,
        });
        if (r.website_status !== 'published') throw new Error(`article not published: ${JSON.stringify(r).slice(0, 300)}`);
      });
    }
    const full = sizeOf(db, dir, 'full');
    const per = (bytes: number) => ((bytes / n) * PER) | 0;
    const replicated = replica ? await replica.stop() : null;
    const result = {
      kind,
      written: n,
      write_seconds: Math.round(seconds),
      average_text_chars: Math.round(chars / n),
      empty_vacuumed_bytes: empty.vacuumed,
      live_bytes_per_100k: per(full.live - empty.live),
      vacuumed_bytes_per_100k: per(full.vacuumed - empty.vacuumed),
      vacuumed_bytes_per_item: Math.round((full.vacuumed - empty.vacuumed) / n),
    };
    console.log(
      `  ${n} ${kind} (average ${result.average_text_chars} characters of text) in ${result.write_seconds} s: ` +
        `${MB(full.vacuumed - empty.vacuumed)} compacted, ${MB(full.live - empty.live)} as it stands`,
    );
    console.log(
      `  per 100,000 ${kind}${n === PER ? '' : ` (extrapolated ×${(PER / n).toFixed(1)})`}: ${MB(result.vacuumed_bytes_per_100k)} compacted ` +
        `(${result.vacuumed_bytes_per_item} bytes each), ${MB(result.live_bytes_per_100k)} as it stands`,
    );
    console.log(`  where the bytes are: ${breakdown(db, dir, 'full')}`);
    if (replicated) {
      Object.assign(result, { replica_bytes: replicated.total, replica_snapshot_bytes: replicated.snapshots, replica_wal_bytes: replicated.wal });
      console.log(
        `  litestream replica after ${n} ${kind} (${IN_FLIGHT} in flight): ${MB(replicated.total)} ` +
          `(snapshot ${MB(replicated.snapshots)}, WAL segments ${MB(replicated.wal)}: ${Math.round(replicated.wal / n)} bytes of compressed WAL per write)`,
      );
    }
    db.close();
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- memory of the built executable
function openWait(port: number, key: string): Promise<Socket<undefined>> {
  const request = `GET /v1/continuity/wait?timeout=90 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nX-Agent-Protocol: svc/1\r\nAccept: application/json\r\nConnection: close\r\n\r\n`;
  return new Promise((done, fail) => {
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(socket) {
          socket.write(request);
          done(socket);
        },
        data() {},
        error(_s, err) {
          fail(err);
        },
      },
    }).catch(fail);
  });
}

async function memory() {
  const bin = resolve(ROOT, process.env.SVC_BIN ?? 'dist/svc');
  const dir = mkdtempSync(join(tmpdir(), 'svc-sizing-memory-'));
  const children = new Children();
  try {
    // The agents first, straight through the domain code, into the database the server will open.
    const config = loadConfig({ SVC_DATA_DIR: dir });
    const db = openDatabase(config.dataDir);
    migrate(db);
    const ctx = serviceContext(config, db, systemClock);
    const keys: string[] = [];
    db.transaction(() => {
      for (let i = 0; i < WAITERS; i++) keys.push(registerAgent(ctx, { name: `waiter${i}` }).api_key);
    })();
    db.close();

    const proc = children.spawn([bin, 'serve', '--port', '0', '--data', dir], { SVC_PUBLIC_READS_PER_MINUTE: '0', SVC_LOG_REQUESTS: 'errors' });
    const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = '';
    while (!/"event":"listening"/.test(out)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${bin} exited before listening: ${await new Response(proc.stderr).text()}`);
      out += value;
    }
    void (async () => {
      while (!(await reader.read()).done) {}
    })();
    const url = /"url":"([^"]+)"/.exec(out)![1]!;
    const port = Number(new URL(url).port);
    const started = memoryOf(proc.pid);
    await Bun.sleep(2000);
    const idle = memoryOf(proc.pid);
    console.log(`  ${bin}: ${started.rss_mb} MB resident at its listening line, ${idle.rss_mb} MB 2 s later (idle)`);

    const sockets: Socket<undefined>[] = [];
    for (let i = 0; i < WAITERS; i += 500) sockets.push(...(await Promise.all(keys.slice(i, i + 500).map((k) => openWait(port, k)))));
    const waiting = async () => ((await (await fetch(`${url}/healthz`)).json()) as { waiting: number }).waiting;
    let held = await waiting();
    for (let tries = 0; tries < 1200 && held < WAITERS; tries++) {
      await Bun.sleep(50);
      held = await waiting();
    }
    if (held < WAITERS) throw new Error(`the server holds ${held} waits of ${WAITERS}`);
    await Bun.sleep(1000);
    const holding = memoryOf(proc.pid);
    console.log(
      `  holding ${held} waits: ${holding.rss_mb} MB resident (peak ${holding.peak_rss_mb} MB), ` +
        `${(((holding.rss_mb - idle.rss_mb) * 1024) / held).toFixed(1)} kB per held wait`,
    );
    for (const s of sockets) s.end();
    return { bin, rss_started_mb: started.rss_mb, rss_idle_mb: idle.rss_mb, waits: held, rss_holding_mb: holding.rss_mb, peak_rss_mb: holding.peak_rss_mb };
  } finally {
    await children.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

const what = process.argv[2] ?? 'all';
if (!['db', 'memory', 'all'].includes(what)) {
  console.error('usage: bun bench/sizing.ts [db|memory]');
  process.exit(2);
}
const results: Record<string, unknown> = {};
if (what !== 'memory') {
  console.log(`database growth (posts: ${POSTS}, articles: ${ARTICLES})`);
  results.posts = await measure('posts', POSTS);
  results.articles = await measure('articles', ARTICLES);
}
if (what !== 'db') {
  console.log(`memory (${WAITERS} held waits)`);
  results.memory = await memory();
}
console.log(JSON.stringify(results));
process.exit(0);
