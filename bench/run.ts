// The bench harness: `bun bench/run.ts [--markdown]` (npm run bench). docs/performance.md says
// what it measures, how, and why a verdict can be refused.
//
// For each size (BENCH_SIZES=10k,100k,1m; default 10k) it takes the cached corpus (bench/corpus.ts,
// seeded once), copies it to a fresh data dir, starts `dist/svc serve` on it in its own process
// (built first when missing or older than src/), and drives every scenario over loopback with wrk
// in its own process (Lua scripts for headers, methods and bodies). Every scenario runs three
// rounds (after a warm-up) and prints p50/p99/max, req/s with the spread over the rounds (min–max),
// the server's CPU per request and the generator's CPU; a round in which the generator used ≥ 90 %
// of its cores, or in which other processes used the CPU, refuses the verdict. Cached documents are
// compared with a raw Bun.serve and Express serving the same bytes, each in its own process, in
// rotated order. Prints a table, writes bench/out/bench-<date>.json; --markdown prints the rows
// for docs/performance.md with the date, the commit and the CPU.
//
// MCP tool calls are compared with the REST route answering the same read (mcp-me, mcp-thread),
// and lab publishes of ~2 MB sites run with /healthz probed from another process (lab-publish).
// `disk` probes /healthz and a cached document beside a neighbour writing to the same disk with
// fsyncs while an agent replies; `stall` probes /healthz and the cached documents, and times an
// agent's writes, while it writes without pause (checkpoints, rebuilds); `compress` measures cached documents by Accept-Encoding (bytes
// on the wire, CPU a request), against the build before compression when BENCH_BEFORE_BIN is set.
// When 10k and 1m both run, `flat` judges a reply's and a vote's CPU at 1M against 10k's with both
// servers up at once and their rounds interleaved (run/flat.ts), so the machine's drift between two
// rows minutes apart is not read as the board's size.
// A round with any answer that was not 2xx is refused, whatever it measured.
//
// The scenario groups live in bench/run/: context.ts (settings, rows, one wrk round), reads.ts,
// cached.ts, writes.ts, flat.ts, lab-publish.ts, mcp-rest.ts, disk.ts, stall.ts, compress.ts, start.ts, report.ts.
//
// Env: BENCH_SIZES, BENCH_ONLY (scenario names or groups: read, cached, write, mcp, disk, stall, compress, start, flat), BENCH_SECONDS
// (per round, default 5), BENCH_WARMUP_SECONDS (2), BENCH_ROUNDS (3), BENCH_READ_CONNECTIONS (1: the
// latency of one request), BENCH_CONNECTIONS (64; also MCP vs REST), BENCH_WRITE_CONNECTIONS (64),
// BENCH_LAB_PUBLISHES (12 a round), BENCH_LAB_CONCURRENCY (4), BENCH_SUBMISSIONS (article submits a round, 200), BENCH_DISK_MB (neighbour's file, 64),
// BENCH_DISK_WRITES (the agent's replies a second, 20), BENCH_STALL_WRITES (200), BENCH_BEFORE_BIN and BENCH_BEFORE_CORPUS
// (compress: the build before compression and a corpus its migrations made), SVC_BIN (default dist/svc). Exits 0
// when targets are missed (a measuring tool), 1 when the bench could not run, 2 when wrk is missing.
import { rmSync } from 'node:fs';
import { ensureCorpus, freshDataDir } from './corpus.ts';
import { runBench } from './lib.ts';
import { cachedScenarios } from './run/cached.ts';
import { compressScenarios } from './run/compress.ts';
import { children, type Ctx, dataDirs, ONLY, scriptsDir, SIZES, startSvc, stop, svcBinary } from './run/context.ts';
import { diskNeighbourScenario } from './run/disk.ts';
import { FLAT_SCENARIOS, flatScenarios, flatWanted } from './run/flat.ts';
import { labPublishScenario } from './run/lab-publish.ts';
import { mcpScenarios } from './run/mcp-rest.ts';
import { readScenarios } from './run/reads.ts';
import { report } from './run/report.ts';
import { stallScenario } from './run/stall.ts';
import { startScenarios } from './run/start.ts';
import { submitScenario, writeScenarios } from './run/writes.ts';
import { findWrk, WRK_MISSING } from './wrk.ts';

