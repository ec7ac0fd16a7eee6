// Public reads benchmark: `node_modules/.bin/bun bench/public.ts`.
//
// Seeds a fresh data dir with 100,000 posts and replies (SQL inserts in large transactions),
// starts `svc serve` on it (edge limit off), fetches the real GET /api/activity body once, and
// starts a bare Bun.serve in its own process that answers the same path with the very same bytes
// and headers. Both are then driven over loopback by wrk (bench/wrk.ts) in its own process, so
// that the servers, not the generator, are the bottleneck. Target: the cached GET /api/activity
// reaches at least 70 % of the raw server's requests/s. Prints req/s, p50 and p99 for both, each
// server's CPU and the generator's, and the ratio with PASS/FAIL; when the generator used ≥ 90 %
// of its cores in a run, the figures measure the generator and no verdict is printed. The last
// line is the JSON of every figure. Exits 0 when the target is missed (it is a measuring tool),
// 1 when the bench itself could not run, 2 when wrk is not installed (the message says how to
// install it). Bounded: every child is killed on exit, on Ctrl-C, or when a run overstays its
// time; loopback only.
//
// Env: BENCH_SECONDS (measured seconds per run, default 10), BENCH_WARMUP_SECONDS (default 3),
// BENCH_CONNECTIONS (default 50), BENCH_WRK_THREADS (default: the cores the server leaves, at
// least 1), BENCH_SEED_POSTS (default 100000), BENCH_AGENTS (default 200), BENCH_PATH (default
// /api/activity; also /api/office, /api/leaderboard, /api/jobs …).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { BUN, Children, lastJsonLine, loadSettings, num, prose, runBench, warmThenMeasure } from './lib.ts';
import { findWrk, runWrk, WRK_MISSING, type WrkResult } from './wrk.ts';

const { seconds: SECONDS, warmup: WARMUP, connections: CONNECTIONS } = loadSettings({ seconds: 10, warmup: 3 });
const SEED_POSTS = num('BENCH_SEED_POSTS', 100_000);
const PATH = process.env.BENCH_PATH ?? '/api/activity';
const TARGET_RATIO = 0.7;
const SERVER_BOUND_PCT = 80; // a server this busy (of one core) is the bottleneck
const THREADS = num('BENCH_WRK_THREADS', Math.max(1, Math.floor(availableParallelism() / 2)));
const AGENTS = num('BENCH_AGENTS', 200);
const CREW = 10;
const OVERALL_LIMIT_MS = 15 * 60_000;
const SERVER_ENV = { SVC_PUBLIC_READS_PER_MINUTE: '0', SVC_REGISTER_PER_HOUR: '0' };
// The headers the raw server copies from svc: everything but what changes per request.
const COPIED_HEADERS = ['content-type', 'cache-control', 'etag', 'access-control-allow-origin'];
// Writes per second to svc while it is measured (registrations through the API, from their own
// process): a public document must stay cached under writes. 0 = none.
const WRITES_PER_SECOND = Number(process.env.BENCH_WRITES_PER_SECOND ?? 10);

const WRITER = `
const { url, perSecond } = JSON.parse(process.env.WRITER_SPEC);
const tag = Math.random().toString(36).slice(2, 8);
const statuses = {};
let n = 0;
let stop = false;
process.on('SIGTERM', () => { stop = true; });
const deadline = Date.now() + 600_000;
while (!stop && Date.now() < deadline) {
  const t0 = Date.now();
  const r = await fetch(url + '/v1/agents', { method: 'POST', headers: { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'w' + tag + '_' + n++ }) });
  await r.text();
  statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  await Bun.sleep(Math.max(0, 1000 / perSecond - (Date.now() - t0)));
}
console.log(JSON.stringify({ writes: n, statuses }));
process.exit(0);
`;

interface Run extends WrkResult {
  name: string;
  server_cpu_pct: number; // of one core
  server_cpu_us_per_req: number;
}

// ---- child processes -------------------------------------------------------------------------

const children = new Children();
const dataDir = mkdtempSync(join(tmpdir(), 'svc-public-bench-'));

async function cleanup(): Promise<void> {
  await children.stopAll();
  rmSync(dataDir, { recursive: true, force: true });
}

const load = (url: string, seconds: number) => runWrk(children, url, { threads: THREADS, connections: CONNECTIONS, seconds });

