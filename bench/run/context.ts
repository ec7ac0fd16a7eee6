// What every scenario group of bench/run.ts shares: the settings from the environment, the rows
// the run collects, the child processes, the svc binary and its servers, the Lua scripts, and one
// measured wrk round with its judgement (bench/harness.ts).
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchKey, type CorpusMeta } from '../corpus.ts';
import {
  busiestOthers,
  cpuSnapshot,
  failedAnswers,
  judgeRound,
  list,
  luaCommon,
  machineBusyMicros,
  parseBodyBytes,
  parseStatuses,
  type RoundJudgement,
  type Spread,
  spread,
  type Target,
  type Verdict,
  verdict,
  withSpread,
} from '../harness.ts';
import { BUN, Children, cpuMicros, listeningUrl, num, ROOT, threadCpuMicros } from '../lib.ts';
import { runWrk, type WrkResult } from '../wrk.ts';

export const SIZES = list(process.env.BENCH_SIZES, '10k');
export const ONLY = list(process.env.BENCH_ONLY, '');
export const SECONDS = num('BENCH_SECONDS', 5);
export const WARMUP = num('BENCH_WARMUP_SECONDS', 2);
export const ROUNDS = num('BENCH_ROUNDS', 3);
export const READ_CONNECTIONS = num('BENCH_READ_CONNECTIONS', 1);
export const CONNECTIONS = num('BENCH_CONNECTIONS', 64);
export const WRITE_CONNECTIONS = num('BENCH_WRITE_CONNECTIONS', 64);
export const MARKDOWN = process.argv.includes('--markdown');
export const SERVER_ENV = {
  // The per-address read limit stays on (its cost is measured) but far above what wrk sends.
  SVC_PUBLIC_READS_PER_MINUTE: '10000000',
  SVC_POSTING_PER_DAY: '1000000',
  SVC_VOTES_PER_DAY: '1000000',
  SVC_PUBS_SUBMISSIONS_PER_DAY: '1000000',
  SVC_LOG_REQUESTS: 'off',
};
export const AGENT = { 'X-Agent-Protocol': 'svc/1', Accept: 'application/json' };

// ---- results -----------------------------------------------------------------------------------

export interface Round extends Omit<WrkResult, 'stdout'>, RoundJudgement {
  statuses: Record<string, number> | null;
  /** The answers' body bytes as received (compressed when coded), when the script counted them. */
  body_bytes?: number | null;
  /** CPU of WrkRun.watch over the round, µs (svc taking the paced writes while a peer is measured). */
  watched_cpu_us?: number;
  /** The server's request thread's share of server_cpu_us (its other threads: workers, the log's syncs, the JIT, the collector). */
  request_thread_cpu_us?: number;
}

export interface Row {
  size: string;
  scenario: string;
  what: string;
  server: string; // svc | raw | express | …
  rounds: Round[];
  rps: Spread;
  p50: Spread;
  p99: Spread;
  max: Spread;
  cpu_us: Spread;
  gen_cpu: Spread;
  other_cpu: Spread;
  non2xx: number;
  statuses: Record<string, number>;
  extra: Record<string, unknown>;
  /** A figure with no target, printed beside the server (idle memory after reads, bytes per answer). */
  note?: string;
  checks: { target: string; value: string; verdict: Verdict; why: string }[];
}

export const rows: Row[] = [];
export const children = new Children();
export const dataDirs: string[] = [];
export const scriptsDir = join(tmpdir(), `svc-bench-lua-${process.pid}`);

export function summarize(size: string, scenario: string, what: string, server: string, rounds: Round[], extra: Record<string, unknown> = {}): Row {
  const statuses: Record<string, number> = {};
  for (const r of rounds) for (const [k, v] of Object.entries(r.statuses ?? {})) statuses[k] = (statuses[k] ?? 0) + v;
  const row: Row = {
    size,
    scenario,
    what,
    server,
    rounds,
    rps: spread(rounds.map((r) => r.rps)),
    p50: spread(rounds.map((r) => r.p50_ms)),
    p99: spread(rounds.map((r) => r.p99_ms)),
    max: spread(rounds.map((r) => r.max_ms)),
    cpu_us: spread(rounds.map((r) => r.server_cpu_us_per_req)),
    gen_cpu: spread(rounds.map((r) => r.generator_cpu_pct)),
    other_cpu: spread(rounds.map((r) => r.other_cpu_pct)),
    non2xx: rounds.reduce((n, r) => n + failedAnswers(r), 0), // tool errors are among the statuses
    statuses,
    extra,
    checks: [],
  };
  rows.push(row);
  return row;
}

