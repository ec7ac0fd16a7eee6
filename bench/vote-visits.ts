// What one vote reads, counted in B-tree pages:
// `node_modules/.bin/bun bench/vote-visits.ts [10k|1m] [VOTES] [recent|spread]`.
//
// Why: a vote at 1M costs 1.06–1.34× a vote at 10k in CPU (docs/performance.md, "Writes' flatness
// measured with both sizes side by side"), and neither the page cache's size, the checkpoints' rate
// nor the accounts' spread changed it. This counts what a time cannot: the pages each statement of
// a vote asks SQLite's pager for (cache hits and misses together, so the count does not depend on
// what happens to be cached), and its virtual-machine steps.
//
// How: svc's own vote path runs in this process (src/compose.ts's context and src/app.ts's routes
// on a copy of the bench corpus; no socket, no timing), with the database's statements wrapped so
// that each run is recorded with its parameters. The votes are the vote row's: the corpus's heavy
// voters on its newest posts (`spread`: the writers on posts over the whole board, the
// votes-on-old-posts row's). The recorded statements are then replayed, vote by vote, each vote
// in its own transaction (VISITS_BATCH=N: N votes a transaction, as a group commit's batch), on a second copy of the corpus opened by the system's libsqlite3
// (Debian's libsqlite3-0, through bun:ffi), which counts them: sqlite3_db_status(CACHE_HIT,
// CACHE_MISS) and sqlite3_stmt_status(VM_STEP). Prints one JSON line: the pages and steps a vote
// takes per statement, in all, the depth of each B-tree the votes touch (SQLite's dbstat), and the
// pages the commits wrote to the log by B-tree (the log's frames, mapped to B-trees by dbstat).
import { Database } from 'bun:sqlite';
import { dlopen, FFIType, type Pointer, ptr } from 'bun:ffi';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig, serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { stablePlan } from '../src/db/stable-plan.ts';
import { benchKey, cachedCorpus, freshDataDir } from './corpus.ts';
import { SERVER_ENV, voteTargets } from './run/context.ts';

const size = process.argv[2] ?? '10k';
const VOTES = Number(process.argv[3] ?? 300);
// `spread`: the targets spread over the whole board (the votes-on-old-posts row's) instead of the newest.
const WHERE = process.argv[4] === 'spread' ? 'spread' : 'recent';
const corpus = cachedCorpus(size);
if (!corpus) throw new Error(`no cached ${size} corpus: run \`node_modules/.bin/bun bench/corpus.ts ${size}\` first`);

type Param = string | number | bigint | boolean | null | Uint8Array;
type Call = { sql: string; params: Param[] | Record<string, Param> };