async function run(name: string, url: string, pid: number): Promise<Run> {
  const { run: r, server_cpu_us: used, server_cpu_pct } = await warmThenMeasure(name, pid, { warmup: WARMUP, seconds: SECONDS }, (s) => load(url, s));
  return { name, ...r, server_cpu_pct, server_cpu_us_per_req: r.completed ? used / r.completed : 0 };
}

// ---- seeding ---------------------------------------------------------------------------------

/** Accounts and posts straight into SQL: four roots to one reply, realistic lengths, some crew. */
function seed(): { seconds: number; posts: number } {
  const t0 = performance.now();
  const db = openDatabase(dataDir);
  migrate(db);
  const start = Date.now() - SEED_POSTS * 1000;
  const ids: string[] = [];
  db.transaction(() => {
    const account = db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)');
    const crew = db.query('INSERT INTO crew (account_id, desk, added_at) VALUES (?, ?, ?)');
    for (let i = 0; i < AGENTS; i++) {
      const id = Bun.randomUUIDv7('hex', start);
      account.run(id, `bench_${i}`, `bench_${i}`, `bench-no-key-${i}`, start);
      if (i < CREW) crew.run(id, 'research', start);
      ids.push(id);
    }
  })();
  const insert = db.query(
    `INSERT INTO posts (id, kind, thread_id, reply_to_id, author_id, topic, title, body, prefix, created_at)
     VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
  );
  const topics = ['general', 'svc-1m', 'svc-show'];
  const roots: string[] = [];
  const BATCH = 20_000;
  for (let from = 0; from < SEED_POSTS; from += BATCH) {
    db.transaction(() => {
      for (let i = from; i < Math.min(SEED_POSTS, from + BATCH); i++) {
        const at = start + i * 1000;
        const id = Bun.randomUUIDv7('hex', at);
        const author = ids[i % ids.length]!;
        if (i % 5 === 4 && roots.length) {
          const thread = roots[roots.length - 1 - (i % Math.min(roots.length, 50))]!;
          insert.run(id, 'reply', thread, author, 'general', null, `Result 1h: ${prose(i, 12)}\n${prose(i + 1, 40)}`, 'Result 1h', at);
        } else {
          roots.push(id);
          insert.run(id, 'post', id, author, topics[i % 3]!, `Experiment: ${prose(i, 8)}`, `Target: ${prose(i, 10)}\n\n${prose(i, 60)}`, 'Experiment', at);
        }
      }
    })();
  }
  const posts = (db.query('SELECT count(*) AS n FROM posts').get() as { n: number }).n;
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { seconds: (performance.now() - t0) / 1000, posts };
}

// ---- the bench -------------------------------------------------------------------------------

async function main(): Promise<number> {
  try {
    process.stderr.write(`· seeding ${AGENTS} agents and ${SEED_POSTS} posts\n`);
    const seeded = seed();
    const { proc: svcProc, url: svcUrl } = await children.server(
      'svc',
      ['src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir],
      SERVER_ENV,
    );

    // The real document, once: the raw server answers these very bytes and headers.
    const probe = await fetch(`${svcUrl}${PATH}`);
    const body = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${PATH} failed: ${probe.status} ${body.slice(0, 500)}`);
    const items = (JSON.parse(body) as { items?: unknown[] }).items?.length ?? 0;
    const { proc: rawProc, url: rawUrl } = await children.rawTwin({
      path: PATH,
      body,
      from: probe.headers,
      copy: COPIED_HEADERS,
      file: join(dataDir, 'raw-body.json'),
    });

    const raw = await run(`raw Bun.serve ${PATH}`, `${rawUrl}${PATH}`, rawProc.pid);
    const writer =
      WRITES_PER_SECOND > 0 ? children.spawn([BUN, '-e', WRITER], { WRITER_SPEC: JSON.stringify({ url: svcUrl, perSecond: WRITES_PER_SECOND }) }) : null;
    const svc = await run(`svc ${PATH} (cached${writer ? `, ${WRITES_PER_SECOND} writes/s` : ''})`, `${svcUrl}${PATH}`, svcProc.pid);
    let writes: unknown = null;
    if (writer) {
      writer.kill('SIGTERM');
      writes = lastJsonLine(await new Response(writer.stdout).text(), 'null');
      await writer.exited;
      children.forget(writer);
      process.stderr.write(`· writes during the svc run: ${JSON.stringify(writes)}\n`);
    }
    // The document svc served during the run is still the one it was built as (no rebuild storm).
    const after = await fetch(`${svcUrl}${PATH}`);
    await after.text();
    report({ seeded, bytes: Buffer.byteLength(body), items, raw, svc, age: after.headers.get('age') });
    return 0;
  } finally {
    await cleanup();
  }
}

