// Writes flat from 10k to 1M (issue 39 §1: a reply's and a vote's CPU at 1M ≤ 1.2× 10k's), judged
// on interleaved rounds. The two sizes' write rows run minutes apart, and this machine's speed
// drifts by a quarter within a day: a ratio of two rows measured the drift as much as the board's
// size (the reply ratio read 0.93-1.46 over one evening's runs of one build). Here both servers
// run at once, each on a fresh copy of its corpus, and their rounds alternate 10k, 1M, 1M, 10k,
// 10k, 1M (a drift that is linear over the rounds cancels out); each round's ratio is taken against
// the neighbouring round of the other size, and every pair must pass.
//
// A round's CPU is the server's from the round's first request until it is quiet again: the work
// a write leaves behind (the full-text index's merge steps, the checkpoint of its pages) is the
// write's, and is not left to fall into the other server's round. The idle server must stay idle
// meanwhile, or the round is refused.
import { rmSync } from 'node:fs';
import { freshDataDir } from '../corpus.ts';
import { pairedRatio } from '../harness.ts';
import {
  type Ctx,
  check,
  dataDirs,
  ONLY,
  type Proc,
  ROUNDS,
  type Round,
  round,
  SECONDS,
  safeCpu,
  safeThreadCpu,
  startSvc,
  stop,
  summarize,
  threadSplitNote,
  voteTargets,
  WARMUP,
  WRITE_CONNECTIONS,
} from './context.ts';
import { replyScript, voterKeys, voteScript } from './writes.ts';

export const FLAT_SCENARIOS = ['flat-replies', 'flat-votes'];
const SMALL = '10k';
const LARGE = '1m';

/** Selected by name, by its group (`flat`) or by the `write` group (whose flatness target it judges). */
const flatSelected = (name: string) => ONLY.length === 0 || ONLY.includes(name) || ONLY.includes('flat') || ONLY.includes('write');

/** Whether this run judges flatness: both sizes are measured and a flat scenario is selected. */
export const flatWanted = (sizes: readonly string[]) => sizes.includes(SMALL) && sizes.includes(LARGE) && FLAT_SCENARIOS.some(flatSelected);

type Corpus = Pick<Ctx, 'size' | 'meta' | 'file'>;
type Server = Ctx & { proc: Proc };

/** The longest a server may take to become quiet after a round (a long merge backlog at 1M). */
const SETTLE_LIMIT_MS = 30_000;
/** A server is quiet when two windows in a row each used less than 1 % of a core. */
const SETTLE_WINDOW_MS = 250;
const QUIET_US = SETTLE_WINDOW_MS * 1000 * 0.01;
/** The idle server's share of a core during the other's round above which the round is refused. */
const IDLE_LIMIT_PCT = 5;

/** Waits until `pid` is quiet; the CPU it used meanwhile (µs), how long it took (ms), and whether it was quiet by the limit. */
async function settle(pid: number): Promise<{ cpu_us: number; ms: number; quiet: boolean }> {
  const t0 = performance.now();
  const cpu0 = safeCpu(pid);
  let quiet = 0;
  let last = cpu0;
  while (quiet < 2 && performance.now() - t0 < SETTLE_LIMIT_MS) {
    await Bun.sleep(SETTLE_WINDOW_MS);
    const now = safeCpu(pid);
    quiet = now - last < QUIET_US ? quiet + 1 : 0;
    last = now;
  }
  return { cpu_us: last - cpu0, ms: performance.now() - t0, quiet: quiet >= 2 };
}

/** One measured round on `active` while `idle` waits (a helper, watched), the active server's trailing work included. */
async function pairedRound(active: Server, idle: Server, script: string, seconds: number): Promise<Round & { settle_ms: number }> {
  const thread0 = safeThreadCpu(active.pid);
  const r = await round({ url: active.url, pid: active.pid, connections: WRITE_CONNECTIONS, script, helpers: [idle.pid], watch: idle.pid }, seconds);
  const after = await settle(active.pid);
  const idlePct = (r.watched_cpu_us ?? 0) / 1e4 / r.window_s;
  const reasons = [
    r.refused,
    idlePct > IDLE_LIMIT_PCT ? `the idle server used ${idlePct.toFixed(0)} % of a core` : null,
    // Its trailing work was cut short: the round's CPU would be too low.
    after.quiet ? null : `the server was not quiet ${SETTLE_LIMIT_MS / 1000} s after the round`,
  ].filter(Boolean);
  return {
    ...r,
    refused: reasons.length ? reasons.join('; ') : null,
    server_cpu_us_per_req: r.completed > 0 ? r.server_cpu_us_per_req + after.cpu_us / r.completed : Number.NaN,
    request_thread_cpu_us: safeThreadCpu(active.pid) - thread0,
    settle_ms: Math.round(after.ms),
  };
}

