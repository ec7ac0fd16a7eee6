// Board benchmark: `node_modules/.bin/bun bench/board.ts`.
//
// Seeds a fresh data dir with agents and 100,000 posts (full-text indexed by the schema's
// triggers), starts `svc serve` on it, and drives it over loopback from a separate Node process
// running autocannon (the generator's script is inlined below). Measures:
//   1. POST /v1/posts writes/s, many agents, a unique Idempotency-Key per request, FTS on
//      (target ≥ 1,500/s, no refusals);
//   2. GET /v1/posts page latency, uncached (every request asks for a different page: the first
//      page or a random deep `before` cursor) at a steady offered rate (target p99 < 10 ms), and
//      at saturation (shown, not judged).
// Prints a table with PASS/FAIL and saves the figures to bench/out/board.json. Exits 0 when a
// target is missed (it is a measuring tool) and 1 when the bench itself could not run. Bounded in
// time: every child is killed on exit, on Ctrl-C, or when a run overstays its time.
//
// Env: BENCH_SECONDS (measured seconds per scenario, default 10), BENCH_WARMUP_SECONDS (default 3),
// BENCH_CONNECTIONS (default 50), BENCH_SEED_POSTS (default 100000), BENCH_AGENTS (default 200),
// BENCH_READ_RATE (req/s offered for the p99 target, default 500).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAgent } from '../src/accounts/accounts.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/compose.ts';
import { serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { encodeCursor } from '../src/http/paging.ts';
import { Children, type LoadCounts, loadSettings, num, prose, ROOT, runBench, warmThenMeasure } from './lib.ts';

const { seconds: SECONDS, warmup: WARMUP, connections: CONNECTIONS } = loadSettings({ seconds: 10, warmup: 3 });
const SEED_POSTS = num('BENCH_SEED_POSTS', 100_000);
const AGENTS = num('BENCH_AGENTS', 200);
const READ_RATE = num('BENCH_READ_RATE', 500);
const TARGET_WRITES = 1500;
const TARGET_READ_P99_MS = 10;
const TAG = Math.random().toString(36).slice(2, 7);
const SERVER_ENV = { SVC_REGISTER_PER_HOUR: '0', SVC_PUBLIC_READS_PER_MINUTE: '0', SVC_POSTING_PER_DAY: '1000000' };

// ---- the load generator (runs under Node, in its own process) --------------------------------

const GENERATOR = `
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
const o = JSON.parse(process.argv[1]);
const latencies = [];
let n = 0;
const keyOf = (i) => o.keys[i % o.keys.length];
function setupRequest(req) {
  const i = n++;
  const headers = { 'x-agent-protocol': 'svc/1', accept: 'application/json', authorization: 'Bearer ' + keyOf(i) };
  if (o.mode === 'write') {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = randomUUID();
    const body = JSON.stringify({ topic: o.topics[i % o.topics.length], title: 'Result ' + o.tag + ' ' + i + ': cache warmup',
      body: 'benchmarked ' + o.prose + ' run ' + i + ' cc @' + o.names[i % o.names.length] });
    return { ...req, method: 'POST', path: '/v1/posts', headers, body };
  }
  // Every read asks for another page: a tenth the first page, the rest a random deep cursor.
  const path = i % 10 === 0 ? '/v1/posts?limit=25' : '/v1/posts?limit=25&before=' + o.cursors[Math.floor(Math.random() * o.cursors.length)];
  return { ...req, method: 'GET', path, headers };
}
const runs = o.rate
  ? Array.from({ length: o.connections }, (_, i) => ({ delay: (i * 1000) / o.connections, connections: 1, overallRate: Math.max(1, Math.round(o.rate / o.connections)) }))
  : [{ delay: 0, connections: o.connections }];
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const results = await Promise.all(runs.map(async (run) => {
  await new Promise((r) => setTimeout(r, run.delay));
  const inst = autocannon({ url: o.url, connections: run.connections, duration: o.duration, timeout: 10,
    ...(run.overallRate ? { overallRate: run.overallRate, ignoreCoordinatedOmission: true } : {}),
    requests: [{ setupRequest }] });
  inst.on('response', (_c, status, _b, ms) => { if (status >= 200 && status < 300) latencies.push(ms); });
  return inst;
}));
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const status = {};
for (const r of results) for (const [c, { count }] of Object.entries(r.statusCodeStats)) status[c] = (status[c] ?? 0) + count;
const sum = (k) => results.reduce((a, r) => a + r[k], 0);
const sorted = Float64Array.from(latencies).sort();
const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
console.log(JSON.stringify({ ok: sum('2xx'), non2xx: sum('non2xx'), errors: sum('errors'), timeouts: sum('timeouts'), status_codes: status,
  rps: results.reduce((a, r) => a + (r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx']) / r.duration, 0),
  ok_per_s: results.reduce((a, r) => a + r['2xx'] / r.duration, 0),
  p50_ms: pct(50), p99_ms: pct(99), max_ms: sorted.length ? sorted[sorted.length - 1] : null,
  window_s: wall, generator_cpu_pct: (cpu.user + cpu.system) / 1e4 / wall }));
`;

interface LoadResult extends LoadCounts {
  rps: number;
  ok_per_s: number;
}
interface Scenario extends LoadResult {
  name: string;
  server_cpu_pct: number;
}

// ---- child processes -------------------------------------------------------------------------

const children = new Children();
const dataDir = mkdtempSync(join(tmpdir(), 'svc-board-bench-'));

const startServer = () => children.server('svc', ['src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], SERVER_ENV);

async function cleanup(): Promise<void> {
  await children.stopAll();
  rmSync(dataDir, { recursive: true, force: true });
}

/** One run of the inlined Node load generator; bounded by a hard kill. */
const load = (opts: Record<string, unknown>) =>
  children.jsonRun<LoadResult>(['node', '--input-type=module', '-e', GENERATOR, JSON.stringify(opts)], Number(opts.duration) + 30);

async function scenario(name: string, pid: number, opts: Record<string, unknown>): Promise<Scenario> {
  const { run, server_cpu_pct } = await warmThenMeasure(name, pid, { warmup: WARMUP, seconds: SECONDS }, (duration) => load({ ...opts, duration }));
  return { name, ...run, server_cpu_pct };
}

// ---- seeding ---------------------------------------------------------------------------------

/** Agents through the real registration code (their keys are needed), posts straight into SQL. */
function seed(): { keys: string[]; names: string[]; maxSeq: number; seconds: number } {
  const t0 = performance.now();
  const db = openDatabase(dataDir);
  migrate(db);
  const ctx = serviceContext(loadConfig({ ...SERVER_ENV, SVC_DATA_DIR: dataDir }), db, systemClock);
  const agents = Array.from({ length: AGENTS }, (_, i) => registerAgent(ctx, { name: `bench_${TAG}_${i}` }));
  const ids = agents.map((a) => a.agent.id);
  const insert = db.query(
    `INSERT INTO posts (id, kind, thread_id, reply_to_id, author_id, topic, title, body, prefix, created_at)
     VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
  );
  const topics = ['general', 'svc-1m', 'svc-show'];
  const start = Date.now() - SEED_POSTS * 1000;
  db.transaction(() => {
    const roots: string[] = [];
    for (let i = 0; i < SEED_POSTS; i++) {
      const id = Bun.randomUUIDv7('hex', start + i * 1000);
      const author = ids[i % ids.length]!;
      // Four roots to one reply: the root feed's index has to skip what is not a root.
      if (i % 5 === 4 && roots.length) {
        insert.run(
          id,
          'reply',
          roots[roots.length - 1 - (i % Math.min(roots.length, 50))]!,
          author,
          'general',
          null,
          `Result 1h: ${prose(i, 30)}`,
          'Result 1h',
          start + i * 1000,
        );
      } else {
        roots.push(id);
        insert.run(id, 'post', id, author, topics[i % 3]!, `Experiment: ${prose(i, 6)}`, prose(i, 60), 'Experiment', start + i * 1000);
      }
    }
  })();
  const maxSeq = (db.query('SELECT max(seq) AS m FROM posts').get() as { m: number }).m;
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { keys: agents.map((a) => a.api_key), names: agents.map((a) => a.agent.name), maxSeq, seconds: (performance.now() - t0) / 1000 };
}

// ---- the bench -------------------------------------------------------------------------------

async function main(): Promise<number> {
  try {
    process.stderr.write(`· seeding ${AGENTS} agents and ${SEED_POSTS} posts\n`);
    const seeded = seed();
    const svc = await startServer();
    const pid = svc.proc.pid;
    const probe = await fetch(`${svc.url}/v1/posts?limit=1`, {
      headers: { 'x-agent-protocol': 'svc/1', accept: 'application/json', authorization: `Bearer ${seeded.keys[0]}` },
    });
    if (probe.status !== 200) throw new Error(`GET /v1/posts failed: ${probe.status} ${await probe.text()}`);

    const cursors = Array.from({ length: 2000 }, () => encodeCursor('posts', 1 + Math.floor(Math.random() * seeded.maxSeq)));
    const base = { url: svc.url, keys: seeded.keys, names: seeded.names, tag: TAG, prose: prose(3, 40), topics: ['general', 'svc-1m', 'svc-show'], cursors };
    const writes = await scenario('POST /v1/posts max', pid, { ...base, mode: 'write', connections: CONNECTIONS });
    const readRate = await scenario(`GET /v1/posts @ ${READ_RATE}/s`, pid, { ...base, mode: 'read', connections: Math.min(CONNECTIONS, 20), rate: READ_RATE });
    const readMax = await scenario('GET /v1/posts max', pid, { ...base, mode: 'read', connections: CONNECTIONS });
    await children.stopAll();

    // Every accepted write is a row, and every row is in the full-text index.
    const db = openDatabase(dataDir);
    // The bench's own posts only: the server's scheduled jobs (the scorecard) may post too.
    const written = (db.query('SELECT count(*) AS n FROM posts WHERE seq > ? AND title LIKE ?').get(seeded.maxSeq, `Result ${TAG} %`) as { n: number }).n;
    const indexed = (db.query(`SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH 'benchmarked' AND rowid > ?`).get(seeded.maxSeq) as { n: number }).n;
    db.close();

    report({ seeded, results: [writes, readRate, readMax], writes, readRate, written, indexed });
    return 0;
  } finally {
    await cleanup();
  }
}

function report(r: { seeded: ReturnType<typeof seed>; results: Scenario[]; writes: Scenario; readRate: Scenario; written: number; indexed: number }): void {
  const fmt = (n: number | null, d = 2) => (n === null ? '-' : n.toFixed(d));
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL  <<<<<');
  const { writes, readRate } = r;
  const clean = (s: Scenario) => s.non2xx === 0 && s.errors === 0 && s.timeouts === 0;
  const targets = [
    {
      target: `POST /v1/posts ≥ ${TARGET_WRITES} writes/s (FTS on, no refusals)`,
      value: `${fmt(writes.ok_per_s, 0)} writes/s`,
      pass: writes.ok_per_s >= TARGET_WRITES && clean(writes),
    },
    {
      target: `GET /v1/posts uncached p99 < ${TARGET_READ_P99_MS} ms at ${READ_RATE}/s`,
      value: `p99 ${fmt(readRate.p99_ms)} ms at ${fmt(readRate.rps, 0)} req/s`,
      pass: readRate.p99_ms !== null && readRate.p99_ms < TARGET_READ_P99_MS && readRate.rps >= READ_RATE * 0.95 && clean(readRate),
    },
    {
      target: 'every accepted write stored and full-text indexed',
      value: `${r.written} stored, ${r.indexed} indexed`,
      pass: r.written === r.indexed && r.written > 0,
    },
  ];
  const facts = {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    bun: Bun.version,
    node: Bun.spawnSync(['node', '--version']).stdout.toString().trim(),
    seeded_posts: SEED_POSTS,
    agents: AGENTS,
    seed_seconds: r.seeded.seconds,
    seconds: SECONDS,
    warmup_seconds: WARMUP,
    connections: CONNECTIONS,
  };
  const all = { facts, scenarios: r.results, targets, written: r.written, indexed: r.indexed };
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/out/board.json'), `${JSON.stringify(all, null, 2)}\n`);

  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
  console.log(`\nsvc board bench — ${facts.nproc} cores (${facts.cpu}), bun ${facts.bun}, node ${facts.node}`);
  console.log(
    `${SEED_POSTS} seeded posts (${fmt(r.seeded.seconds, 1)} s), ${AGENTS} agents; ${SECONDS} s measured after ${WARMUP} s warm-up; loopback; generator in a separate Node process\n`,
  );
  console.log(
    `${pad('scenario', 26)}${lpad('ok/s', 9)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('max ms', 9)}${lpad('non-2xx', 9)}${lpad('srv CPU', 9)}${lpad('gen CPU', 9)}`,
  );
  for (const s of r.results) {
    console.log(
      `${pad(s.name, 26)}${lpad(fmt(s.ok_per_s, 0), 9)}${lpad(fmt(s.p50_ms), 9)}${lpad(fmt(s.p99_ms), 9)}${lpad(fmt(s.max_ms), 9)}` +
        `${lpad(String(s.non2xx + s.errors + s.timeouts), 9)}${lpad(`${fmt(s.server_cpu_pct, 0)} %`, 9)}${lpad(`${fmt(s.generator_cpu_pct, 0)} %`, 9)}`,
    );
  }
  console.log('');
  for (const t of targets) console.log(`${pad(t.target, 60)}${pad(t.value, 32)}${verdict(t.pass)}`);
  const odd = r.results.filter((s) => !clean(s));
  if (odd.length) console.log(`\nstatus codes: ${odd.map((s) => `${s.name} ${JSON.stringify(s.status_codes)}`).join('; ')}`);
}

runBench(main, cleanup);
