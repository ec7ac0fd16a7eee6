// What bench/run.ts prints and saves: a table of every row, the verdicts, and the JSON of the run
// (bench/out/bench-<date>.json); --markdown prints the rows for docs/performance.md.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fmt, mdRow, reclaimOf, type Spread, withSpread } from '../harness.ts';
import { ROOT } from '../lib.ts';
import { CONNECTIONS, MARKDOWN, ONLY, READ_CONNECTIONS, ROUNDS, type Row, rows, SECONDS, SIZES, WARMUP, WRITE_CONNECTIONS } from './context.ts';

function machine() {
  const cpu = cpus()[0]?.model ?? 'unknown';
  const commit = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: ROOT }).stdout.toString().trim() || 'unknown';
  const dirty = Bun.spawnSync(['git', 'status', '--porcelain', 'src', 'schema'], { cwd: ROOT }).stdout.toString().trim() !== '';
  return {
    date: new Date().toISOString().slice(0, 10),
    commit: dirty ? `${commit}+changes` : commit,
    cpu,
    cores: cpus().length,
    bun: Bun.version,
    reclaim: reclaimOf(),
    page_cache_mb: pageCacheMb(),
  };
}

/** The machine's page cache now (/proc/meminfo's Cached), MB. */
function pageCacheMb(): number | null {
  const m = /^Cached:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
}

/** The header's line on the machine's memory: its proactive reclaim (or none) and its page cache at the end of the run. */
const memoryLine = (m: ReturnType<typeof machine>) => `Proactive reclaim: ${m.reclaim ?? 'none found'}; page cache at the end ${m.page_cache_mb ?? '?'} MB.`;

const HEAD = ['size', 'scenario', 'server', 'req/s (min–max)', 'p50 ms', 'p99 ms (min–max)', 'max ms', 'srv µs/req', 'gen CPU %', 'other CPU %', 'non-2xx'];
function cells(r: Row): string[] {
  const ratio = (r.extra.pct_of_raw ?? r.extra.pct_of_rest) as Spread | undefined;
  const of = r.extra.pct_of_raw ? 'raw' : 'REST';
  const cpu = r.extra.cpu_ratio_vs_rest as Spread | undefined;
  const hz = r.extra.healthz_max_ms as Spread | undefined;
  const hz99 = r.extra.healthz_p99_ms as Spread | undefined;
  const count = r.rounds.reduce((n, x) => n + x.completed, 0);
  const probed = hz && hz99 ? ` (${count} in all; /healthz p99 ${withSpread(hz99)} ms, max ${withSpread(hz)} ms)` : '';
  return [
    r.size,
    `${r.scenario}: ${r.what}`,
    r.server +
      (ratio
        ? ` (${withSpread({ median: ratio.median * 100, min: ratio.min * 100, max: ratio.max * 100 }, 0)} % of ${of}${cpu ? `, ${withSpread(cpu)}× its CPU/req` : ''})`
        : '') +
      probed +
      (r.note ? ` (${r.note})` : ''),
    withSpread(r.rps, 0),
    fmt(r.p50.median),
    withSpread(r.p99),
    fmt(r.max.max),
    withSpread(r.cpu_us, 1),
    fmt(r.gen_cpu.max, 0),
    fmt(r.other_cpu.max, 0),
    r.non2xx ? `${r.non2xx} ${JSON.stringify(Object.fromEntries(Object.entries(r.statuses).filter(([k]) => !k.startsWith('2'))))}` : '0',
  ];
}

export function report(started: string): void {
  const m = machine();
  const checks = rows.flatMap((r) => r.checks.map((c) => ({ size: r.size, scenario: r.scenario, what: r.what, ...c })));
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  const out = join(ROOT, `bench/out/bench-${started}.json`);
  writeFileSync(
    out,
    `${JSON.stringify({ machine: m, settings: { SIZES, ONLY, SECONDS, WARMUP, ROUNDS, READ_CONNECTIONS, CONNECTIONS, WRITE_CONNECTIONS }, rows, checks }, null, 1)}\n`,
  );
  if (MARKDOWN) {
    console.log(
      `Measured ${m.date} at ${m.commit} on ${m.cores} × ${m.cpu} (server and wrk share it), bun ${m.bun}: \`BENCH_SIZES=${SIZES.join(',')} bun bench/run.ts --markdown\`, ${ROUNDS} rounds of ${SECONDS} s. ${memoryLine(m)}\n`,
    );
    console.log(mdRow(HEAD));
    console.log(mdRow(HEAD.map(() => '---')));
    for (const r of rows) console.log(mdRow(cells(r)));
    console.log(`\n${mdRow(['size', 'scenario', 'target', 'figure', 'verdict'])}`);
    console.log(mdRow(['---', '---', '---', '---', '---']));
    for (const c of checks) console.log(mdRow([c.size, `${c.scenario}: ${c.what}`, c.target, c.value, c.verdict + (c.why ? `: ${c.why}` : '')]));
  } else {
    const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => cells(r)[i]!.length)));
    const line = (cs: string[]) => cs.map((c, i) => c.padEnd(Math.min(widths[i]!, 70))).join('  ');
    console.log(
      `\nsvc bench — ${m.date}, ${m.commit}, ${m.cores} × ${m.cpu}, bun ${m.bun}; ${ROUNDS} rounds × ${SECONDS} s after ${WARMUP} s warm-up; wrk -t1 (reads -c${READ_CONNECTIONS}, documents -c${CONNECTIONS}, writes -c${WRITE_CONNECTIONS})\n${memoryLine(m)}\n`,
    );
    console.log(line(HEAD));
    for (const r of rows) console.log(line(cells(r)));
    console.log('');
    for (const c of checks)
      console.log(`${c.size.padEnd(5)} ${`${c.scenario}: ${c.target}`.padEnd(60)} ${c.value.padEnd(24)} ${c.verdict}${c.why ? ` (${c.why})` : ''}`);
    const reads = rows.filter((r) => r.server === 'svc' && r.checks.length === 0 && r.rounds.length && r.p99.median > 0);
    for (const r of reads.filter((x) => x.size === '1m')) {
      const small = rows.find((x) => x.size === '10k' && x.scenario === r.scenario && x.server === 'svc');
      if (small)
        console.log(`1m vs 10k ${r.scenario}: p99 ${fmt(r.p99.median)} / ${fmt(small.p99.median)} ms = ${fmt(r.p99.median / small.p99.median)}× (target ≤ 2×)`);
    }
  }
  process.stderr.write(`· figures saved to ${out}\n`);
}