/** The order of the two servers' rounds, n each: S L L S S L …; the i-th of each are neighbours. */
export const interleaving = (n: number): ('small' | 'large')[] => Array.from({ length: 2 * n }, (_, i) => (((i + 1) >> 1) % 2 === 0 ? 'small' : 'large'));

export async function flatScenarios(corpora: readonly Corpus[], bin: string): Promise<void> {
  const small = corpora.find((c) => c.size === SMALL);
  const large = corpora.find((c) => c.size === LARGE);
  if (!small || !large) return;
  const servers: Server[] = [];
  try {
    for (const c of [small, large]) {
      const dataDir = freshDataDir(c.file, `${c.size}-flat`);
      dataDirs.push(dataDir);
      const s = await startSvc(bin, dataDir);
      servers.push({ ...c, url: s.url, pid: s.proc.pid, bin, dataDir, proc: s.proc });
    }
    const [s, l] = servers as [Server, Server];
    // Start-up work (the leaderboard's warm build, a missed job's catch-up) is not a write's.
    await Promise.all([settle(s.pid), settle(l.pid)]);

    // A kind's scripts, one a round: given how many requests the server's last round completed.
    const kinds: { name: string; what: string; noun: string; scripts: (srv: Server) => (lastCompleted: number) => string }[] = [
      {
        name: 'flat-replies',
        what: `POST /v1/posts/{id}/replies, ${WRITE_CONNECTIONS} agents, the two sizes' rounds interleaved`,
        noun: 'reply',
        scripts: (srv) => {
          const script = replyScript(srv.meta);
          return () => script;
        },
      },
      {
        name: 'flat-votes',
        what: "POST /votes by the heavy voters on the newest posts, the two sizes' rounds interleaved",
        noun: 'vote',
        scripts: (srv) => {
          const [v0, v1] = srv.meta.roles.voters;
          const targets = voteTargets(srv, v0, v1, 4000);
          const keys = voterKeys(srv.meta);
          // Each round continues where the server's last one stopped: no vote repeats (as write-votes' windows).
          let offset = 0;
          return (lastCompleted) => {
            offset += lastCompleted > 0 ? lastCompleted + 1000 : 0;
            return voteScript(offset, targets, keys);
          };
        },
      },
    ];
    for (const k of kinds) {
      if (!flatSelected(k.name)) continue;
      process.stderr.write(`· ${k.name}: ${SMALL} and ${LARGE} at once, ${ROUNDS} rounds each of ${SECONDS} s, interleaved\n`);
      const next = { small: k.scripts(s), large: k.scripts(l) };
      const last = { small: 0, large: 0 };
      for (const [active, idle, which] of [[s, l, 'small'] as const, [l, s, 'large'] as const]) {
        last[which] = (await pairedRound(active, idle, next[which](0), WARMUP)).completed;
      }
      const measured: Record<'small' | 'large', (Round & { settle_ms: number })[]> = { small: [], large: [] };
      for (const which of interleaving(ROUNDS)) {
        const [active, idle] = which === 'small' ? [s, l] : [l, s];
        const r = await pairedRound(active, idle, next[which](last[which]), SECONDS);
        last[which] = r.completed;
        measured[which].push(r);
      }
      const rowOf = (srv: Server, rs: (Round & { settle_ms: number })[]) => {
        const row = summarize(srv.size, k.name, k.what, 'svc', rs, { settle_ms: rs.map((r) => r.settle_ms) });
        row.note = `${threadSplitNote(rs)}; CPU until quiet again after each round (${rs.map((r) => r.settle_ms).join(', ')} ms)`;
        return row;
      };
      rowOf(s, measured.small);
      const largeRow = rowOf(l, measured.large);
      check(
        largeRow,
        { metric: 'cpu', op: '<=', value: 1.2, text: `CPU a ${k.noun} at 1M ≤ 1.2× 10k's (interleaved rounds, each against its neighbour)` },
        pairedRatio(
          measured.large.map((r) => r.server_cpu_us_per_req),
          measured.small.map((r) => r.server_cpu_us_per_req),
        ),
        [...measured.small, ...measured.large].map((r) => r.refused),
      );
    }
  } finally {
    for (const srv of servers) {
      await stop(srv.proc);
      rmSync(srv.dataDir, { recursive: true, force: true });
    }
  }
}