// 1. The votes, through svc's routes, every statement run recorded.
const liveDir = freshDataDir(corpus.file, size);
const replayDir = freshDataDir(corpus.file, size);
const db = openDatabase(liveDir);
migrate(db);
let recording: Call[] | null = null;
/** The bindings as bun:sqlite takes them: values in turn, one array of them, or one object of named ones. */
const paramsOf = (args: unknown[]): Call['params'] => {
  const [first] = args;
  if (args.length === 1 && Array.isArray(first)) return [...first] as Param[];
  if (args.length === 1 && first && typeof first === 'object' && !(first instanceof Uint8Array)) return { ...(first as Record<string, Param>) };
  return args.filter((p) => p !== undefined) as Param[];
};
const RUNS = new Set(['run', 'get', 'all', 'values', 'iterate']);
const wrap = <T extends object>(stmt: T, sql: string): T =>
  new Proxy(stmt, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !RUNS.has(prop) || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => {
        recording?.push({ sql: stablePlan(sql), params: paramsOf(args) });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
for (const method of ['query', 'prepare'] as const) {
  const original = db[method].bind(db) as (sql: string, ...rest: unknown[]) => object;
  (db as unknown as Record<string, unknown>)[method] = (sql: string, ...rest: unknown[]) => wrap(original(sql, ...rest), sql);
}
for (const method of ['run', 'exec'] as const) {
  const original = db[method].bind(db) as (sql: string, ...rest: unknown[]) => unknown;
  (db as unknown as Record<string, unknown>)[method] = (sql: string, ...rest: unknown[]) => {
    recording?.push({ sql, params: paramsOf(rest) });
    return original(sql, ...rest);
  };
}

// The bench's server settings (its daily limits far above what the rows send).
const config = loadConfig({ ...SERVER_ENV, SVC_DATA_DIR: liveDir, SVC_BASE_URL: 'http://svc.bench' });
const ctx = serviceContext(config, db, systemClock);
const app = createApp(ctx);
const [v0, v1] = corpus.meta.roles.voters;
const targets = voteTargets({ dataDir: liveDir, meta: corpus.meta, file: corpus.file }, v0, v1, Math.max(4000, VOTES), WHERE);
const voters = Array.from({ length: v1 - v0 }, (_, i) => benchKey(v0 + i));
const votes: Call[][] = [];
const refused: Record<string, number> = {};
for (let n = 1; votes.length < VOTES && n < VOTES * 4; n++) {
  // The vote row's walk (bench/run/writes.ts voteScript): each voter through the targets in its own order.
  const k = n % voters.length;
  const t = (Math.floor(n / voters.length) + k * 61) % targets.length;
  recording = [];
  const r = await app.handle(
    new Request('http://svc.bench/votes', {
      method: 'POST',
      headers: {
        'x-agent-protocol': 'svc/1',
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${voters[k]}`,
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({ target_id: targets[t], value: 1 }),
    }),
  );
  const text = await r.text();
  const calls = recording;
  recording = null;
  if (r.status >= 300) {
    const code = `${r.status} ${(JSON.parse(text) as { error?: { code?: string } }).error?.code ?? ''}`;
    refused[code] = (refused[code] ?? 0) + 1;
    continue;
  }
  votes.push(calls);
}
db.close();
rmSync(liveDir, { recursive: true, force: true });

// 2. The same statements, vote by vote, on the second copy, counted by the system's SQLite.
const lib = dlopen('libsqlite3.so.0', {
  sqlite3_open_v2: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
  sqlite3_close_v2: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_errmsg: { args: [FFIType.ptr], returns: FFIType.cstring },
  sqlite3_exec: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  sqlite3_prepare_v2: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  sqlite3_bind_int64: { args: [FFIType.ptr, FFIType.i32, FFIType.i64], returns: FFIType.i32 },
  sqlite3_bind_double: { args: [FFIType.ptr, FFIType.i32, FFIType.f64], returns: FFIType.i32 },
  sqlite3_bind_text: { args: [FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.i64], returns: FFIType.i32 },
  sqlite3_bind_blob: { args: [FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.i64], returns: FFIType.i32 },
  sqlite3_bind_null: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  sqlite3_bind_parameter_index: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  sqlite3_bind_parameter_count: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_step: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_stmt_status: { args: [FFIType.ptr, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  sqlite3_db_status: { args: [FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  sqlite3_db_release_memory: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_reset: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_clear_bindings: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_finalize: { args: [FFIType.ptr], returns: FFIType.i32 },
});
const S = lib.symbols;
const cstr = (s: string) => Buffer.from(`${s}\0`);
const handleOut = new BigUint64Array(1);
const file = join(replayDir, 'svc.sqlite');
if (S.sqlite3_open_v2(cstr(file), ptr(handleOut), 2 /* READWRITE */, null) !== 0) throw new Error(`cannot open ${file}`);
const h = Number(handleOut[0]) as Pointer;
const exec = (sql: string) => {
  if (S.sqlite3_exec(h, cstr(sql), null, null, null) !== 0) throw new Error(`${sql}: ${S.sqlite3_errmsg(h)}`);
};
exec('PRAGMA cache_size = -262144'); // 256 MB: the count below is hits and misses alike
exec('PRAGMA synchronous = OFF'); // nothing here is timed; the replay's commits need not wait for the disk
exec('PRAGMA wal_autocheckpoint = 0'); // every frame the votes wrote stays in the log, to be counted by B-tree below
exec('PRAGMA foreign_keys = ON'); // as every connection of the server (src/db/open.ts): the checks read the parents' keys
// Statements run on the replay's copy before it, to count a change to the schema or the connection
// without building it into svc: VISITS_SETUP='DROP INDEX votes_by_created_at; PRAGMA foreign_keys = OFF'.
if (process.env.VISITS_SETUP) exec(process.env.VISITS_SETUP);
// VISITS_BATCH=N: N votes a transaction, as a group commit batches them (written_per_vote then
// counts a page the batch's votes share once); 1, each vote alone, by default.
const BATCH = Math.max(1, Number(process.env.VISITS_BATCH ?? 1));
const cur = new Int32Array(1);
const hi = new Int32Array(1);
/** Pages asked of the pager since the last call, and of them those it had to read (misses). */
const pagesSoFar = () => {
  S.sqlite3_db_status(h, 7 /* CACHE_HIT */, ptr(cur), ptr(hi), 1);
  const hits = cur[0]!;
  S.sqlite3_db_status(h, 8 /* CACHE_MISS */, ptr(cur), ptr(hi), 1);
  return { pages: hits + cur[0]!, misses: cur[0]! };
};
// The served connection's page cache starts over after each checkpoint's restart (another
// connection wrote the log's header): every DROP_EVERY votes the replay's cache is emptied too, so
// the misses are what a vote reads after such a restart. About every 100 votes at the vote row's
// pace (a checkpoint per 1,000 log pages).
const DROP_EVERY = Number(process.env.VISITS_DROP_EVERY ?? 100);
const prepared = new Map<string, Pointer>();
const prepare = (sql: string): Pointer => {
  let stmt = prepared.get(sql);
  if (!stmt) {
    const out = new BigUint64Array(1);
    if (S.sqlite3_prepare_v2(h, cstr(sql), -1, ptr(out), null) !== 0) throw new Error(`prepare: ${S.sqlite3_errmsg(h)}\n${sql}`);
    stmt = Number(out[0]) as Pointer;
    prepared.set(sql, stmt);
  }
  return stmt;
};
const bind = (stmt: Pointer, at: number, p: Param) => {
  if (p === null) S.sqlite3_bind_null(stmt, at);
  else if (typeof p === 'string') S.sqlite3_bind_text(stmt, at, cstr(p), -1, -1n);
  else if (typeof p === 'boolean') S.sqlite3_bind_int64(stmt, at, p ? 1n : 0n);
  else if (p instanceof Uint8Array) S.sqlite3_bind_blob(stmt, at, p.length ? ptr(p) : null, p.length, -1n);
  else if (typeof p === 'bigint' || Number.isSafeInteger(p)) S.sqlite3_bind_int64(stmt, at, BigInt(p));
  else S.sqlite3_bind_double(stmt, at, p);
};
/** Statements that only open or close a transaction: the replay brackets each vote itself. */
const BRACKET = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b/i;
type Tally = { calls: number; pages: number; misses: number; vm: number };
const bySql = new Map<string, Tally>();
const perVote: number[] = [];
let missesAll = 0;
let writtenAll = 0;
for (const [i, calls] of votes.entries()) {
  if (i % DROP_EVERY === 0) S.sqlite3_db_release_memory(h);
  if (i % BATCH === 0) exec('BEGIN IMMEDIATE');
  let pages = 0;
  for (const call of calls) {
    if (BRACKET.test(call.sql)) continue;
    const stmt = prepare(call.sql);
    if (Array.isArray(call.params)) for (const [j, p] of call.params.entries()) bind(stmt, j + 1, p);
    else
      for (const [name, p] of Object.entries(call.params)) {
        for (const prefix of /^[$:@]/.test(name) ? [''] : ['$', ':', '@']) {
          const at = S.sqlite3_bind_parameter_index(stmt, cstr(prefix + name));
          if (at > 0) bind(stmt, at, p);
        }
      }
    pagesSoFar();
    for (;;) {
      const rc = S.sqlite3_step(stmt);
      if (rc === 101) break;
      if (rc !== 100) throw new Error(`step ${rc}: ${S.sqlite3_errmsg(h)}\n${call.sql}`);
    }
    const { pages: p, misses } = pagesSoFar();
    missesAll += misses;
    const vm = S.sqlite3_stmt_status(stmt, 4 /* VM_STEP */, 1);
    S.sqlite3_reset(stmt);
    S.sqlite3_clear_bindings(stmt);
    const key = call.sql.replace(/\s+/g, ' ').trim();
    const t = bySql.get(key) ?? { calls: 0, pages: 0, misses: 0, vm: 0 };
    t.calls++;
    t.pages += p;
    t.misses += misses;
    t.vm += vm;
    bySql.set(key, t);
    pages += p;
  }
  perVote.push(pages);
  if ((i + 1) % BATCH !== 0 && i + 1 < votes.length) continue;
  S.sqlite3_db_status(h, 9 /* CACHE_WRITE: pages written to the log, at the commit */, ptr(cur), ptr(hi), 1);
  exec('COMMIT');
  S.sqlite3_db_status(h, 9, ptr(cur), ptr(hi), 1);
  writtenAll += cur[0]!;
}
for (const stmt of prepared.values()) S.sqlite3_finalize(stmt);
// The pages the commits wrote, read from the log before the close checkpoints it: each frame is a
// 24-byte header (the page's number first, big-endian) and the page, after the log's 32-byte header.
const framesOf = new Map<number, number>();
{
  const wal = readFileSync(`${file}-wal`);
  const pageSize = wal.readUInt32BE(8);
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    const page = wal.readUInt32BE(at);
    framesOf.set(page, (framesOf.get(page) ?? 0) + 1);
  }
}
S.sqlite3_close_v2(h);

// 3. The depth of the B-trees (root = 1), from dbstat on the replayed copy.
const stat = new Database(file, { readonly: true });
// The B-trees of the tables the votes' statements name (a table's own and its indexes').
const recorded = [...bySql.keys()].join('\n');
const touched = new Set(
  stat
    .query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table'")
    .all()
    .map((r) => r.name)
    .filter((t) => new RegExp(`\\b${t}\\b`).test(recorded)),
);
const treeOf = new Map(
  stat
    .query<{ name: string; tbl: string }, []>('SELECT name, tbl_name AS tbl FROM sqlite_schema')
    .all()
    .map((r) => [r.name, r.tbl]),
);
const depth = Object.fromEntries(
  stat
    .query<{ name: string; depth: number; pages: number }, []>(
      "SELECT name, max(length(path) - length(replace(path, '/', ''))) AS depth, count(*) AS pages FROM dbstat GROUP BY name",
    )
    .all()
    .filter((r) => touched.has(treeOf.get(r.name) ?? ''))
    .map((r) => [r.name, { depth: r.depth, pages: r.pages }]),
);
// Which B-tree each written page belongs to (dbstat), counted per vote.
const written: Record<string, number> = {};
{
  const btreeOf = new Map<number, string>();
  for (const r of stat.query<{ name: string; pageno: number }, []>('SELECT name, pageno FROM dbstat').all()) btreeOf.set(r.pageno, r.name);
  for (const [page, frames] of framesOf) {
    const name = btreeOf.get(page) ?? '(not in a B-tree)';
    written[name] = (written[name] ?? 0) + frames;
  }
}
stat.close();
rmSync(replayDir, { recursive: true, force: true });

const n = votes.length;
const statements = [...bySql.entries()]
  .map(([sql, t]) => ({
    sql: sql.slice(0, 160),
    calls_per_vote: +(t.calls / n).toFixed(2),
    pages_per_call: +(t.pages / t.calls).toFixed(2),
    pages_per_vote: +(t.pages / n).toFixed(2),
    misses_per_vote: +(t.misses / n).toFixed(2),
    vm_per_vote: +(t.vm / n).toFixed(1),
  }))
  .sort((a, b) => b.pages_per_vote - a.pages_per_vote);
perVote.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    size,
    targets: WHERE,
    votes: n,
    refused,
    statements_per_vote: +statements.reduce((s, x) => s + x.calls_per_vote, 0).toFixed(1),
    pages_per_vote: +(perVote.reduce((s, x) => s + x, 0) / n).toFixed(1),
    pages_per_vote_median: perVote[Math.floor(n / 2)],
    misses_per_vote: +(missesAll / n).toFixed(1),
    cache_emptied_every: DROP_EVERY,
    written_per_vote: +(writtenAll / n).toFixed(1),
    // Frames in the log by B-tree, a vote: a page one commit wrote counts once a commit.
    written_by_btree_per_vote: Object.fromEntries(
      Object.entries(written)
        .sort((a, b) => b[1] - a[1])
        .map(([name, frames]) => [name, +(frames / n).toFixed(2)]),
    ),
    vm_per_vote: +statements.reduce((s, x) => s + x.vm_per_vote, 0).toFixed(0),
    statements,
    depth,
  }),
);
process.exit(0);