/** Judges `row` against `t` on the spread `s`; any refused round (every round's own judgement by default) refuses it. */
export function check(row: Row, t: Target, s: Spread, refusals = row.rounds.map((r) => r.refused)): void {
  const v = verdict(t, s, refusals);
  row.checks.push({ target: t.text, value: withSpread(s), ...v });
}

export const okOf = (r: Round) => (r.statuses ? Object.entries(r.statuses).reduce((n, [k, v]) => n + (/^2\d\d$/.test(k) ? v : 0), 0) : r.ok);
export const okPerS = (rs: Round[]) => spread(rs.map((r) => okOf(r) / r.window_s));

/**
 * A round that was not a wrk run (article submits, lab publishes, starts): its figures, its
 * statuses, and the same judgement, non-2xx answers included.
 */
export function helperRound(x: {
  completed: number;
  statuses: Record<string, number> | null;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  window_s: number;
  concurrency: number;
  cpu?: { server_us: number; helpers_us: number; machine_us: number; others?: readonly { name: string; pct: number }[] };
}): Round {
  const failed = failedAnswers({ completed: x.completed, non2xx: 0, errors: 0, timeouts: 0, statuses: x.statuses ?? {} });
  const judged = x.cpu
    ? judgeRound({
        window_s: x.window_s,
        completed: x.completed,
        server_cpu_us: x.cpu.server_us,
        generator_cpu_pct: 0, // the bench's own helpers sent the requests
        generator_threads: 1,
        helpers_cpu_us: x.cpu.helpers_us,
        machine_busy_us: x.cpu.machine_us,
        failed,
        ...(x.cpu.others ? { others: x.cpu.others } : {}),
      })
    : {
        server_cpu_pct: Number.NaN,
        server_cpu_us_per_req: Number.NaN,
        other_cpu_pct: Number.NaN,
        refused: failed > 0 ? `${failed} answers were not 2xx` : null,
      };
  return {
    rps: x.window_s > 0 ? x.completed / x.window_s : 0,
    completed: x.completed,
    ok: x.completed - failed,
    non2xx: failed,
    errors: 0,
    timeouts: 0,
    read_bytes: Number.NaN,
    p50_ms: x.p50_ms,
    p99_ms: x.p99_ms,
    max_ms: x.max_ms,
    window_s: x.window_s,
    threads: x.concurrency,
    connections: x.concurrency,
    generator_cpu_pct: Number.NaN,
    generator_saturated: false,
    ...judged,
    statuses: x.statuses,
  };
}

// ---- processes ---------------------------------------------------------------------------------

/** dist/svc (or SVC_BIN), built with `npm run build` when missing or older than the sources. */
export function svcBinary(): string {
  if (process.env.SVC_BIN) return process.env.SVC_BIN;
  const bin = join(ROOT, 'dist/svc');
  const newest = (dir: string): number =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((m, e) => Math.max(m, statSync(join(e.parentPath, e.name)).mtimeMs), 0);
  const sources = Math.max(newest('src'), newest('schema'), newest('workers'));
  if (!existsSync(bin) || statSync(bin).mtimeMs < sources) {
    process.stderr.write('· dist/svc is missing or older than src/: npm run build\n');
    const b = Bun.spawnSync([BUN, 'scripts/build.ts'], { cwd: ROOT, stdout: 'inherit', stderr: 'inherit' });
    if (b.exitCode !== 0) throw new Error('npm run build failed');
  }
  return bin;
}

export type Proc = ReturnType<Children['spawn']>;

export async function startSvc(bin: string, dataDir: string, env: Record<string, string> = {}): Promise<{ proc: Proc; url: string }> {
  const proc = children.spawn([bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], { ...SERVER_ENV, ...env });
  return { proc, url: await listeningUrl(proc, 'svc', 180_000) };
}

export async function stop(proc: Proc): Promise<void> {
  proc.kill('SIGTERM');
  await Promise.race([proc.exited, Bun.sleep(10_000).then(() => proc.kill('SIGKILL'))]);
  children.forget(proc);
}

let scriptN = 0;
export function luaFile(body: string, opts: { toolErrors?: boolean } = {}): string {
  mkdirSync(scriptsDir, { recursive: true });
  const file = join(scriptsDir, `s${scriptN++}.lua`);
  writeFileSync(file, `${luaCommon(Math.floor(Math.random() * 0x7fffffff), opts)}\n${body}`);
  return file;
}

