// Show submissions against a full week, through a real server: `node_modules/.bin/bun bench/show.ts`.
//
// 1. Seeds N Show roots (default 5,000, SVC_BENCH_SHOW_ROOTS) spread over the last 6.5 days into
//    a fresh on-disk database (a temp dir), through the board's own createThread.
// 2. Serves the app from this process (app.listen, as `svc serve` does) and warms it with one
//    submission (the novelty worker starts and receives the week's word sets: `cold_ms`).
// 3. A child process submits M Show roots (default 500, SVC_BENCH_SHOW_MEASURED) over HTTP,
//    SVC_BENCH_SHOW_CONCURRENCY (default 2) at a time, every fifth a reordered near-duplicate of a
//    seeded root (409 NOT_NOVEL); meanwhile another child asks /healthz every 5 ms.
// Prints both latency figures, the server's CPU, how many submissions were scored in the worker
// (the route must await the board's prepareThread for that), and PASS/FAIL against the targets:
// submission p99 < 50 ms, /healthz p99 < 20 ms. Exits 0 either way, 1 when the bench could not run.
// Bounded: children are stopped at the end, on Ctrl-C, or after 10 minutes; loopback only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAgent } from '../src/accounts/accounts.ts';
import { addCrew } from '../src/accounts/admin.ts';
import { accountByName } from '../src/accounts/accounts.ts';
import { createApp } from '../src/app.ts';
import { createThread } from '../src/board/posts.ts';
import type { Clock } from '../src/clock.ts';
import { loadConfig } from '../src/compose.ts';
import { serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { openDatabase, tx } from '../src/db/open.ts';
import { noveltyStats } from '../src/show/novelty-pool.ts';
import { BUN, Children, cpuMicros, lastJsonLine, latencyMs, num, probeMain, round, runBench } from './lib.ts';

const ROOTS = num('SVC_BENCH_SHOW_ROOTS', 5000);
const MEASURED = num('SVC_BENCH_SHOW_MEASURED', 500);
const CONCURRENCY = num('SVC_BENCH_SHOW_CONCURRENCY', 2);
const TARGET_SUBMIT_P99_MS = 50;
const TARGET_HEALTHZ_P99_MS = 20;
const PER_AGENT = 50;

const COMMON = 'the of and to in a is that for it on with as was at by this we our from are be or an you can your how'.split(' ');
const letters = (i: number) => [...String(i)].map((d) => 'qwrtpsdfgh'[Number(d)]).join('');
const META = 'Format: post\nAudience: people who run small services on their own\nEvidence: none';

/** Root i: a third common words, the rest its own (no digits, so no evidence is needed). */
function rootOf(i: number) {
  const l = letters(i);
  const words = (n: number, salt: string) =>
    Array.from({ length: n }, (_, k) => (k % 3 === 0 ? COMMON[(i + k) % COMMON.length]! : `${l}${salt}${k}x`.replace(/\d/g, (d) => 'zvbnmklyju'[Number(d)]!)));
  const hook = `Finding ${words(6, 'h').join(' ')}`;
  return { hook, rest: words(24, 't') };
}
const asPost = (hook: string, rest: string[]) => ({ topic: 'svc-show', title: `Show: ${hook}`, body: `${hook}\n${rest.join(' ')}\n${META}` });
const fresh = (i: number) => {
  const r = rootOf(i);
  return asPost(r.hook, r.rest);
};
/** Seeded root j with its words reordered: the same sets, so 409 NOT_NOVEL. */
const nearDuplicate = (j: number) => {
  const r = rootOf(j);
  return asPost(`Finding ${r.hook.split(' ').slice(1).reverse().join(' ')}`, [...r.rest].reverse());
};

// The children: a /healthz prober and the submitter (each prints one JSON line at the end).
if (process.argv[2] === '--probe') await probeMain(process.argv[3]!, 300_000);
if (process.argv[2] === '--submit') {
  const [url, keysFile] = [process.argv[3]!, process.argv[4]!];
  const keys = (await Bun.file(keysFile).json()) as string[];
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  const one = async (n: number) => {
    const i = ROOTS + 1 + n;
    const body = n % 5 === 4 ? nearDuplicate((n * 7919) % ROOTS) : fresh(i);
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/posts`, {
      method: 'POST',
      headers: {
        'x-agent-protocol': 'svc/1',
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${keys[Math.floor(n / PER_AGENT)]}`,
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    times.push(performance.now() - t0);
    const k = res.status === 200 ? '200' : `${res.status} ${(JSON.parse(text) as { error?: { code?: string } }).error?.code}`;
    statuses[k] = (statuses[k] ?? 0) + 1;
  };
  const t0 = performance.now();
  const cpu0 = cpuMicros(process.pid);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < MEASURED) await one(next++);
    }),
  );
  const wall = performance.now() - t0;
  // The generator's own CPU, printed beside the server's: the figures measure the server only while this stays low.
  const generatorCpuPct = round(((cpuMicros(process.pid) - cpu0) / 1000 / wall) * 100, 1);
  console.log(
    JSON.stringify({
      submissions: times.length,
      per_s: round(times.length / (wall / 1000), 1),
      statuses,
      ...latencyMs(times),
      generator_cpu_pct: generatorCpuPct,
    }),
  );
  process.exit(0);
}

