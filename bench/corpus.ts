// The bench corpus: a real svc database at 10k, 100k or 1M posts, seeded once and cached on disk.
//
//   bun bench/corpus.ts 10k|100k|1m [--force]     seeds (or finds) the corpus and prints its facts
//
// What is in it, at N posts (the service's own migrations, its real tables, its own triggers: the
// full-text index and the leaderboard's figures are filled by the schema's triggers, as for any
// write): N/10 agents (100,000 at 1M; the first BENCH_KEYED of them have known keys, benchKey(i)),
// the first 50 of them crew; N posts over the last 30 days, one in four a root in general, svc-1m or
// svc-show, the rest replies clustered on recent threads, text from bench/text.ts (Zipf words); 400
// open jobs (crew Requests of the last 5 days in the lab topic, some with Started: replies); N votes
// over the last 10 days (1,000,000 at 1M), scores and reply counts as the service keeps them; an
// inbox item for every reply to another agent's thread; 100 pins on 30 recent threads; and 20
// articles published through the API of `dist/svc` (one review vote each, quorum 1 for the seeding
// only). A few replies are deleted, as on a live board.
//
// Seeding is straight SQL in large transactions with prepared statements, journal and sync off, then
// WAL as the service expects; the full-text index is merged four segments at a time as the service's
// merge worker keeps it. The file is cached as bench/.corpus/<size>-<key>.sqlite, key = a hash
// of the migration list and of CORPUS_VERSION (a new migration, or a change here, reseeds); a cache
// older than MAX_AGE_DAYS is reseeded too (open jobs leave the 14-day jobs window as time passes).
// Runs never write to the cache: freshDataDir() copies it.
import { Database } from 'bun:sqlite';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../src/db/migrate.ts';
import { MIGRATIONS } from '../src/db/migrations.ts';
import { textGen } from './text.ts';

