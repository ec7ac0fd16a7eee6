// The pure parts of bench/run.ts (tested in test/bench/harness.test.ts): the machine's CPU
// accounting, when a round's figures may be judged, the spread over rounds, the rotation of peers,
// targets and verdicts, and the table rows.
import { readFileSync } from 'node:fs';

/** Whole-machine CPU from /proc/stat: busy and total jiffies (USER_HZ) over every core. */
export function parseProcStat(text: string): { busy: number; total: number } {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('no aggregate cpu line in /proc/stat');
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest is already in user)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** The machine's busy CPU so far, in µs (all cores). */
export function machineBusyMicros(): number {
  return parseProcStat(readFileSync('/proc/stat', 'utf8')).busy * (1e6 / 100);
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
 * (another process held the CPU), and whether the round may be judged: not when the generator
 * used ≥ 90 % of its cores (it was the bottleneck), not when others used more than
 * OTHER_CPU_LIMIT_PCT of a core.
 */
export function judgeRound(r: RoundCpu): RoundJudgement {
  const server_cpu_pct = r.server_cpu_us / 1e4 / r.window_s;
  const generatorUs = (r.generator_cpu_pct / 100) * r.window_s * 1e6;
  const other = Math.max(0, r.machine_busy_us - r.server_cpu_us - generatorUs - r.helpers_cpu_us);
  const other_cpu_pct = other / 1e4 / r.window_s;
  const reasons: string[] = [];
  if (r.generator_cpu_pct >= GENERATOR_SATURATED * 100 * r.generator_threads)
    reasons.push(`generator at ${r.generator_cpu_pct.toFixed(0)} % of ${r.generator_threads * 100} %: it was the bottleneck`);
  if (other_cpu_pct > OTHER_CPU_LIMIT_PCT) reasons.push(`other processes used ${other_cpu_pct.toFixed(0)} % of a core`);
  return {
    server_cpu_pct,
    server_cpu_us_per_req: r.completed > 0 ? r.server_cpu_us / r.completed : Number.NaN,
    other_cpu_pct,
    refused: reasons.length ? reasons.join('; ') : null,
  };
}

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
  if (refused.length) {
    const other = refused.map((r) => Number(/other processes used (\d+) %/.exec(r)?.[1] ?? 0));
    const generator = refused.filter((r) => r.includes('generator')).length;
    // Any other reason (errors among the answers, say) is named as the first round gave it.
    const otherReason = refused.find((r) => !r.includes('generator') && !/other processes used/.test(r));
    const parts = [
      ...(generator ? [`the generator was the bottleneck in ${generator}`] : []),
      ...(Math.max(...other) > 0 ? [`other processes used up to ${Math.max(...other)} % of a core`] : []),
      ...(otherReason ? [otherReason] : []),
    ];
    return { verdict: 'NO VERDICT', why: `${refused.length} of ${refusals.length} rounds refused: ${parts.join('; ')}` };
  }
  if (!Number.isFinite(s.median)) return { verdict: 'NO VERDICT', why: 'no figure' };
  const ok = (v: number) => (t.op === '<' ? v < t.value : t.op === '<=' ? v <= t.value : t.op === '>=' ? v >= t.value : v > t.value);
  const worst = t.op === '<' || t.op === '<=' ? s.max : s.min;
  if (!ok(s.median)) return { verdict: 'FAIL', why: `median ${fmt(s.median)} (target ${t.op} ${t.value})` };
  if (!ok(worst)) return { verdict: 'FAIL', why: `median passes, worst round ${fmt(worst)} does not (target ${t.op} ${t.value})` };
  return { verdict: 'PASS', why: '' };
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

/**
 * The Lua every scripted wrk run shares: uuid() (fresh idempotency keys: the run's nonce, a
 * per-thread random part and a counter, shaped as a version-4 uuid), a status count per answer
 * (response()), and done() printing them as one `STATUSES {…}` line (parseStatuses). With
 * `toolErrors`, a 2xx answer whose body holds an MCP tool error (`"isError":true`) or a JSON-RPC
 * error is counted under TOOL_ERROR instead of its status: /mcp answers both 200.
 */
export const luaCommon = (nonce: number, opts: { toolErrors?: boolean } = {}): string => `
local counter = 0
statuses = {}
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
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for k, v in pairs(s) do total[k] = (total[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, string.format('"%s":%d', k, v)) end
  io.write("STATUSES {" .. table.concat(parts, ",") .. "}\\n")
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

/** a ÷ b round by round (a[i] / b[i]: the rounds were taken in pairs), as a spread. */
export function pairedRatio(a: readonly number[], b: readonly number[]): Spread {
  if (a.length !== b.length) throw new Error(`paired rounds: ${a.length} vs ${b.length}`);
  return spread(a.map((x, i) => (b[i]! > 0 ? x / b[i]! : Number.NaN)));
}