const luaString = (s: string) => JSON.stringify(s); // a JSON string is a valid Lua string literal for our text
export const luaList = (xs: readonly string[]) => `{${xs.map(luaString).join(',')}}`;

/** A Lua request() for GETs with the agent headers and a key. */
export const luaGet = (path: string, key: string | null) =>
  luaFile(`
local headers = { ["X-Agent-Protocol"] = "svc/1", ["Accept"] = "application/json"${key ? `, ["Authorization"] = ${luaString(`Bearer ${key}`)}` : ''} }
local path = ${luaString(path)}
request = function() return wrk.format("GET", path, headers) end
`);

/**
 * A Lua request() for GETs as an anonymous reader sends them: no agent headers, no key, and the
 * `Accept-Encoding` given (none: the identity). With `paceMs`, each connection waits that many
 * milliseconds before each request (wrk's delay()): a fixed offered load, at most connections ×
 * 1000 ÷ paceMs a second, that neither the server nor wrk saturates, so that two servers are
 * compared at the same rate rather than each at its own ceiling (where wrk runs out of core first).
 */
export const luaAnonymousGet = (path: string, acceptEncoding: string | null = null, paceMs = 0) =>
  luaFile(`
local headers = { ${acceptEncoding === null ? '' : `["Accept-Encoding"] = ${luaString(acceptEncoding)}`} }
local path = ${luaString(path)}
request = function() return wrk.format("GET", path, headers) end
${paceMs > 0 ? `delay = function() return ${Math.round(paceMs)} end` : ''}
`);

export interface WrkRun {
  url: string;
  pid: number;
  connections: number;
  script: string;
  helpers?: number[];
  /** A process whose CPU over the round is reported on its own (it is among the helpers too). */
  watch?: number;
}

/**
 * One wrk round with the CPU of the server, the generator, the bench's helpers and the machine,
 * judged (harness.ts judgeRound): any answer that was not 2xx refuses it, as a busy machine does.
 */
export async function round(o: WrkRun, seconds: number): Promise<Round> {
  const helpers0 = (o.helpers ?? []).reduce((n, p) => n + safeCpu(p), 0);
  const watched0 = o.watch === undefined ? 0 : safeCpu(o.watch);
  const server0 = cpuMicros(o.pid);
  const thread0 = safeThreadCpu(o.pid);
  const snapshot0 = cpuSnapshot();
  const machine0 = machineBusyMicros();
  const { stdout, ...r } = await runWrk(children, o.url, { threads: 1, connections: o.connections, seconds, script: o.script });
  const server = cpuMicros(o.pid) - server0;
  const thread = safeThreadCpu(o.pid) - thread0;
  const machine = machineBusyMicros() - machine0;
  const others = busiestOthers(snapshot0, cpuSnapshot(), r.window_s);
  const helpers = (o.helpers ?? []).reduce((n, p) => n + safeCpu(p), 0) - helpers0;
  const watched = o.watch === undefined ? undefined : safeCpu(o.watch) - watched0;
  const statuses = parseStatuses(stdout);
  const j = judgeRound({
    window_s: r.window_s,
    completed: r.completed,
    server_cpu_us: server,
    generator_cpu_pct: r.generator_cpu_pct,
    generator_threads: 1,
    helpers_cpu_us: helpers,
    machine_busy_us: machine,
    failed: failedAnswers({ ...r, statuses }),
    others,
  });
  return {
    ...r,
    ...j,
    statuses,
    body_bytes: parseBodyBytes(stdout),
    request_thread_cpu_us: thread,
    ...(watched === undefined ? {} : { watched_cpu_us: watched }),
  };
}

/**
 * Where a round's server CPU went, a request: the request thread and the other threads (the
 * checkpoint worker, the log's syncs, the JIT, the collector), medians over the rounds. Printed
 * beside each write row, so a write that costs more at 1M says on which side.
 */
export function threadSplitNote(rs: readonly Round[]): string {
  const main = rs.map((r) => (r.completed > 0 ? (r.request_thread_cpu_us ?? 0) / r.completed : Number.NaN));
  const others = rs.map((r, i) => r.server_cpu_us_per_req - main[i]!);
  return `a request: ${Math.round(spread(main).median)} µs on the request thread, ${Math.round(spread(others).median)} µs on the others`;
}

