// No stall anyone sees (the `stall` group, issue 39 §3): while an agent writes without pause
// (bench/writer.ts paced, BENCH_STALL_WRITES a second: replies and votes, so the log crosses its
// checkpoint bound every few seconds and the activity, thread and leaderboard documents go stale
// and are rebuilt on the next read), other processes probe `/healthz` and the three cached public
// documents an agent or a reader polls. Each round's writer is its own process and times each of
// its writes: the longest agent request is the longest write (a write waits for its batch's
// durable commit, and for a checkpoint that restarts the log). Targets: the maximum of every probe
// and of the writes under 50 ms. 10 concurrent 2 MB lab publishes are the lab-publish row's.
import { notSuccess, spread, type Target } from '../harness.ts';
import { num } from '../lib.ts';
import { type Ctx, check, pacedWriter, ROUNDS, type Round, SECONDS, selected, summarize } from './context.ts';
import { coreWaitNote, maxText, type Probe, type ProbedRound, probedRound, probeRound, writerRefusal } from './probed.ts';

const PROBED = ['/healthz', '/api/activity', '/api/leaderboard', '/api/pubs/feed'] as const;

interface Writes {
  writes: number;
  per_s: number;
  statuses: Record<string, number>;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

export async function stallScenario(c: Ctx): Promise<void> {
  if (!selected('stall', 'stall')) return;
  const rate = num('BENCH_STALL_WRITES', 200);
  for (const p of PROBED) {
    const r = await fetch(`${c.url}${p}`); // built once before the probes start: what is timed is a rebuild
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET ${p} answered ${r.status}`);
  }
  process.stderr.write(`· ${c.size} stall: ${ROUNDS} rounds of ${SECONDS} s, an agent writing ${rate}/s, ${PROBED.join(', ')} probed\n`);
  const urls = PROBED.map((p) => `${c.url}${p}`);
  const rounds: { probed: ProbedRound; writes: Writes | null }[] = [];
  // A warm-up round (not judged), as every scenario has, then the measured ones; each writer votes on posts the last did not.
  for (let r = -1; r < ROUNDS; r++) {
    const first = (r + 1) * Math.ceil(rate * SECONDS * 1.5);
    const probed = await probedRound(c.pid, urls, () => pacedWriter(c, rate, { seconds: r < 0 ? 2 : SECONDS, first }));
    const writes = probed.out as Writes | null;
    if (r < 0) continue;
    rounds.push({ probed, writes });
    process.stderr.write(
      `  round ${r + 1}: writes ${writes?.writes ?? 0} (max ${writes?.max_ms} ms); ${PROBED.map((p, i) => `${p} max ${maxText(probed.probes[i]!)}`).join(', ')} ms\n`,
    );
  }
  const asRound = (x: ProbedRound, w: Writes | null, figures: Probe): Round => probeRound(x, figures, writerRefusal(w));
  const extra = { agent_writes_per_s: rate, writes: rounds.map((x) => x.writes) };
  const max = (what: string): Target => ({ metric: 'max', op: '<', value: 50, text: `${what} max < 50 ms during sustained writes and rebuilds` });
  for (const [i, path] of PROBED.entries()) {
    const row = summarize(
      c.size,
      'stall',
      `GET ${path} probed, an agent writing ${rate}/s`,
      'svc',
      rounds.map((x) => asRound(x.probed, x.writes, x.probed.probes[i]!)),
      extra,
    );
    row.note = coreWaitNote(rounds.map((x) => x.probed.probes[i]!));
    check(row, max(path), spread(row.rounds.map((r) => r.max_ms)));
  }
  const writesRow = summarize(
    c.size,
    'stall',
    `the agent's writes (replies and votes, ${rate}/s) while the documents are probed`,
    'svc',
    rounds.map((x) =>
      asRound(x.probed, x.writes, {
        requests: x.writes?.writes ?? 0,
        failures: x.writes ? notSuccess(x.writes.statuses) : 0,
        p50_ms: x.writes?.p50_ms ?? Number.NaN,
        p99_ms: x.writes?.p99_ms ?? Number.NaN,
        max_ms: x.writes?.max_ms ?? Number.NaN,
      }),
    ),
    extra,
  );
  writesRow.note = `${spread(rounds.map((x) => x.writes?.per_s ?? Number.NaN)).median.toFixed(0)} writes/s achieved`;
  check(writesRow, max('an agent write'), spread(writesRow.rounds.map((r) => r.max_ms)));
}
