// What planning each statement once (src/db/stable-plan.ts) saves, in this process:
//
//   bun bench/stable-plan.ts 10k|1m [--blocks N]
//
// Two copies of the cached bench corpus, each with the app of src/app.ts over it: one opened as
// the service opens it (openDatabase: every parameter behind a unary plus), one with bun:sqlite's
// own Database under the same pragmas and migrations (each statement's text as written: SQLite
// prepares again, at every run, a statement whose plan may depend on a bound LIMIT or equality).
// The same requests go to both, in alternating blocks (the same process, the same warmth, the
// machine's drift shared): votes by the corpus's heavy voters on the newest roots, 32 at a time
// (one group commit, as under load), and the agent reads of bench/run.ts's read group. Prints,
// per workload and arm, the process CPU a request and the time spent in SQLite statements a
// request (each statement's get/run/all/values timed), and the statements that gained most.
// CPU figures depend on the machine's load: compare the arms of one run, not runs.
import { Database, type Statement } from 'bun:sqlite';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig, serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { applyPragmas, DB_FILE, openDatabase } from '../src/db/open.ts';
import { benchKey, ensureCorpus, freshDataDir } from './corpus.ts';
import { ROOT } from './lib.ts';
import { voteTargets } from './run/context.ts';

const size = process.argv[2] ?? '10k';
const argOf = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const BLOCKS = argOf('--blocks', 8);
const BATCH = 32;

type Arm = 'once' | 'as written';
const ARMS: Arm[] = ['once', 'as written'];

// Statement time, by arm and statement text, while `timing` is set.
const spent = new Map<string, { n: number; ns: number }>();
let timing: { arm: Arm } | null = null;

/** Times every run of the statements `db` prepares from now on (by the text as written). */
function timed(db: Database): Database {
  const wrap = <S extends Statement>(st: S, sql: string): S => {
    const key = sql.replace(/\s+/g, ' ').trim().slice(0, 100);
    for (const m of ['get', 'run', 'all', 'values'] as const) {
      const run = (st[m] as (...a: unknown[]) => unknown).bind(st);
      (st as Record<string, unknown>)[m] = (...a: unknown[]) => {
        if (!timing) return run(...a);
        const at = timing.arm;
        const t0 = Bun.nanoseconds();
        try {
          return run(...a);
        } finally {
          const k = `${at}\u0000${key}`;
          const e = spent.get(k) ?? { n: 0, ns: 0 };
          e.n++;
          e.ns += Bun.nanoseconds() - t0;
          spent.set(k, e);
        }
      };
    }
    return st;
  };
  const query = db.query.bind(db);
  const prepare = db.prepare.bind(db);
  Object.assign(db, {
    query: (sql: string) => wrap(query(sql), sql),
    prepare: (sql: string, params?: never) => wrap(prepare(sql, params), sql),
  });
  return db;
}

