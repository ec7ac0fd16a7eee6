// The pure parts of bench/run.ts (tested in test/bench/harness.test.ts): the machine's CPU
// accounting, when a round's figures may be judged, the spread over rounds, the rotation of peers,
// targets and verdicts, and the table rows.
import { readdirSync, readFileSync } from 'node:fs';

/** Whole-machine CPU from /proc/stat: busy and total jiffies (USER_HZ) over every core. */
export function parseProcStat(text: string): { busy: number; total: number } {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = cpuLine(text);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** /proc/stat's aggregate cpu line, in jiffies: user nice system idle iowait irq softirq steal … (guest is already in user). */
function cpuLine(text: string): number[] {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('no aggregate cpu line in /proc/stat');
  return line.trim().split(/\s+/).slice(1).map(Number);
}

/** The machine's busy CPU so far, in µs (all cores). */
export function machineBusyMicros(): number {
  return parseProcStat(readFileSync('/proc/stat', 'utf8')).busy * (1e6 / 100);
}

/** A process's name, parent and CPU so far (USER_HZ ticks, user and system) from its /proc/PID/stat line, or null. */
export function parseProcessStat(text: string): { name: string; ppid: number; ticks: number } | null {
  // The name is in parentheses and may hold spaces and parentheses itself: the fields follow the last ')'.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const f = text.slice(close + 2).split(' ');
  const ppid = Number(f[1]);
  const ticks = Number(f[11]) + Number(f[12]); // fields 14 and 15: utime, stime
  return Number.isFinite(ppid) && Number.isFinite(ticks) ? { name: text.slice(open + 1, close), ppid, ticks } : null;
}

/** Every process's CPU so far, and the machine's time no process is charged with (steal, interrupts), in USER_HZ ticks. */
export interface CpuSnapshot {
  procs: Map<number, { name: string; ppid: number; ticks: number }>;
  steal: number;
  irq: number;
}

/** Reads /proc (or `root`, for tests) into a CpuSnapshot: a few hundred small files, at a round's start and end. */
export function cpuSnapshot(root = '/proc'): CpuSnapshot {
  const procs: CpuSnapshot['procs'] = new Map();
  for (const entry of readdirSync(root)) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = readFileSync(`${root}/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const p = parseProcessStat(text);
    if (p) procs.set(Number(entry), p);
  }
  const f = cpuLine(readFileSync(`${root}/stat`, 'utf8'));
  return { procs, irq: (f[5] ?? 0) + (f[6] ?? 0), steal: f[7] ?? 0 };
}

/**
 * Who used the CPU between two snapshots besides the bench (`benchPid` and every process under
 * it: the server, wrk, the helpers), busiest first, in % of one core over `windowS`: processes by
 * name (a kernel thread's "/N" suffix dropped, so kworkers count as one), the hypervisor's steal
 * and the interrupts, each with a share above 0. A round refused for other processes' CPU names the busiest three (judgeRound).
 */
export function busiestOthers(a: CpuSnapshot, b: CpuSnapshot, windowS: number, benchPid = process.pid): { name: string; pct: number }[] {
  const ours = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 0 && hops < 64; hops++) {
      if (p === benchPid) return true;
      p = b.procs.get(p)?.ppid ?? a.procs.get(p)?.ppid ?? 0;
    }
    return false;
  };
  const byName = new Map<string, number>();
  for (const [pid, p] of b.procs) {
    if (ours(pid)) continue;
    const used = p.ticks - (a.procs.get(pid)?.ticks ?? 0);
    if (used <= 0) continue;
    const name = p.name.replace(/\/.*$/, '');
    byName.set(name, (byName.get(name) ?? 0) + used);
  }
  if (b.steal > a.steal) byName.set('steal (the hypervisor)', b.steal - a.steal);
  if (b.irq > a.irq) byName.set('interrupts', b.irq - a.irq);
  // A tick is 1/100 s: ticks over the window are % of one core.
  return [...byName].map(([name, ticks]) => ({ name, pct: ticks / Math.max(windowS, 1e-9) })).sort((x, y) => y.pct - x.pct);
}

/** A generator that used this share of its threads' cores measured itself, not the server. */
export const GENERATOR_SATURATED = 0.9;
/** CPU used by processes other than the server, the generator and the bench's own helpers, in % of one core, above which a round is refused. */
export const OTHER_CPU_LIMIT_PCT = 15;

export interface RoundCpu {
  window_s: number;
  completed: number;
  server_cpu_us: number;
  generator_cpu_pct: number; // of one core
  generator_threads: number;
  /** CPU of the bench's own other processes over the window (the paced writer, the prober), µs. */
  helpers_cpu_us: number;
  machine_busy_us: number;
  /** Answers that were not 2xx (statuses, socket errors, timeouts, tool errors): failedAnswers(). */
  failed: number;
  /** Who else used the CPU (busiestOthers), named when the round is refused for it. */
  others?: readonly { name: string; pct: number }[];
}

export interface RoundJudgement {
  server_cpu_pct: number;
  server_cpu_us_per_req: number;
  other_cpu_pct: number;
  /** Why this round's figures cannot be judged, or null. */
  refused: string | null;
}

/**
 * What a round's CPU says: the server's CPU per request, the CPU no process of the bench used
 * (another process held the CPU), and whether the round may be judged: not when any answer was
 * not 2xx (the round measured errors, whatever it read or wrote), not when the generator used
 * ≥ 90 % of its cores (it was the bottleneck), not when others used more than OTHER_CPU_LIMIT_PCT
 * of a core.
 */
export function judgeRound(r: RoundCpu): RoundJudgement {
  const server_cpu_pct = r.server_cpu_us / 1e4 / r.window_s;
  const generatorUs = (r.generator_cpu_pct / 100) * r.window_s * 1e6;
  const other = Math.max(0, r.machine_busy_us - r.server_cpu_us - generatorUs - r.helpers_cpu_us);
  const other_cpu_pct = other / 1e4 / r.window_s;
  const reasons: string[] = [];
  if (!(r.failed === 0)) reasons.push(`${Number.isFinite(r.failed) ? r.failed : 'uncounted'} answers were not 2xx`);
  if (r.generator_cpu_pct >= GENERATOR_SATURATED * 100 * r.generator_threads)
    reasons.push(`generator at ${r.generator_cpu_pct.toFixed(0)} % of ${r.generator_threads * 100} %: it was the bottleneck`);
  if (other_cpu_pct > OTHER_CPU_LIMIT_PCT) {
    // The busiest three by name, the rest together, and what no process still there at the round's
    // end was charged with: processes that ended meanwhile (a test run, a cron job).
    const all = r.others ?? [];
    const top = all.filter((o) => o.pct >= 1).slice(0, 3);
    const sum = (xs: readonly { pct: number }[]) => xs.reduce((n, o) => n + o.pct, 0);
    const rest = sum(all) - sum(top);
    const unnamed = other_cpu_pct - sum(all);
    const parts = [
      ...top.map((o) => `${o.name} ${o.pct.toFixed(0)} %`),
      ...(rest >= 1 ? [`${rest.toFixed(0)} % by others`] : []),
      ...(r.others && unnamed >= 5 ? [`${unnamed.toFixed(0)} % by processes that ended meanwhile`] : []),
    ];
    const named = parts.length ? ` (${parts.join(', ')})` : '';
    reasons.push(`other processes used ${other_cpu_pct.toFixed(0)} % of a core${named}`);
  }
  return {
    server_cpu_pct,
    server_cpu_us_per_req: r.completed > 0 ? r.server_cpu_us / r.completed : Number.NaN,
    other_cpu_pct,
    refused: reasons.length ? reasons.join('; ') : null,
  };
}

/** What a round's answers said, as the generator and its script counted them. */
export interface AnswerCounts {
  completed: number;
  non2xx: number; // wrk's count (4xx and 5xx)
  errors: number; // socket errors
  timeouts: number;
  /** Every answer's status as the script counted it (3xx and tool errors included), when it printed them. */
  statuses?: Record<string, number> | null;
}

/** How many of the answers counted by status were not a 2xx. */
export const notSuccess = (statuses: Record<string, number>): number => Object.entries(statuses).reduce((n, [k, v]) => n + (/^2\d\d$/.test(k) ? 0 : v), 0);

/**
 * The answers of a round that were not a 2xx success: by the script's status count when there is
 * one (it sees 3xx, and a 200 carrying a tool error, which wrk counts as fine), else wrk's non-2xx;
 * socket errors and timeouts always.
 */
export function failedAnswers(r: AnswerCounts): number {
  const counted = r.statuses ? notSuccess(r.statuses) : r.non2xx;
  return counted + r.errors + r.timeouts;
}

/**
 * Whether a probe of `n` requests can give a p99 that is not simply its slowest request: the 99th
 * percentile (nearest rank) is below the maximum only from 100 requests on, and takes more than
 * the one worst from 200. Null when it can; else why not.
 */
export function probeRefusal(n: number, min = MIN_PROBES): string | null {
  return n >= min ? null : `the prober made ${n} requests: a p99 needs ≥ ${min}`;
}
/** The fewest probes a round needs for its /healthz p99 to be more than its maximum. */
export const MIN_PROBES = 300;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Median, min and max of the rounds' figures (NaN-free; NaN when none). */
export function spread(values: readonly (number | null | undefined)[]): Spread {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const mid = xs.length >> 1;
  const median = xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
  return { median, min: xs[0]!, max: xs.at(-1)! };
}

/** Round r's order of the peers: each round starts one further along (svc, raw, express / raw, express, svc / …). */
export function rotation<T>(peers: readonly T[], round: number): T[] {
  const k = ((round % peers.length) + peers.length) % peers.length;
  return [...peers.slice(k), ...peers.slice(0, k)];
}

export interface Target {
  /** What is compared: a figure of the scenario's summary. */
  metric: string;
  op: '<' | '<=' | '>=' | '>';
  value: number;
  text: string;
}

export type Verdict = 'PASS' | 'FAIL' | 'NO VERDICT';

/**
 * The verdict on a target: NO VERDICT when any round was refused (its reasons are given), else
 * PASS or FAIL on the median figure — and FAIL when it passes on the median but not on the
 * worst round, so noise never turns a miss into a pass.
 */
export function verdict(t: Target, s: Spread, refusals: readonly (string | null)[]): { verdict: Verdict; why: string } {
  const refused = refusals.filter((r): r is string => r !== null);
  if (refused.length) return { verdict: 'NO VERDICT', why: `${refused.length} of ${refusals.length} rounds refused: ${refusalSummary(refused)}` };
  if (!Number.isFinite(s.median)) return { verdict: 'NO VERDICT', why: 'no figure' };
  const ok = (v: number) => (t.op === '<' ? v < t.value : t.op === '<=' ? v <= t.value : t.op === '>=' ? v >= t.value : v > t.value);
  const worst = t.op === '<' || t.op === '<=' ? s.max : s.min;
  if (!ok(s.median)) return { verdict: 'FAIL', why: `median ${fmt(s.median)} (target ${t.op} ${t.value})` };
  if (!ok(worst)) return { verdict: 'FAIL', why: `median passes, worst round ${fmt(worst)} does not (target ${t.op} ${t.value})` };
  return { verdict: 'PASS', why: '' };
}

/**
 * The reasons of the refused rounds in one line: answers that were not 2xx (how many, in how many
 * rounds), the generator as the bottleneck (in how many), the most CPU other processes took, and
 * any other reason once, as the rounds gave it.
 */
function refusalSummary(refused: readonly string[]): string {
  const reasons = refused.map((r) => r.split('; '));
  const failed = reasons.map((rs) => rs.reduce((n, x) => n + Number(/^(\d+) answers were not 2xx/.exec(x)?.[1] ?? 0), 0));
  const failedRounds = failed.filter((n) => n > 0).length;
  const generator = reasons.filter((rs) => rs.some((x) => x.startsWith('generator at'))).length;
  // The busiest round's share, and whom it named.
  let other = 0;
  let named = '';
  for (const x of reasons.flat()) {
    const m = /^other processes used (\d+) % of a core( \(.*\))?$/.exec(x);
    if (m && Number(m[1]) > other) [other, named] = [Number(m[1]), m[2] ?? ''];
  }
  const known = (x: string) => /^(\d+|uncounted) answers were not 2xx|^generator at|^other processes used/.test(x);
  const rest = [...new Set(reasons.flat().filter((x) => !known(x) || x.startsWith('uncounted')))];
  return [
    ...(failedRounds ? [`${failed.reduce((a, b) => a + b, 0)} answers were not 2xx in ${failedRounds}`] : []),
    ...(generator ? [`the generator was the bottleneck in ${generator}`] : []),
    ...(other > 0 ? [`other processes used up to ${other} % of a core${named}`] : []),
    ...rest,
  ].join('; ');
}

export const fmt = (n: number | null | undefined, digits?: number): string => {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  const d = digits ?? (Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2);
  return n.toFixed(d);
};

/** "12.3 (11.9–13.0)": the median and the spread over the rounds. */
export const withSpread = (s: Spread, digits?: number): string =>
  !Number.isFinite(s.median) ? '-' : s.min === s.max ? fmt(s.median, digits) : `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

/** One markdown table row. */
export const mdRow = (cells: readonly string[]): string => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;

/** Parses BENCH_SIZES / BENCH_ONLY style lists: comma-separated, trimmed, lower-case, no empties. */
export const list = (raw: string | undefined, dflt: string): string[] =>
  (raw ?? dflt)
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** The statuses a Lua script's done() printed as `STATUSES {"200":n,…}`, or null. */
export function parseStatuses(stdout: string): Record<string, number> | null {
  const m = /^STATUSES (\{.*\})\s*$/m.exec(stdout);
  return m ? (JSON.parse(m[1]!) as Record<string, number>) : null;
}

/** The answers' body bytes a Lua script's done() printed as `BODYBYTES n` (as received: compressed when coded), or null. */
export function parseBodyBytes(stdout: string): number | null {
  const m = /^BODYBYTES (\d+)\s*$/m.exec(stdout);
  return m ? Number(m[1]) : null;
}

/**
 * The Lua every scripted wrk run shares: uuid() (fresh idempotency keys: the run's nonce, a
 * per-thread random part and a counter, shaped as a version-4 uuid), a status count per answer
 * (response()), and done() printing them as one `STATUSES {…}` line (parseStatuses). With
 * `toolErrors`, a 2xx answer whose body holds an MCP tool error (`"isError":true`) or a JSON-RPC
 * error is counted under TOOL_ERROR instead of its status: /mcp answers both 200. It also sums the
 * answers' body bytes as they came (`BODYBYTES n`, parseBodyBytes).
 */
export const luaCommon = (nonce: number, opts: { toolErrors?: boolean } = {}): string => `
local counter = 0
statuses = {}
bodybytes = 0
local nonce = ${Math.floor(nonce) % 0x7fffffff}
init = function(args) math.randomseed(nonce + os.time()) end
function uuid()
  counter = counter + 1
  return string.format("%08x-%04x-4%03x-8%03x-%012x", nonce, math.random(0, 0xffff), math.random(0, 0xfff), math.random(0, 0xfff), counter)
end
response = function(status, headers, body)
  local k = tostring(status)${
    opts.toolErrors
      ? `
  if status < 300 and body and (string.find(body, '"isError":true', 1, true) or string.find(body, '"error":{"code":-', 1, true)) then k = "${TOOL_ERROR}" end`
      : ''
  }
  statuses[k] = (statuses[k] or 0) + 1
  if body then bodybytes = bodybytes + #body end
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function(summary, latency, requests)
  local total = {}
  local bytes = 0
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for k, v in pairs(s) do total[k] = (total[k] or 0) + v end
    bytes = bytes + t:get("bodybytes")
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, string.format('"%s":%d', k, v)) end
  io.write("STATUSES {" .. table.concat(parts, ",") .. "}\\n")
  io.write(string.format("BODYBYTES %d\\n", bytes))
end
`;

/** The status key luaCommon({toolErrors}) counts a 200 carrying a tool or JSON-RPC error under. */
export const TOOL_ERROR = 'tool_error';

/** A Lua string literal for `s` (printable ASCII as JSON escapes it: a valid Lua literal too). */
export function luaString(s: string): string {
  if (!/^[\x20-\x7e]*$/.test(s)) throw new Error('a Lua literal here takes printable ASCII only');
  return JSON.stringify(s);
}

/** A Lua request() sending the same request every time: `method` `path` with `headers` and `body`. */
export function luaRequest(method: string, path: string, headers: Record<string, string>, body?: string): string {
  const hs = Object.entries(headers)
    .map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`)
    .join(', ');
  return `
local headers = { ${hs} }
local body = ${body === undefined ? 'nil' : luaString(body)}
request = function() return wrk.format(${luaString(method)}, ${luaString(path)}, headers, body) end
`;
}

/** a − b round by round (the rounds were taken in pairs), as a spread. */
export function pairedDifference(a: readonly number[], b: readonly number[]): Spread {
  if (a.length !== b.length) throw new Error(`paired rounds: ${a.length} vs ${b.length}`);
  return spread(a.map((x, i) => x - b[i]!));
}

/** a ÷ b round by round (a[i] / b[i]: the rounds were taken in pairs), as a spread. */
export function pairedRatio(a: readonly number[], b: readonly number[]): Spread {
  if (a.length !== b.length) throw new Error(`paired rounds: ${a.length} vs ${b.length}`);
  return spread(a.map((x, i) => (b[i]! > 0 ? x / b[i]! : Number.NaN)));
}

/**
 * The proactive reclaim the kernel runs on this machine, read from DAMON's sysfs (`root`, normally
 * /sys/kernel/mm/damon/admin): each running kdamond's schemes that page out, as one line, or null
 * when none runs. A scheme that pages out memory idle for a minute drops the page cache a server
 * relies on, hot files' pages included (a region is judged by a sample of its pages): writes at
 * 1M then read pages from the disk on the request thread (docs/performance.md). The header prints
 * it so a reader knows which machine the figures came from.
 */
export function reclaimOf(root = '/sys/kernel/mm/damon/admin'): string | null {
  const read = (p: string): string | null => {
    try {
      return readFileSync(`${root}/${p}`, 'utf8').trim();
    } catch {
      return null;
    }
  };
  const found: string[] = [];
  const kdamonds = Number(read('kdamonds/nr_kdamonds') ?? 0);
  for (let k = 0; k < kdamonds; k++) {
    if (read(`kdamonds/${k}/state`) !== 'on') continue;
    const contexts = Number(read(`kdamonds/${k}/contexts/nr_contexts`) ?? 0);
    for (let c = 0; c < contexts; c++) {
      const ctx = `kdamonds/${k}/contexts/${c}`;
      const aggrUs = Number(read(`${ctx}/monitoring_attrs/intervals/aggr_us`) ?? 0);
      const schemes = Number(read(`${ctx}/schemes/nr_schemes`) ?? 0);
      for (let s = 0; s < schemes; s++) {
        const sc = `${ctx}/schemes/${s}`;
        if (read(`${sc}/action`) !== 'pageout') continue;
        const ageMin = Number(read(`${sc}/access_pattern/age/min`) ?? 0);
        const bytes = Number(read(`${sc}/quotas/bytes`) ?? 0);
        const resetMs = Number(read(`${sc}/quotas/reset_interval_ms`) ?? 0);
        const idle = aggrUs > 0 ? `idle ≥ ${Math.round((ageMin * aggrUs) / 1e6)} s` : `idle ≥ ${ageMin} aggregations`;
        const quota = bytes > 0 && resetMs > 0 ? `, up to ${Math.round(bytes / 2 ** 20 / (resetMs / 1000))} MB/s` : '';
        found.push(`DAMON (${read(`${ctx}/operations`) ?? '?'}) pages out memory ${idle}${quota}`);
      }
    }
  }
  return found.length ? found.join('; ') : null;
}

/** One reading of a thread's time spent runnable but waiting for a core so far (/proc/PID/task/TID/schedstat's second field): when (wall clock ms) and how much (ns). */
export type CoreWaitSample = readonly [atMs: number, waitedNs: number];

/** A thread's wait for a core so far, from its schedstat line (ns), or null when it cannot be read. */
export function parseSchedstat(text: string): number | null {
  const f = text.trim().split(/\s+/);
  const n = Number(f[1]);
  return f.length >= 3 && Number.isFinite(n) ? n : null;
}

/**
 * How long (ms) the sampled thread waited for a core between `from` and `to` (wall clock ms), at
 * most: the growth from the last sample at or before `from` to the first at or after `to`. Null
 * when the samples do not bracket the interval.
 */
export function coreWaitDuring(samples: readonly CoreWaitSample[], from: number, to: number): number | null {
  let before: CoreWaitSample | undefined;
  let after: CoreWaitSample | undefined;
  for (const s of samples) {
    if (s[0] <= from) before = s;
    if (s[0] >= to) {
      after = s;
      break;
    }
  }
  return before && after ? (after[1] - before[1]) / 1e6 : null;
}