const children = new Children();
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-show-'));

async function main(): Promise<number> {
  // Seeding moves time by hand over the last 6.5 days; serving runs on real time.
  const now = Date.now();
  let seeding: number | null = now - 6.5 * 86_400_000;
  const clock: Clock = {
    now: () => seeding ?? Date.now(),
    after: (ms, fn) =>
      (
        (t) => () =>
          clearTimeout(t)
      )(setTimeout(fn, ms)),
  };
  const config = loadConfig({
    SVC_BASE_URL: 'http://svc.test',
    SVC_DATA_DIR: dir,
    SVC_LOG_REQUESTS: 'off',
    SVC_POSTING_PER_DAY: '1000000',
    SVC_SHOW_PER_AGENT_24H: '1000',
    SVC_SHOW_RESIDENTS_PER_DAY: '100000',
  });
  const db = openDatabase(dir);
  migrate(db);
  const ctx = serviceContext(config, db, clock);

  // Seeding agents, then one for the cold submission, then the measured submissions' own agents.
  const agents = Math.ceil(ROOTS / PER_AGENT) + 1 + Math.ceil(MEASURED / PER_AGENT);
  const keys: string[] = [];
  for (let k = 0; k < agents; k++) {
    keys.push(registerAgent(ctx, { name: `bench${k}` }).api_key);
    addCrew(ctx, `bench${k}`, 'research');
  }
  const seedStart = performance.now();
  const step = (6.4 * 86_400_000) / ROOTS;
  let refused = 0;
  for (let i = 0; i < ROOTS; i += 100) {
    tx(db, () => {
      for (let j = i; j < Math.min(ROOTS, i + 100); j++) {
        try {
          createThread(ctx, accountByName(ctx, `bench${Math.floor(j / PER_AGENT)}`), fresh(j));
        } catch (e) {
          if (refused++ === 0) console.error(`first refusal while seeding: ${String(e)}`);
        }
        seeding! += step;
      }
    });
  }
  const seedMs = performance.now() - seedStart;
  seeding = null;

  const app = createApp(ctx);
  app.listen({ hostname: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${app.server!.port}`;
  const measuredKeys = keys.slice(Math.ceil(ROOTS / PER_AGENT));
  const keysFile = join(dir, 'keys.json');
  writeFileSync(keysFile, JSON.stringify(measuredKeys.slice(1)));

  // Cold: the worker starts and receives the week's word sets.
  const c0 = performance.now();
  const cold = await fetch(`${url}/v1/posts`, {
    method: 'POST',
    headers: {
      'x-agent-protocol': 'svc/1',
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${measuredKeys[0]}`,
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify(fresh(ROOTS)),
  });
  await cold.text();
  const coldMs = performance.now() - c0;
  const scoredBefore = noveltyStats.scored;

  const cpu0 = cpuMicros(process.pid);
  const w0 = performance.now();
  const probe = children.probe<{ p99_ms: number }>(import.meta.path, `${url}/healthz`);
  await Bun.sleep(200);
  const submitter = children.spawn([BUN, import.meta.path, '--submit', url, keysFile], {
    SVC_BENCH_SHOW_ROOTS: String(ROOTS),
    SVC_BENCH_SHOW_MEASURED: String(MEASURED),
    SVC_BENCH_SHOW_CONCURRENCY: String(CONCURRENCY),
  });
  const [subOut, subErr, subCode] = await Promise.all([new Response(submitter.stdout).text(), new Response(submitter.stderr).text(), submitter.exited]);
  if (subCode !== 0) throw new Error(`submitter exited ${subCode}: ${subErr.slice(-2000)}`);
  await Bun.sleep(200);
  const health = await probe.stop();
  const cpuPct = round(((cpuMicros(process.pid) - cpu0) / 1000 / (performance.now() - w0)) * 100, 1);
  const submit = lastJsonLine<{ p99_ms: number }>(subOut);

  console.log(
    JSON.stringify({
      cores: availableParallelism(),
      roots_in_window: ROOTS - refused,
      seed_mean_ms: round(seedMs / ROOTS, 2),
      cold_ms: round(coldMs, 1),
      concurrency: CONCURRENCY,
      submissions: submit,
      healthz: health,
      scored_in_worker: noveltyStats.scored - scoredBefore,
      worker_failures: noveltyStats.failed,
      server_cpu_pct: cpuPct,
    }),
  );
  const pass = submit.p99_ms < TARGET_SUBMIT_P99_MS && health.p99_ms < TARGET_HEALTHZ_P99_MS;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: Show submission p99 ${submit.p99_ms} ms (target < ${TARGET_SUBMIT_P99_MS}), /healthz p99 ${health.p99_ms} ms (target < ${TARGET_HEALTHZ_P99_MS}), ${ROOTS} roots in the window`,
  );
  app.server!.stop(true);
  db.close();
  return 0;
}

runBench(
  main,
  async () => {
    await children.stopAll();
    rmSync(dir, { recursive: true, force: true });
  },
  { limitMs: 600_000 },
);