const { meta, file } = await ensureCorpus(size, process.env.SVC_BIN ?? join(ROOT, 'dist/svc'));
const dirs: Record<Arm, string> = { once: freshDataDir(file, `plan-once-${size}`), 'as written': freshDataDir(file, `plan-written-${size}`) };
try {
  const apps = {} as Record<Arm, ReturnType<typeof createApp>>;
  const dbs = {} as Record<Arm, Database>;
  for (const arm of ARMS) {
    const config = loadConfig({ SVC_DATA_DIR: dirs[arm], SVC_LOG_REQUESTS: 'off', SVC_BASE_URL: 'http://svc.test', SVC_VOTES_PER_DAY: '1000000' });
    let db: Database;
    if (arm === 'once') db = openDatabase(dirs[arm]);
    else {
      db = new Database(join(dirs[arm], DB_FILE), { create: true, strict: true });
      applyPragmas(db, {});
    }
    migrate(db);
    dbs[arm] = timed(db);
    apps[arm] = createApp(serviceContext(config, db, systemClock));
  }

  const agent = (i: number, extra: Record<string, string> = {}) => ({
    'x-agent-protocol': 'svc/1',
    accept: 'application/json',
    authorization: `Bearer ${benchKey(i)}`,
    ...extra,
  });
  const [v0, v1] = meta.roles.voters;
  const voters = v1 - v0;
  // bench/run.ts's targets: the newest roots, none the voters' own or already voted on by them.
  const targets = voteTargets({ dataDir: dirs.once, meta }, v0, v1, 4000);
  const reads: [string, number][] = [
    ['/v1/continuity', meta.roles.resume],
    ['/v1/posts', meta.roles.resume],
    ['/v1/activity', meta.roles.resume],
    ['/v1/inbox', meta.roles.reader],
    ['/v1/me', meta.roles.resume],
    ['/v1/search?q=svc', meta.roles.resume],
  ];
  // The n-th vote of the stream: voter k walks the targets in its own order (no vote repeats).
  const vote = (n: number) => {
    const k = n % voters;
    const t = (Math.floor(n / voters) + k * 61) % targets.length;
    return new Request('http://svc.test/votes', {
      method: 'POST',
      headers: agent(v0 + k, { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }),
      body: JSON.stringify({ target_id: targets[t], value: 1 }),
    });
  };
  const workloads: { name: string; per: number; run: (arm: Arm, block: number) => Promise<number[]> }[] = [
    {
      name: 'POST /votes (32 at a time)',
      per: 320,
      run: async (arm, block) => {
        const statuses: number[] = [];
        for (let b = 0; b < 320; b += BATCH) {
          const rs = await Promise.all(Array.from({ length: BATCH }, (_, i) => apps[arm].handle(vote(block * 320 + b + i))));
          for (const r of rs) {
            statuses.push(r.status);
            await r.arrayBuffer();
          }
        }
        return statuses;
      },
    },
    ...reads.map(([path, who]) => ({
      name: `GET ${path}`,
      per: 100,
      run: async (arm: Arm) => {
        const statuses: number[] = [];
        for (let i = 0; i < 100; i++) {
          const r = await apps[arm].handle(new Request(`http://svc.test${path}`, { headers: agent(who) }));
          statuses.push(r.status);
          await r.arrayBuffer();
        }
        return statuses;
      },
    })),
  ];

  const cpu: Record<string, Record<Arm, { us: number; n: number; stmtNs: number }>> = {};
  const refused: string[] = [];
  for (const w of workloads) {
    cpu[w.name] = { once: { us: 0, n: 0, stmtNs: 0 }, 'as written': { us: 0, n: 0, stmtNs: 0 } };
    // A warm-up block each, not counted.
    for (const arm of ARMS) await w.run(arm, 0);
    for (let block = 1; block <= BLOCKS; block++) {
      for (const arm of block % 2 ? ARMS : [...ARMS].reverse()) {
        const before = [...spent.values()].reduce((s, e) => s + e.ns, 0);
        timing = { arm };
        const c0 = process.cpuUsage();
        const statuses = await w.run(arm, block);
        const c = process.cpuUsage(c0);
        timing = null;
        const after = [...spent.values()].reduce((s, e) => s + e.ns, 0);
        const bad = statuses.filter((s) => s >= 300).length;
        if (bad) refused.push(`${w.name} (${arm}): ${bad} answers not 2xx`);
        const acc = cpu[w.name]![arm];
        acc.us += c.user + c.system;
        acc.n += statuses.length;
        acc.stmtNs += after - before;
      }
    }
  }

  const out: string[] = [];
  out.push(`bench/stable-plan.ts ${size}: ${BLOCKS} alternating blocks a workload and arm, one process (${new Date().toISOString()})`);
  out.push('');
  out.push('| workload | CPU a request, planned once | as written | statements a request, once | as written |');
  out.push('| --- | --- | --- | --- | --- |');
  for (const w of workloads) {
    const c = cpu[w.name]!;
    const f = (arm: Arm) => (c[arm].us / c[arm].n).toFixed(0);
    const s = (arm: Arm) => (c[arm].stmtNs / c[arm].n / 1000).toFixed(1);
    out.push(`| ${w.name} | ${f('once')} µs | ${f('as written')} µs | ${s('once')} µs | ${s('as written')} µs |`);
  }
  // The statements with the largest difference between the arms, per run of each.
  const byKey = new Map<string, Partial<Record<Arm, { n: number; ns: number }>>>();
  for (const [k, e] of spent) {
    const [arm, sql] = k.split('\u0000') as [Arm, string];
    const row = byKey.get(sql) ?? {};
    row[arm] = e;
    byKey.set(sql, row);
  }
  const perRun = (e?: { n: number; ns: number }) => (e?.n ? e.ns / e.n / 1000 : 0);
  const gains = [...byKey]
    .map(([sql, r]) => ({ sql, once: perRun(r.once), written: perRun(r['as written']), runs: r.once?.n ?? 0 }))
    .filter((g) => g.runs > 0)
    .sort((a, b) => (b.written - b.once) * b.runs - (a.written - a.once) * a.runs);
  out.push('');
  out.push('| statement (as written) | runs | µs a run, once | as written |');
  out.push('| --- | --- | --- | --- |');
  for (const g of gains.slice(0, 15)) out.push(`| \`${g.sql.replaceAll('|', '\\|')}\` | ${g.runs} | ${g.once.toFixed(1)} | ${g.written.toFixed(1)} |`);
  if (refused.length) out.push('', `Not every answer was 2xx: ${refused.join('; ')}`);
  console.log(out.join('\n'));
  for (const arm of ARMS) dbs[arm].close();
  process.exitCode = refused.length ? 1 : 0;
} finally {
  for (const arm of ARMS) rmSync(dirs[arm], { recursive: true, force: true });
}