async function cleanup(): Promise<void> {
  await children.stopAll();
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  rmSync(scriptsDir, { recursive: true, force: true });
}

const GROUPS: Record<string, string[]> = {
  read: ['pins', 'resume', 'search-common', 'search-rare', 'search-page2', 'feed', 'activity', 'thread', 'inbox', 'me'],
  cached: ['doc-pubs-feed', 'doc-leaderboard', 'doc-activity'],
  write: ['write-posts', 'write-replies', 'write-votes', 'write-votes-old', 'submit', 'lab-publish'],
  mcp: ['mcp-me', 'mcp-thread'],
  disk: ['disk-neighbour'],
  stall: ['stall'],
  compress: ['compress-pubs-feed', 'compress-leaderboard', 'compress-activity', 'compress-docs', 'compress-openapi'],
  start: ['start', 'first-leaderboard'],
  flat: FLAT_SCENARIOS,
};
const scenarioGroup = (name: string) => Object.entries(GROUPS).find(([g, names]) => g === name || names.includes(name))?.[0] ?? null;

async function main(): Promise<number> {
  const started = new Date().toISOString().slice(0, 16).replace(':', '');
  const bin = svcBinary();
  const corpora: { size: string; file: string; meta: Awaited<ReturnType<typeof ensureCorpus>>['meta'] }[] = [];
  for (const size of SIZES) {
    const { file, meta, seeded } = await ensureCorpus(size, bin);
    corpora.push({ size, file, meta });
    process.stderr.write(
      `· ${size} corpus ${seeded ? `seeded in ${meta.seed_seconds.total} s` : `cached (seeded ${((Date.now() - meta.seeded_at) / 3_600_000).toFixed(1)} h ago)`}: ${file}\n`,
    );
    const groups: [string, (c: Ctx) => Promise<void>][] = [
      ['read', readScenarios],
      ['cached', cachedScenarios],
      [
        'write',
        async (c) => {
          await writeScenarios(c);
          await submitScenario(c);
          await labPublishScenario(c);
        },
      ],
      ['mcp', mcpScenarios],
      ['disk', diskNeighbourScenario],
      ['stall', stallScenario],
      ['compress', compressScenarios],
    ];
    for (const [group, run] of groups) {
      if (ONLY.length && !ONLY.some((o) => scenarioGroup(o) === group)) continue;
      // Each group on its own fresh copy (synced to the disk before the server starts: corpus.ts):
      // the writes of one never reach the reads of another.
      const dataDir = freshDataDir(file, size);
      dataDirs.push(dataDir);
      const svc = await startSvc(bin, dataDir);
      await run({ size, meta, url: svc.url, pid: svc.proc.pid, bin, file, dataDir });
      await stop(svc.proc);
      rmSync(dataDir, { recursive: true, force: true });
    }
    await startScenarios(size, file, bin, meta);
  }
  // Writes flat from 10k to 1M: both servers at once, their rounds interleaved (run/flat.ts).
  if (flatWanted(SIZES)) await flatScenarios(corpora, bin);
  report(started);
  await cleanup(); // the Lua scripts and bodies in scriptsDir (runBench cleans up only on failure or a signal)
  return 0;
}

if (!findWrk()) {
  console.error(WRK_MISSING);
  process.exit(2);
}
for (const o of ONLY)
  if (!scenarioGroup(o))
    throw new Error(`BENCH_ONLY: unknown scenario "${o}": one of ${Object.values(GROUPS).flat().join(', ')} or a group (${Object.keys(GROUPS).join(', ')})`);
runBench(main, cleanup, { limitMs: 4 * 60 * 60_000 });