/** A CPU reading, 0 when the process (or thread) is gone. */
const orZero = (read: () => number): number => {
  try {
    return read();
  } catch {
    return 0;
  }
};
export const safeCpu = (pid: number) => orZero(() => cpuMicros(pid));
export const safeThreadCpu = (pid: number) => orZero(() => threadCpuMicros(pid));

/** A warm-up, then ROUNDS measured rounds. */
export async function rounds(o: WrkRun, label: string): Promise<Round[]> {
  process.stderr.write(`· ${label}\n`);
  await round(o, WARMUP);
  const out: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) out.push(await round(o, SECONDS));
  return out;
}

// ---- scenarios ---------------------------------------------------------------------------------

export interface Ctx {
  size: string;
  meta: CorpusMeta;
  url: string;
  pid: number;
  bin: string;
  file: string; // the cached corpus (read-only)
  dataDir: string;
}

export const selected = (name: string, group: string) => ONLY.length === 0 || ONLY.includes(name) || ONLY.includes(group);
export const key = (i: number) => benchKey(i);

/**
 * Live posts not written by agents [from, to) and not yet voted on by them: vote targets that are
 * never a self-vote. `recent`: the newest posts; `spread`: posts evenly spread over the whole board
 * by sequence, its oldest included (the pages a vote reads and writes are then anywhere in the file).
 */
export function voteTargets(
  c: Pick<Ctx, 'dataDir' | 'meta'> & { file?: string },
  from: number,
  to: number,
  n: number,
  where: 'recent' | 'spread' = 'recent',
): string[] {
  const db = new Database(join(c.dataDir, 'svc.sqlite'), { readonly: true });
  try {
    const voters = c.meta.agent_ids.slice(from, to);
    const own = new Set(voters);
    // Not a post one of these voters already voted on: the seed's votes include -1s, and a +1 on
    // one is 409 VOTE_IMMUTABLE, which is not the write being measured.
    const voted = new Set<string>();
    const byVoter = db.query<{ target_id: string }, [string]>('SELECT target_id FROM votes WHERE voter_id = ?');
    for (const v of voters) for (const r of byVoter.all(v)) voted.add(r.target_id);
    type Candidate = { id: string; author_id: string };
    let candidates: Candidate[];
    if (where === 'recent') {
      candidates = db
        .query<Candidate, [number]>("SELECT id, author_id FROM posts WHERE deleted_at IS NULL AND kind = 'post' ORDER BY seq DESC LIMIT ?")
        .all(n * 2 + voted.size);
    } else {
      // Over the seeded board (the cached corpus's last row): what the scenarios before this one
      // wrote comes after it, and is mostly the writers' own posts and replies (a full run at 10k
      // left 810 targets of 4,000 when the whole table was spread over).
      const seeded = c.file ? new Database(c.file, { readonly: true }) : db;
      const last = seeded.query<{ m: number }, []>('SELECT max(seq) AS m FROM posts').get()!.m;
      if (seeded !== db) seeded.close();
      const at = db.query<Candidate, [number]>("SELECT id, author_id FROM posts WHERE seq >= ? AND deleted_at IS NULL AND kind = 'post' ORDER BY seq LIMIT 1");
      const picks = n * 3;
      const seen = new Set<string>();
      candidates = [];
      for (let i = 0; i < picks; i++) {
        const row = at.get(Math.floor((last * (i + 0.5)) / picks));
        if (row && !seen.has(row.id)) {
          seen.add(row.id);
          candidates.push(row);
        }
      }
    }
    return candidates
      .filter((r) => !own.has(r.author_id) && !voted.has(r.id))
      .map((r) => r.id)
      .slice(0, n);
  } finally {
    db.close();
  }
}

/** The paced writer (bench/writer.ts paced): `rate` writes a second to svc, replies and votes by the corpus's writers. */
export function pacedWriter(c: Ctx, rate: number, opts: { seconds?: number; first?: number; bodies?: 'sentence' | 'corpus' } = {}): Proc {
  const [w0, w1] = c.meta.roles.writers;
  return children.spawn([
    BUN,
    join(ROOT, 'bench/writer.ts'),
    'paced',
    JSON.stringify({
      url: c.url,
      rate,
      keys: Array.from({ length: w1 - w0 }, (_, i) => key(w0 + i)),
      threads: c.meta.recent_roots.slice(-200),
      voteTargets: voteTargets(c, w0, w1, 2000),
      ...opts,
    }),
  ]);
}