function report(r: { seeded: ReturnType<typeof seed>; bytes: number; items: number; raw: Run; svc: Run; age: string | null }): void {
  const fmt = (n: number | null, d = 2) => (n === null ? '-' : n.toFixed(d));
  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
  const clean = (s: Run) => s.non2xx === 0 && s.errors === 0 && s.timeouts === 0;
  const ratio = r.svc.rps / r.raw.rps;
  const saturated = [r.raw, r.svc].filter((s) => s.generator_saturated);
  // Neither side busy: another process held the CPU, and the ratio says nothing about the servers.
  const idle = [r.raw, r.svc].filter((s) => !s.generator_saturated && s.server_cpu_pct < SERVER_BOUND_PCT);
  const pass = saturated.length === 0 && idle.length === 0 && ratio >= TARGET_RATIO && clean(r.svc) && clean(r.raw);
  const facts = {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    bun: Bun.version,
    node: Bun.spawnSync(['node', '--version']).stdout.toString().trim(),
    seeded_posts: r.seeded.posts,
    seed_seconds: r.seeded.seconds,
    path: PATH,
    document_bytes: r.bytes,
    document_items: r.items,
    seconds: SECONDS,
    warmup_seconds: WARMUP,
    connections: CONNECTIONS,
    generator: `wrk, ${THREADS} thread(s)`,
  };
  console.log(`\nsvc public reads bench — ${facts.nproc} cores (${facts.cpu}), bun ${facts.bun}, node ${facts.node}`);
  console.log(
    `${r.seeded.posts} posts seeded (${fmt(r.seeded.seconds, 1)} s); GET ${PATH}: ${r.items} items, ${r.bytes} bytes; ${CONNECTIONS} connections; ${SECONDS} s measured after ${WARMUP} s warm-up; loopback; generator: wrk with ${THREADS} thread(s) in its own process\n`,
  );
  console.log(
    `${pad('server', 34)}${lpad('req/s', 10)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('max ms', 9)}${lpad('non-2xx', 9)}${lpad('srv CPU', 9)}${lpad('µs/req', 8)}${lpad('gen CPU', 9)}`,
  );
  for (const s of [r.raw, r.svc]) {
    console.log(
      `${pad(s.name, 34)}${lpad(fmt(s.rps, 0), 10)}${lpad(fmt(s.p50_ms), 9)}${lpad(fmt(s.p99_ms), 9)}${lpad(fmt(s.max_ms), 9)}` +
        `${lpad(String(s.non2xx + s.errors + s.timeouts), 9)}${lpad(`${fmt(s.server_cpu_pct, 0)} %`, 9)}${lpad(fmt(s.server_cpu_us_per_req, 1), 8)}${lpad(`${fmt(s.generator_cpu_pct, 0)} %`, 9)}`,
    );
  }
  const verdict = saturated.length
    ? `NO VERDICT: the generator was saturated (${saturated.map((s) => `${s.name}: ${fmt(s.generator_cpu_pct, 0)} % of ${s.threads * 100} %`).join('; ')}), so req/s measured wrk, not the servers; rerun with more BENCH_WRK_THREADS or fewer connections`
    : idle.length
      ? `NO VERDICT: ${idle.map((s) => `${s.name} used ${fmt(s.server_cpu_pct, 0)} % of a core`).join('; ')} while wrk was not saturated: another process held the CPU; rerun on a quiet machine`
      : pass
        ? 'PASS'
        : 'FAIL  <<<<<';
  console.log(`\n${pad(`cached GET ${PATH} ≥ ${TARGET_RATIO * 100} % of raw Bun.serve req/s`, 60)}${pad(`${fmt(ratio * 100, 1)} %`, 12)}${verdict}`);
  const cpuRatio = r.raw.server_cpu_us_per_req / r.svc.server_cpu_us_per_req;
  console.log(`${pad('server CPU per request, raw ÷ svc (shown, not judged)', 60)}${fmt(cpuRatio * 100, 1)} %`);
  console.log(
    JSON.stringify({
      facts,
      raw: r.raw,
      svc: r.svc,
      ratio,
      cpu_ratio: cpuRatio,
      target: TARGET_RATIO,
      pass,
      verdict: saturated.length || idle.length ? null : pass,
      age_after_run: r.age,
    }),
  );
}

if (!findWrk()) {
  console.error(WRK_MISSING);
  process.exit(2);
}
runBench(main, cleanup, { limitMs: OVERALL_LIMIT_MS });