/** Bump when the corpus's content changes: the cache key includes it. */
export const CORPUS_VERSION = 2;
export const MAX_AGE_DAYS = 7;
export const SIZES: Record<string, number> = { '10k': 10_000, '100k': 100_000, '1m': 1_000_000 };
/** Agents with known keys (benchKey): writers, voters, readers, submitters. */
export const BENCH_KEYED = 512;
export const CREW = 50;
export const JOBS = 400;
export const PINS = 100;
export const ARTICLES = 20;
export const CORPUS_DIR = join(import.meta.dir, '.corpus');
const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface CorpusMeta {
  size: string;
  key: string;
  posts: number;
  agents: number;
  votes: number;
  jobs: number;
  pins: number;
  articles: number;
  inbox_items: number;
  seeded_at: number;
  seed_seconds: { sql: number; api: number; total: number };
  bytes: number;
  /** Named agents (indices into benchKey) and ids the scenarios use. */
  roles: {
    resume: number; // reads /v1/continuity
    reader: number; // the most replied-to author: a full inbox
    writers: [number, number]; // [from, to) indices of write agents
    voters: [number, number];
    submitters: [number, number];
    reviewer: number;
  };
  agent_ids: string[]; // ids of the keyed agents, by index
  agent_names: string[];
  big_thread: string; // the thread with most replies
  recent_roots: string[]; // 2,000 recent live roots (vote and reply targets)
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The API key of keyed agent i: deterministic, so every corpus copy shares them. */
export function benchKey(i: number): string {
  const h = new Bun.CryptoHasher('sha256').update(`svc-bench-agent-${i}`).digest();
  let s = '';
  for (let k = 0; s.length < 40; k++) s += BASE62[h[k % h.length]! % 62]!;
  return `svc_${s}`;
}
const hashKey = (key: string): string => new Bun.CryptoHasher('sha256').update(key).digest('hex');

/** The cache key: the migrations (names and text) and CORPUS_VERSION. */
export function corpusKey(migrations: readonly { name: string; sql: string }[] = MIGRATIONS): string {
  const h = new Bun.CryptoHasher('sha256').update(`corpus-${CORPUS_VERSION}`);
  for (const m of migrations) h.update(`\n${m.name}\n${m.sql}`);
  return h.digest('hex').slice(0, 12);
}

export function sizeOf(label: string): number {
  const n = SIZES[label.toLowerCase()];
  if (!n) throw new Error(`unknown corpus size "${label}": one of ${Object.keys(SIZES).join(', ')}`);
  return n;
}

const paths = (size: string) => {
  const base = join(CORPUS_DIR, `${size.toLowerCase()}-${corpusKey()}`);
  return { db: `${base}.sqlite`, meta: `${base}.meta` }; // .meta, not .json: the linter does not read it
};

/** The cached corpus of `size` if it is there and young enough, else null. */
export function cachedCorpus(size: string, now = Date.now()): { file: string; meta: CorpusMeta } | null {
  const p = paths(size);
  if (!existsSync(p.db) || !existsSync(p.meta)) return null;
  const meta = JSON.parse(readFileSync(p.meta, 'utf8')) as CorpusMeta;
  if (now - meta.seeded_at > MAX_AGE_DAYS * DAY) return null;
  return { file: p.db, meta };
}

/**
 * The corpus of `size`: the cached file, or a new one seeded now (SQL, then the articles through
 * `svcBin`'s API). Older cached files of the same size are removed.
 */
export async function ensureCorpus(
  size: string,
  svcBin: string,
  opts: { force?: boolean; log?: (s: string) => void } = {},
): Promise<{ file: string; meta: CorpusMeta; seeded: boolean }> {
  const log = opts.log ?? ((s: string) => process.stderr.write(`${s}\n`));
  const found = opts.force ? null : (cachedCorpus(size) ?? forwardCorpus(size, log));
  if (found) return { ...found, seeded: false };
  mkdirSync(CORPUS_DIR, { recursive: true });
  const p = paths(size);
  const work = mkdtempSync(join(tmpdir(), `svc-corpus-${size}-`));
  try {
    const t0 = performance.now();
    log(`· seeding the ${size} corpus (${sizeOf(size)} posts) into ${work}`);
    const meta = seedSql(join(work, 'svc.sqlite'), size, log);
    const sqlS = (performance.now() - t0) / 1000;
    log(`· SQL seeding took ${sqlS.toFixed(1)} s; publishing ${ARTICLES} articles through the API`);
    const t1 = performance.now();
    meta.articles = await publishArticles(svcBin, work, meta);
    const apiS = (performance.now() - t1) / 1000;
    const db = new Database(join(work, 'svc.sqlite'));
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    meta.seed_seconds = { sql: round1(sqlS), api: round1(apiS), total: round1((performance.now() - t0) / 1000) };
    meta.bytes = statSync(join(work, 'svc.sqlite')).size;
    for (const f of readdirSync(CORPUS_DIR)) if (f.startsWith(`${size.toLowerCase()}-`)) rmSync(join(CORPUS_DIR, f), { force: true });
    copyFileSync(join(work, 'svc.sqlite'), `${p.db}.tmp`);
    renameSync(`${p.db}.tmp`, p.db);
    writeFileSync(p.meta, `${JSON.stringify(meta)}\n`);
    log(
      `· the ${size} corpus: ${meta.posts} posts, ${meta.agents} agents, ${meta.votes} votes, ${(meta.bytes / 1e6).toFixed(0)} MB, seeded in ${meta.seed_seconds.total} s`,
    );
    return { file: p.db, meta, seeded: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A cached corpus of `size` made before the newest migrations (the same CORPUS_VERSION, young
 * enough), brought forward by the migrations it lacks, as an upgrade brings a live board, and
 * cached under the new key: a new migration costs its own run, not a new seeding (minutes at 1M).
 */
function forwardCorpus(size: string, log: (s: string) => void): { file: string; meta: CorpusMeta } | null {
  if (!existsSync(CORPUS_DIR)) return null;
  const label = size.toLowerCase();
  for (const f of readdirSync(CORPUS_DIR)) {
    const key = new RegExp(`^${label}-([0-9a-f]{12})\\.meta$`).exec(f)?.[1];
    const held = key ? MIGRATIONS.findIndex((_, i) => corpusKey(MIGRATIONS.slice(0, i + 1)) === key) : -1;
    const old = join(CORPUS_DIR, `${label}-${key}.sqlite`);
    if (held < 0 || !existsSync(old)) continue;
    const meta = JSON.parse(readFileSync(join(CORPUS_DIR, f), 'utf8')) as CorpusMeta;
    if (Date.now() - meta.seeded_at > MAX_AGE_DAYS * DAY) continue;
    const work = mkdtempSync(join(tmpdir(), `svc-corpus-${label}-`));
    try {
      log(`· the ${size} corpus was seeded before ${MIGRATIONS.length - 1 - held} migration(s): migrating a copy forward`);
      copyFileSync(old, join(work, 'svc.sqlite'));
      const db = new Database(join(work, 'svc.sqlite'));
      migrate(db);
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      db.close();
      const p = paths(size);
      const next: CorpusMeta = { ...meta, key: corpusKey(), bytes: statSync(join(work, 'svc.sqlite')).size };
      copyFileSync(join(work, 'svc.sqlite'), `${p.db}.tmp`);
      renameSync(`${p.db}.tmp`, p.db);
      writeFileSync(p.meta, `${JSON.stringify(next)}\n`);
      for (const gone of [old, join(CORPUS_DIR, f), `${old}-wal`, `${old}-shm`]) rmSync(gone, { force: true });
      return { file: p.db, meta: next };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return null;
}

/**
 * A new data dir holding a copy of the corpus file: runs write there, never to the cache. The copy
 * and its directory are synced before it is answered: otherwise the kernel writes the copy back
 * (2 GB at 1M) while the first rounds measure, and their disk waits are the copy's.
 *
 * The copy is written one database page (4 KB) a call, as SQLite writes its file: the kernel
 * (Linux 6.16+ on ext4) keeps a file written in large calls in large page-cache folios, and every
 * page a checkpoint then writes dirties a whole folio, which costs the server system CPU a file it
 * wrote itself does not (measured at 1M: the checkpoint thread's system time 2.1 s against 1.5 s for
 * one reply row: docs/performance.md, "Fresh copies"). The pages stay cached, as a running
 * server's are.
 */
export function freshDataDir(file: string, label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${label}-`));
  copyByPages(file, join(dir, 'svc.sqlite'));
  for (const path of [join(dir, 'svc.sqlite'), dir]) {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  return dir;
}

const PAGE = 4096;

/** Copies `from` to a new file `to`, read in 1 MB blocks and written one page a call. */
function copyByPages(from: string, to: string): void {
  const src = openSync(from, 'r');
  const dst = openSync(to, 'wx');
  try {
    const block = Buffer.allocUnsafe(256 * PAGE);
    for (let at = 0; ; ) {
      const n = readSync(src, block, 0, block.length, at);
      if (n === 0) break;
      for (let off = 0; off < n; off += PAGE) writeSync(dst, block, off, Math.min(PAGE, n - off), at + off);
      at += n;
    }
  } finally {
    closeSync(src);
    closeSync(dst);
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

// ---- SQL seeding -------------------------------------------------------------------------------

function seedSql(file: string, size: string, log: (s: string) => void): CorpusMeta {
  const N = sizeOf(size);
  const A = Math.max(BENCH_KEYED * 2, Math.floor(N / 10));
  const V = N;
  const now = Date.now();
  const start = now - 30 * DAY;
  const end = now - HOUR;
  const tg = textGen(20261123 + N);
  const { rand, pick } = tg;

  const db = new Database(file, { create: true });
  db.exec('PRAGMA journal_mode = OFF');
  db.exec('PRAGMA synchronous = OFF');
  db.exec('PRAGMA foreign_keys = OFF');
  db.exec('PRAGMA cache_size = -524288'); // 512 MB
  db.exec('PRAGMA temp_store = MEMORY');
  migrate(db);
  // The full-text index as a board grown under the service has it: src/search/merges.ts merges four
  // segments of a level at a time beside the writes, as FTS5's automerge 4 does in the commit. With
  // the stored automerge 0 (schema/0039) and no merge worker here, only FTS5's crisis merges (16
  // segments) ran while seeding, and the 1M index was left with 15 segments of 3,500 pages on one
  // level and a merge of them under way: a bench on it measured the worker's catch-up (steps of
  // 60 ms, and a crisis merge of 3.75 s in a commit), not a board (docs/performance.md, "The 1M
  // corpus's index"). 0039's setting is put back once the posts are in.
  db.exec("INSERT INTO posts_fts (posts_fts, rank) VALUES ('automerge', 4)");

  // Agents: the keyed ones first (crew = the first CREW), then the rest.
  const ids: string[] = new Array(A);
  const names: string[] = new Array(A);
  const accountsAt = start - 30 * DAY;
  db.transaction(() => {
    const account = db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)');
    const crew = db.query('INSERT INTO crew (account_id, desk, shift, added_at) VALUES (?, ?, ?, ?)');
    for (let i = 0; i < A; i++) {
      const at = accountsAt + i;
      const id = Bun.randomUUIDv7('hex', at);
      ids[i] = id;
      names[i] = `agent_${i}`;
      account.run(id, names[i]!, names[i]!, i < BENCH_KEYED ? hashKey(benchKey(i)) : `bench-no-key-${i}`, at);
      if (i < CREW) crew.run(id, ['research', 'ops', 'editor'][i % 3]!, 'on', at);
    }
  })();
  log(`  ${A} agents`);

  // Who writes: skewed towards the low indices past the crew (a few prolific agents, a long tail).
  const author = () => CREW + Math.floor(rand() ** 2.5 * (A - CREW));
  // Job positions: JOBS crew Requests spread over the last sixth of the stream (the last 5 days).
  const jobStride = Math.max(1, Math.floor(N / 6 / JOBS));
  const jobAt = new Set<number>();
  for (let j = 0; j < JOBS && N - 1 - j * jobStride > N / 2; j++) jobAt.add(N - 1 - j * jobStride);

  const postId: string[] = new Array(N);
  const postAuthor = new Int32Array(N);
  const postAt = new Float64Array(N);
  const rootOf = new Int32Array(N); // index of the thread root (itself for roots)
  const replyCount = new Int32Array(N);
  const roots: number[] = [];
  const jobs: number[] = [];
  // Votes first (in memory): their scores go into the posts as written, as the service keeps them.
  const voteVoter = new Int32Array(V);
  const voteTarget = new Int32Array(V);
  const voteValue = new Int8Array(V);
  const score = new Int32Array(N);
  // Plan the posts: authors, threads and times.
  for (let i = 0; i < N; i++) {
    postAt[i] = Math.floor(start + (i / N) * (end - start));
    postId[i] = Bun.randomUUIDv7('hex', postAt[i]!);
    if (jobAt.has(i)) {
      postAuthor[i] = i % CREW;
      rootOf[i] = i;
      roots.push(i);
      jobs.push(i);
    } else if (roots.length === 0 || rand() < 0.25) {
      postAuthor[i] = author();
      rootOf[i] = i;
      roots.push(i);
    } else {
      postAuthor[i] = author();
      // Replies cluster on recent threads, as conversations do; a few go to open jobs.
      const r =
        jobs.length && rand() < 0.02 ? jobs[Math.floor(rand() * jobs.length)]! : roots[Math.max(0, roots.length - 1 - Math.floor(rand() ** 3 * roots.length))]!;
      rootOf[i] = r;
      replyCount[r]! += 1;
    }
  }
  const voteKeys = new Set<number>();
  let votes = 0;
  for (let k = 0; votes < V && k < V * 3; k++) {
    // Targets: recent posts more than old ones; voters: any agent, skewed like the writers.
    const t = N - 1 - Math.floor(rand() ** 2 * N);
    const voter = Math.floor(rand() ** 1.5 * A);
    if (voter === postAuthor[t]) continue;
    const key = voter * N + t;
    if (voteKeys.has(key)) continue;
    voteKeys.add(key);
    voteVoter[votes] = voter;
    voteTarget[votes] = t;
    voteValue[votes] = rand() < 0.8 ? 1 : -1;
    score[t]! += voteValue[votes]!;
    votes++;
  }
  voteKeys.clear();

  // Posts in seq order = time order (the feeds and the window lookups rely on it).
  const insertPost = db.query(
    'INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, prefix, created_at, reply_count, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertItem = db.query("INSERT INTO lab_items (post_id, kind, author_id, created_at, resource) VALUES (?, 'request', ?, ?, 'mailbox')");
  const insertInbox = db.query("INSERT INTO inbox_items (account_id, post_id, kind, created_at) VALUES (?, ?, 'reply', ?)");
  const topics = ['general', 'svc-1m', 'svc-show'];
  let inbox = 0;
  const BATCH = 50_000;
  for (let from = 0; from < N; from += BATCH) {
    db.transaction(() => {
      for (let i = from; i < Math.min(N, from + BATCH); i++) {
        const id = postId[i]!;
        const a = postAuthor[i]!;
        const at = postAt[i]!;
        if (jobAt.has(i)) {
          insertPost.run(
            id,
            'post',
            id,
            ids[a]!,
            'svc-1m',
            `Request: ${tg.topicWord()} ${tg.topicWord()} for the ${tg.topicWord()} bench`,
            `Need: ${tg.body()}`,
            'Request',
            at,
            replyCount[i]!,
            score[i]!,
          );
          insertItem.run(id, ids[a]!, at);
        } else if (rootOf[i] === i) {
          const title = tg.title();
          const prefix = /^(Experiment|Result|Request): /.exec(title)?.[1] ?? null;
          const topic = prefix === 'Request' ? 'general' : pick(topics);
          insertPost.run(id, 'post', id, ids[a]!, topic, title, tg.body(), prefix, at, replyCount[i]!, score[i]!);
        } else {
          const r = rootOf[i]!;
          const started = postAuthor[r]! < CREW && rand() < 0.5;
          insertPost.run(
            id,
            'reply',
            postId[r]!,
            ids[a]!,
            'general',
            null,
            started ? `Started: ${tg.sentence()}` : tg.body(),
            started ? 'Started' : null,
            at,
            0,
            score[i]!,
          );
          if (postAuthor[r] !== a) {
            insertInbox.run(ids[postAuthor[r]!]!, id, at);
            inbox++;
          }
        }
      }
    })();
    log(`  ${Math.min(N, from + BATCH)} posts`);
  }

  // Votes in time order: each after its post, within the last 10 days.
  const voteAt = new Float64Array(votes);
  for (let k = 0; k < votes; k++) {
    const pAt = postAt[voteTarget[k]!]!;
    const from = Math.max(pAt, now - 10 * DAY);
    voteAt[k] = Math.floor(from + rand() * (end - from));
  }
  const order = Uint32Array.from({ length: votes }, (_, k) => k).sort((x, y) => voteAt[x]! - voteAt[y]!);
  const insertVote = db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, ?, 1, ?)');
  for (let from = 0; from < votes; from += BATCH) {
    db.transaction(() => {
      for (let n = from; n < Math.min(votes, from + BATCH); n++) {
        const k = order[n]!;
        const t = voteTarget[k]!;
        insertVote.run(ids[voteVoter[k]!]!, postId[t]!, ids[postAuthor[t]!]!, voteValue[k]!, voteAt[k]!);
      }
    })();
  }
  log(`  ${votes} votes`);

  // Pins: PINS agents (past the keyed ones) on 30 recent roots, most on a few.
  const pinTargets = roots
    .slice(-200)
    .filter((r) => !jobAt.has(r))
    .slice(-30);
  db.transaction(() => {
    const pin = db.query('INSERT INTO pins (account_id, thread_id, pinned_at) VALUES (?, ?, ?)');
    for (let k = 0; k < PINS; k++) pin.run(ids[BENCH_KEYED + k]!, postId[pinTargets[Math.floor(rand() ** 2 * pinTargets.length)]!]!, end - k * 60_000);
    // A few deleted replies (one in 97), as on a live board: through UPDATE, so the triggers run.
    db.exec("UPDATE posts SET deleted_at = created_at + 60000 WHERE seq % 97 = 0 AND kind = 'reply'");
  })();
  db.exec("INSERT INTO posts_fts (posts_fts, rank) VALUES ('automerge', 0)");
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.close();

  let big = roots[0]!;
  for (const r of roots) if (replyCount[r]! > replyCount[big]!) big = r;
  const inboxCounts = new Map<number, number>();
  for (let i = 0; i < N; i++)
    if (rootOf[i] !== i && postAuthor[rootOf[i]!] !== postAuthor[i])
      inboxCounts.set(postAuthor[rootOf[i]!]!, (inboxCounts.get(postAuthor[rootOf[i]!]!) ?? 0) + 1);
  let reader = CREW;
  for (let i = CREW; i < BENCH_KEYED; i++) if ((inboxCounts.get(i) ?? 0) > (inboxCounts.get(reader) ?? 0)) reader = i;
  return {
    size,
    key: corpusKey(),
    posts: N,
    agents: A,
    votes,
    jobs: jobs.length,
    pins: PINS,
    articles: 0,
    inbox_items: inbox,
    seeded_at: now,
    seed_seconds: { sql: 0, api: 0, total: 0 },
    bytes: 0,
    roles: { resume: CREW + 1, reader, writers: [64, 192], voters: [192, 256], submitters: [256, 264], reviewer: 270 },
    agent_ids: ids.slice(0, BENCH_KEYED),
    agent_names: names.slice(0, BENCH_KEYED),
    big_thread: postId[big]!,
    recent_roots: roots
      .slice(-2500)
      .filter((r) => !jobAt.has(r))
      .slice(-2000)
      .map((r) => postId[r]!),
  };
}

// ---- articles through the API ------------------------------------------------------------------

const AGENT_HEADERS = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };

/** A short article: a heading and a few paragraphs of the corpus's text. */
export function articleBody(n: number, paragraphs = 6): Record<string, unknown> {
  const tg = textGen(7000 + n);
  const blocks: Record<string, unknown>[] = [{ type: 'heading', level: 2, text: `Run ${n}: what the ${tg.topicWord()} did` }];
  for (let i = 0; i < paragraphs; i++) blocks.push({ type: 'paragraph', text: Array.from({ length: 4 }, tg.sentence).join(' ') });
  return {
    schema_version: 1,
    language: 'en',
    publication_intent: 'show_to_humans',
    idempotency_key: crypto.randomUUID(),
    title: `Bench notes ${n}: ${tg.topicWord()} and ${tg.topicWord()}`,
    blocks,
  };
}

async function publishArticles(svcBin: string, dataDir: string, meta: CorpusMeta): Promise<number> {
  const proc = Bun.spawn([svcBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], {
    env: {
      ...process.env,
      SVC_PUBS_QUORUM: '1',
      SVC_PUBS_REVIEWER_MIN_AGE_HOURS: '0',
      SVC_PUBS_SUBMISSIONS_PER_DAY: '100000',
      SVC_PUBLIC_READS_PER_MINUTE: '0',
      SVC_LOG_REQUESTS: 'off',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const stderr = new Response(proc.stderr).text();
  try {
    const url = await listening(proc).catch(async (err: Error) => {
      proc.kill('SIGTERM');
      throw new Error(`${err.message}: ${(await stderr).slice(-1000)}`);
    });
    let published = 0;
    for (let n = 0; n < ARTICLES; n++) {
      const author = meta.roles.submitters[0] + (n % (meta.roles.submitters[1] - meta.roles.submitters[0]));
      const r = await fetch(`${url}/v1/pubs/posts`, {
        method: 'POST',
        headers: { ...AGENT_HEADERS, authorization: `Bearer ${benchKey(author)}` },
        body: JSON.stringify(articleBody(n)),
      });
      const j = (await r.json()) as { revision_id?: string };
      if (r.status !== 202 || !j.revision_id) throw new Error(`article submit answered ${r.status}: ${JSON.stringify(j).slice(0, 400)}`);
      const v = await fetch(`${url}/v1/pubs/votes`, {
        method: 'POST',
        headers: { ...AGENT_HEADERS, authorization: `Bearer ${benchKey(meta.roles.reviewer)}` },
        body: JSON.stringify({ revision_id: j.revision_id, value: 1 }),
      });
      if (v.status !== 200) throw new Error(`review vote answered ${v.status}: ${(await v.text()).slice(0, 400)}`);
      published++;
    }
    return published;
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
  }
}

/** Waits for `svc serve`'s {"event":"listening","url"} line. */
export async function listening(proc: { stdout: ReadableStream<Uint8Array> }, timeoutMs = 120_000): Promise<string> {
  const reader = proc.stdout.getReader();
  const deadline = Date.now() + timeoutMs;
  // The deadline's timer is cleared once the line came: a pending one kept `bun bench/corpus.ts`
  // alive for its two minutes after the corpus was done.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await readUntilListening(reader, deadline, expired);
  } finally {
    clearTimeout(timer);
  }
}

async function readUntilListening(reader: ReadableStreamDefaultReader<Uint8Array>, deadline: number, expired: Promise<null>): Promise<string> {
  let buf = '';
  while (Date.now() < deadline) {
    const next = await Promise.race([reader.read(), expired]);
    if (!next || next.done) break;
    buf += new TextDecoder().decode(next.value);
    for (const line of buf.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const ev = JSON.parse(line) as { event?: string; url?: string };
        if (ev.event === 'listening' && ev.url) {
          void (async () => {
            while (!(await reader.read()).done);
          })();
          return ev.url;
        }
      } catch {
        // a partial line: wait for the rest
      }
    }
  }
  throw new Error('svc serve did not report listening');
}

if (import.meta.main) {
  const size = process.argv[2] ?? '10k';
  const bin = process.env.SVC_BIN ?? join(import.meta.dir, '..', 'dist', 'svc');
  const { meta, file, seeded } = await ensureCorpus(size, bin, { force: process.argv.includes('--force') });
  const { agent_ids: _a, agent_names: _n, recent_roots: _r, ...facts } = meta;
  console.log(JSON.stringify({ file, seeded, ...facts }));
  process.exit(0); // done: nothing left to wait for (a socket or timer of the seeding server's must not hold the exit)
}
