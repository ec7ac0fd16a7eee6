// Votes benchmark: `node_modules/.bin/bun bench/votes.ts`.
//
// Seeds a fresh data dir with 1,000 agents (real registration code, for their keys) and 10,000
// posts (straight into SQL), starts the service on it, and has every agent vote at once from a
// separate Node process running autocannon over loopback: requests go round the agents, so each
// agent has votes in flight throughout, and each agent's votes go to posts of 30 different authors
// (no vote ring, no suspension). Then the server is stopped and every post's score is checked
// against a recount from the votes table. Prints votes/s, p50, p99 and the checks with PASS/FAIL;
// saves the figures to bench/out/votes.json. Exits 0 when a target is missed (a measuring tool),
// 1 when the bench itself could not run. Every child is killed on exit, Ctrl-C or overstay.
//
// Env: BENCH_AGENTS (default 1000), BENCH_POSTS (default 10000), BENCH_VOTES_PER_AGENT (default
// 30, fewer than the agents), BENCH_CONNECTIONS (default 1000: one per agent).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAgent } from '../src/accounts/accounts.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/compose.ts';
import { serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { Children, cpuMicros, type LoadCounts, num, ROOT, runBench } from './lib.ts';

/** A positive whole number from the environment (counts of agents, posts and votes). */
const count = (name: string, dflt: number): number => {
  const v = num(name, dflt);
  if (!Number.isInteger(v)) throw new Error(`${name} must be a positive whole number`);
  return v;
};
const SERVER_ENV = { SVC_REGISTER_PER_HOUR: '0', SVC_PUBLIC_READS_PER_MINUTE: '0', SVC_VOTES_PER_DAY: '100000' };
const TARGET_VOTES_PER_S = 2000;

// ---- the load generator (runs under Node, in its own process) --------------------------------

const GENERATOR = `
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
const o = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const latencies = [];
let n = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const inst = autocannon({ url: o.url, connections: o.connections, amount: o.votes.length, timeout: 30,
  requests: [{ setupRequest(req) {
    const [agent, target, value] = o.votes[n++ % o.votes.length];
    return { ...req, method: 'POST', path: '/votes', body: JSON.stringify({ target_id: target, value }),
      headers: { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json', authorization: 'Bearer ' + o.keys[agent] } };
  } }] });
inst.on('response', (_c, status, _b, ms) => { if (status === 200) latencies.push(ms); });
const r = await inst;
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const sorted = Float64Array.from(latencies).sort();
const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const status = {};
for (const [c, { count }] of Object.entries(r.statusCodeStats)) status[c] = count;
console.log(JSON.stringify({ ok: r['2xx'], non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, status_codes: status,
  window_s: wall, ok_per_s: r['2xx'] / wall, p50_ms: pct(50), p99_ms: pct(99), max_ms: sorted.length ? sorted[sorted.length - 1] : null,
  generator_cpu_pct: (cpu.user + cpu.system) / 1e4 / wall }));
`;

interface LoadResult extends LoadCounts {
  ok_per_s: number;
}

// ---- child processes -------------------------------------------------------------------------

const children = new Children();

const startServer = (dataDir: string) => children.server('svc', ['src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], SERVER_ENV);

async function drive(dataDir: string, opts: { url: string; connections: number; keys: string[]; votes: [number, string, 1 | -1][] }): Promise<LoadResult> {
  // The plan is too large for an argument: it goes through a file.
  const planFile = join(dataDir, 'vote-plan.json');
  writeFileSync(planFile, JSON.stringify(opts));
  return children.jsonRun<LoadResult>(['node', '--input-type=module', '-e', GENERATOR, planFile], 300);
}

// ---- seeding and the vote plan ---------------------------------------------------------------

interface Seeded {
  keys: string[];
  posts: string[]; // post j is written by agent j % agents
  seconds: number;
}

function seed(dataDir: string, agents: number, posts: number): Seeded {
  const t0 = performance.now();
  const db = openDatabase(dataDir);
  migrate(db);
  const ctx = serviceContext(loadConfig({ ...SERVER_ENV, SVC_DATA_DIR: dataDir }), db, systemClock);
  const tag = Math.random().toString(36).slice(2, 7);
  const registered = Array.from({ length: agents }, (_, i) => registerAgent(ctx, { name: `vb_${tag}_${i}` }));
  const insert = db.query(`INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, 'post', ?, ?, 'general', ?, ?, ?)`);
  const ids: string[] = [];
  const start = Date.now() - posts * 1000;
  db.transaction(() => {
    for (let j = 0; j < posts; j++) {
      const id = Bun.randomUUIDv7('hex', start + j * 1000);
      ids.push(id);
      insert.run(id, id, registered[j % agents]!.agent.id, `Result ${j}: measured`, 'A measured result with source and time.', start + j * 1000);
    }
  })();
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { keys: registered.map((r) => r.api_key), posts: ids, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Vote k of agent a goes to the author k + 1 places further round the circle (never itself,
 * never the same author twice: at most 1/perAgent of its votes to one author), on one of that
 * author's posts. Ordered round the agents, so all of them vote at once. One in four is a -1.
 * Returns [agent, post index, value].
 */
function plan(agents: number, posts: number, perAgent: number): [number, number, 1 | -1][] {
  const perAuthor = Math.floor(posts / agents);
  const out: [number, number, 1 | -1][] = [];
  for (let k = 0; k < perAgent; k++) {
    for (let a = 0; a < agents; a++) {
      const author = (a + 1 + k) % agents;
      out.push([a, author + agents * ((a + k) % perAuthor), (a + k) % 4 === 0 ? -1 : 1]);
    }
  }
  return out;
}

// ---- the bench -------------------------------------------------------------------------------

interface Checks {
  stored: number;
  mismatched: number;
  score_sum: number;
  recount_sum: number;
  quota_used: number;
  suspensions: number;
}

function check(dataDir: string): Checks {
  const db = openDatabase(dataDir);
  const one = (sql: string) => (db.query(sql).get() as { n: number }).n;
  const checks = {
    stored: one('SELECT count(*) AS n FROM votes'),
    // Every post's stored score against the sum of its votes' signed weights.
    mismatched: one(`SELECT count(*) AS n FROM posts p LEFT JOIN (SELECT target_id, sum(value * weight) AS s FROM votes GROUP BY target_id) v
                     ON v.target_id = p.id WHERE p.score != coalesce(v.s, 0)`),
    score_sum: one('SELECT coalesce(sum(score), 0) AS n FROM posts'),
    recount_sum: one('SELECT coalesce(sum(value * weight), 0) AS n FROM votes'),
    quota_used: one(`SELECT coalesce(sum(used), 0) AS n FROM quota_usage WHERE channel = 'votes'`),
    suspensions: one('SELECT count(*) AS n FROM voting_suspensions'),
  };
  db.close();
  return checks;
}

async function main(): Promise<number> {
  const AGENTS = count('BENCH_AGENTS', 1000);
  const POSTS = count('BENCH_POSTS', 10_000);
  const PER_AGENT = count('BENCH_VOTES_PER_AGENT', 30);
  const CONNECTIONS = count('BENCH_CONNECTIONS', AGENTS);
  if (POSTS < AGENTS || PER_AGENT >= AGENTS) {
    throw new Error('need BENCH_POSTS >= BENCH_AGENTS and BENCH_VOTES_PER_AGENT < BENCH_AGENTS');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-votes-bench-'));
  try {
    process.stderr.write(`· seeding ${AGENTS} agents and ${POSTS} posts\n`);
    const seeded = seed(dataDir, AGENTS, POSTS);
    const votes = plan(AGENTS, POSTS, PER_AGENT).map(([a, p, v]) => [a, seeded.posts[p]!, v] as [number, string, 1 | -1]);
    const distinct = new Set(votes.map(([a, t]) => `${a}/${t}`)).size;
    if (distinct !== votes.length) throw new Error(`the vote plan repeats ${votes.length - distinct} votes`);
    const svc = await startServer(dataDir);
    process.stderr.write(`· svc serve at ${svc.url}; ${votes.length} votes over ${CONNECTIONS} connections\n`);
    const cpu0 = cpuMicros(svc.proc.pid);
    const r = await drive(dataDir, { url: svc.url, connections: CONNECTIONS, keys: seeded.keys, votes });
    const serverCpu = (cpuMicros(svc.proc.pid) - cpu0) / 1e4 / r.window_s;
    await children.stopAll();
    const c = check(dataDir);
    report({ AGENTS, POSTS, PER_AGENT, CONNECTIONS, seeded, r, serverCpu, c, planned: votes.length });
    return 0;
  } finally {
    await children.stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(x: {
  AGENTS: number;
  POSTS: number;
  PER_AGENT: number;
  CONNECTIONS: number;
  seeded: Seeded;
  r: LoadResult;
  serverCpu: number;
  c: Checks;
  planned: number;
}): void {
  const { r, c } = x;
  const fmt = (n: number | null, d = 2) => (n === null ? '-' : n.toFixed(d));
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL  <<<<<');
  const clean = r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.ok === x.planned;
  const targets = [
    {
      target: `POST /votes ≥ ${TARGET_VOTES_PER_S} votes/s sustained, none refused`,
      value: `${fmt(r.ok_per_s, 0)} votes/s`,
      pass: r.ok_per_s >= TARGET_VOTES_PER_S && clean,
    },
    { target: 'every accepted vote stored once', value: `${c.stored} stored of ${r.ok} accepted`, pass: c.stored === r.ok && c.stored === x.planned },
    {
      target: 'scores exact (each post against a recount)',
      value: `${c.mismatched} posts off, sums ${c.score_sum}/${c.recount_sum}`,
      pass: c.mismatched === 0 && c.score_sum === c.recount_sum,
    },
    { target: 'allowance charged once per vote', value: `${c.quota_used} used`, pass: c.quota_used === c.stored },
    { target: 'no suspension (votes spread over authors)', value: `${c.suspensions} suspensions`, pass: c.suspensions === 0 },
  ];
  const facts = {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    bun: Bun.version,
    node: Bun.spawnSync(['node', '--version']).stdout.toString().trim(),
    agents: x.AGENTS,
    posts: x.POSTS,
    votes: x.planned,
    connections: x.CONNECTIONS,
    seed_seconds: x.seeded.seconds,
    server: 'src/main.ts serve',
  };
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/out/votes.json'), `${JSON.stringify({ facts, load: r, server_cpu_pct: x.serverCpu, checks: c, targets }, null, 2)}\n`);

  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  console.log(`\nsvc votes bench — ${facts.nproc} cores (${facts.cpu}), bun ${facts.bun}, node ${facts.node}`);
  console.log(
    `${x.AGENTS} agents, ${x.POSTS} posts (seeded in ${fmt(x.seeded.seconds, 1)} s), ${x.planned} votes (${x.PER_AGENT} per agent, each to a different author), ${x.CONNECTIONS} connections; server: ${facts.server}; loopback, generator in a separate Node process\n`,
  );
  console.log(
    `votes/s ${fmt(r.ok_per_s, 0)} over ${fmt(r.window_s, 1)} s · p50 ${fmt(r.p50_ms)} ms · p99 ${fmt(r.p99_ms)} ms · max ${fmt(r.max_ms)} ms · server CPU ${fmt(x.serverCpu, 0)} % · generator CPU ${fmt(r.generator_cpu_pct, 0)} %`,
  );
  if (!clean) console.log(`status codes ${JSON.stringify(r.status_codes)}, errors ${r.errors}, timeouts ${r.timeouts}`);
  console.log('');
  for (const t of targets) console.log(`${pad(t.target, 52)}${pad(t.value, 34)}${verdict(t.pass)}`);
}

runBench(main, () => children.stopAll());
