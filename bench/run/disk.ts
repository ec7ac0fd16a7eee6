// The disk neighbour (the `disk` group, issue 39 §2): does a slow disk slow anything but writes?
// A neighbour process writes to the filesystem of svc's data dir with a sync per file (`dd
// if=/dev/zero bs=1M count=BENCH_DISK_MB conv=fsync`, over and over for the round), an agent
// writes (bench/writer.ts paced: replies and votes, BENCH_DISK_WRITES a second), and two other
// processes probe `/healthz` and the cached `/api/activity` — neither touches the disk. Printed:
// each probe's p50/p99/max, beside the same rounds without the neighbour; the target is that both
// stay under 50 ms while the neighbour syncs.
import { dirname, join } from 'node:path';
import { spread, type Target } from '../harness.ts';
import { lastJsonLine, num } from '../lib.ts';
import { type Ctx, check, children, pacedWriter, ROUNDS, type Round, SECONDS, selected, summarize } from './context.ts';
import { coreWaitNote, maxText, type ProbedRound, probedRound, probeRound, writerRefusal } from './probed.ts';

/** The neighbour: `dd … conv=fsync` into `file` until `seconds` have passed (a whole file at least once), then the file goes. */
export function neighbourScript(file: string, mb: number, seconds: number): string {
  return [
    `f='${file.replaceAll("'", "'\\''")}'`,
    `trap 'kill $! 2>/dev/null; rm -f "$f"; exit 0' TERM`,
    `end=$(($(date +%s%3N) + ${Math.round(seconds * 1000)}))`,
    `while :; do dd if=/dev/zero of="$f" bs=1M count=${mb} conv=fsync status=none & wait $!; [ "$(date +%s%3N)" -ge $end ] && break; done`,
    'rm -f "$f"',
  ].join('\n');
}

const PROBED = ['/healthz', '/api/activity'] as const;

export async function diskNeighbourScenario(c: Ctx): Promise<void> {
  if (!selected('disk-neighbour', 'disk')) return;
  const mb = num('BENCH_DISK_MB', 64);
  const rate = num('BENCH_DISK_WRITES', 20);
  // The neighbour's file sits beside the data dir: the same filesystem, the same device.
  const file = join(dirname(c.dataDir), `svc-bench-neighbour-${process.pid}.bin`);
  const warm = await fetch(`${c.url}/api/activity`); // built and cached before the probes start
  await warm.arrayBuffer();
  if (warm.status !== 200) throw new Error(`GET /api/activity answered ${warm.status}`);
  process.stderr.write(
    `· ${c.size} disk-neighbour: ${ROUNDS} rounds of ${SECONDS} s with dd bs=1M count=${mb} conv=fsync in a loop beside ${c.dataDir}, ${rate} agent writes/s, ${PROBED.join(' and ')} probed; the same without the neighbour\n`,
  );
  const writer = pacedWriter(c, rate);
  const withNeighbour: ProbedRound[] = [];
  const without: ProbedRound[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      // Alternated, so a slower minute of the machine falls on both.
      const urls = PROBED.map((p) => `${c.url}${p}`);
      without.push(await probedRound(c.pid, urls, () => children.spawn(['sleep', String(SECONDS)]), [writer.pid]));
      withNeighbour.push(await probedRound(c.pid, urls, () => children.spawn(['bash', '-c', neighbourScript(file, mb, SECONDS)]), [writer.pid]));
      const w = withNeighbour.at(-1)!.probes;
      const q = without.at(-1)!.probes;
      process.stderr.write(
        `  round ${r + 1}: /healthz p99 ${w[0]!.p99_ms} max ${maxText(w[0]!)} ms (without ${q[0]!.p99_ms}, ${maxText(q[0]!)}); /api/activity p99 ${w[1]!.p99_ms} max ${maxText(w[1]!)} ms (without ${q[1]!.p99_ms}, ${maxText(q[1]!)})\n`,
      );
    }
  } finally {
    writer.kill('SIGTERM');
  }
  const writes = lastJsonLine<{ writes: number; statuses: Record<string, number> }>(await new Response(writer.stdout).text(), 'null');
  await writer.exited;
  children.forget(writer);
  // The agent's writes answer every round: any that was not 2xx refuses them all.
  const writesRefused = writerRefusal(writes);
  for (const [i, path] of PROBED.entries()) {
    const asRounds = (xs: ProbedRound[]): Round[] => xs.map((x) => probeRound(x, x.probes[i]!, writesRefused));
    const extra = { neighbour_mb: mb, agent_writes_per_s: rate, writes };
    summarize(c.size, 'disk-neighbour', `GET ${path} probed, ${rate} agent writes/s, no neighbour`, 'svc', asRounds(without), extra);
    const row = summarize(
      c.size,
      'disk-neighbour',
      `GET ${path} probed, ${rate} agent writes/s, dd ${mb} MB conv=fsync looping beside`,
      'svc',
      asRounds(withNeighbour),
      extra,
    );
    row.note = coreWaitNote(withNeighbour.map((x) => x.probes[i]!));
    const p99: Target = { metric: 'p99', op: '<', value: 50, text: `${path} p99 < 50 ms beside an fsync-heavy neighbour` };
    const max: Target = { metric: 'max', op: '<', value: 50, text: `${path} max < 50 ms beside an fsync-heavy neighbour` };
    check(row, p99, row.p99);
    check(row, max, spread(row.rounds.map((r) => r.max_ms)));
  }
}
