// Lab publishes of ~2 MB sites with /healthz probed from another process (in the `write` group).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spread } from '../harness.ts';
import { labSite } from '../lab-site.ts';
import { BUN, lastJsonLine, num, ROOT } from '../lib.ts';
import { type Ctx, check, children, helperRound, key, ROUNDS, SERVER_ENV, scriptsDir, selected, summarize } from './context.ts';
import { maxText, type ProbedRound, probedRound } from './probed.ts';

/** The lab agents: keyed agents no other scenario uses, each allowed on the lab and publishing to its own slug. */
const LAB_AGENTS: [number, number] = [300, 316];

/**
 * Agents publish ~2 MB lab sites (bench/lab-site.ts: html, css, js, json and four PNGs, every
 * publish different from the last) while another process GETs /healthz (two loops, every 1 ms each: a few hundred probes a round, so
 * its p99 is not its maximum; a round with fewer is refused): the publishes'
 * p50/p99, how many, and /healthz p99 and max (the loop's longest stall). Each publish replaces
 * the agent's site (after the first), so the server scans and stores every byte of every one.
 */
export async function labPublishScenario(c: Ctx): Promise<void> {
  if (!selected('lab-publish', 'write')) return;
  const [l0, l1] = LAB_AGENTS;
  const idx = Array.from({ length: l1 - l0 }, (_, i) => l0 + i);
  for (const i of idx) {
    const r = Bun.spawnSync([c.bin, 'admin', 'lab', 'allow', c.meta.agent_names[i]!, '--data', c.dataDir], { env: { ...process.env, ...SERVER_ENV } });
    if (r.exitCode !== 0) throw new Error(`svc admin lab allow ${c.meta.agent_names[i]}: ${r.stdout}${r.stderr}`);
  }
  const keys = idx.map(key);
  const slugs = idx.map((i) => `bench-run-${i}`);
  const concurrency = num('BENCH_LAB_CONCURRENCY', 4);
  const count = num('BENCH_LAB_PUBLISHES', 12);
  // 20 publishes per agent per UTC day (src/lab/pages/quota.ts): more would measure LAB_QUOTA refusals.
  if (keys.length + count * ROUNDS > keys.length * 20)
    throw new Error(`BENCH_LAB_PUBLISHES=${count}: ${keys.length} lab agents publish at most ${keys.length * 20} times a day`);
  mkdirSync(scriptsDir, { recursive: true });
  let n = 0;
  const build = (k: number) =>
    Array.from({ length: k }, () => {
      const file = join(scriptsDir, `lab-${n}.json`);
      writeFileSync(file, JSON.stringify(labSite(n++)));
      return file;
    });
  // Once before measuring (and every agent's first publish, a create): each answers 201.
  const firsts = build(keys.length);
  const check0 = children.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'lab', JSON.stringify({ url: c.url, keys, slugs, concurrency, files: firsts })]);
  const first = lastJsonLine<{ statuses: Record<string, number>; codes: Record<string, number> }>(await new Response(check0.stdout).text());
  await check0.exited;
  children.forget(check0);
  for (const f of firsts) rmSync(f, { force: true });
  if ((first.statuses['201'] ?? 0) !== keys.length) {
    process.stderr.write(`  ! lab-publish: the first publishes answered ${JSON.stringify(first)}: not measured\n`);
    return;
  }
  process.stderr.write(
    `· ${c.size} lab-publish: ${count} publishes of ~2 MB a round, ${concurrency} at a time by ${keys.length} agents, /healthz probed every 1 ms by 2 loops\n`,
  );
  type LabOut = {
    publishes: number;
    seconds: number;
    body_bytes: number;
    statuses: Record<string, number>;
    codes: Record<string, number>;
    p50_ms: number;
    p99_ms: number;
    max_ms: number;
  };
  const results: (ProbedRound & { lab: LabOut; healthz: ProbedRound['probes'][number] })[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const files = build(count); // built before the round: the writer only sends
    const x = await probedRound(c.pid, [`${c.url}/healthz`], () =>
      children.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'lab', JSON.stringify({ url: c.url, keys, slugs, concurrency, files })]),
    );
    for (const f of files) rmSync(f, { force: true }); // 2.7 MB each
    const lab = x.out as LabOut;
    const healthz = x.probes[0]!;
    results.push({ ...x, lab, healthz });
    process.stderr.write(
      `  round ${r + 1}: ${lab.publishes} publishes, p99 ${lab.p99_ms} ms; /healthz ${healthz.requests} probes, p99 ${healthz.p99_ms} ms, max ${maxText(healthz)} ms\n`,
    );
  }
  const rs = results.map((x) =>
    helperRound({
      completed: x.lab.publishes,
      statuses: x.lab.statuses,
      p50_ms: x.lab.p50_ms,
      p99_ms: x.lab.p99_ms,
      max_ms: x.lab.max_ms,
      window_s: x.window_s,
      concurrency,
      cpu: { server_us: x.server_us, helpers_us: x.helpers_us, machine_us: x.machine_us },
    }),
  );
  const row = summarize(
    c.size,
    'lab-publish',
    `PUT /v1/lab/pages/{slug} (~2 MB decoded, 9 files), ${concurrency} publishers; /healthz every 1 ms × 2`,
    'svc',
    rs,
    {
      publishes: results.map((x) => x.lab.publishes),
      codes: results.map((x) => x.lab.codes),
      body_mb: results.map((x) => x.lab.body_bytes / 1e6),
      healthz_requests: results.map((x) => x.healthz.requests),
      healthz_p99_ms: spread(results.map((x) => x.healthz.p99_ms)),
      healthz_max_ms: spread(results.map((x) => x.healthz.max_ms)),
      healthz_max_core_wait_ms: results.map((x) => x.healthz.max_core_wait_ms ?? null),
    },
  );
  // The probes' own refusals (too few for a p99, a failed probe) join the round's.
  const refusals = rs.map((r, i) => [r.refused, results[i]!.probe_refused].filter(Boolean).join('; ') || null);
  check(
    row,
    { metric: 'healthz max', op: '<', value: 50, text: '/healthz max < 50 ms during 2 MB lab publishes' },
    spread(results.map((x) => x.healthz.max_ms)),
    refusals,
  );
}
