// The load generator of the throughput benches (bench/run.ts, bench/platform.ts): wrk, a C
// program that costs far less per request than the servers it drives, run in its own process so
// that the servers, not the generator, are what is measured. Its CPU is taken from the kernel's
// accounting of the child (all its threads); a run in which it used ≥ 90 % of the cores its
// threads may use measured the generator, and the benches then print no verdict. A Lua script
// (opts.script) sets methods, headers and bodies per request; what it prints in done() is in stdout.
import type { Children } from './lib.ts';

export const WRK_MISSING = 'wrk is not installed; install it with: apt-get update && apt-get install -y wrk (Debian/Ubuntu), or brew install wrk (macOS)';

/** The wrk executable, or null. */
export const findWrk = (): string | null => Bun.which('wrk');

export interface WrkResult {
  rps: number;
  completed: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Bytes wrk read over the run (headers and bodies, as on the wire; wrk prints them to 2 decimals of its unit). */
  read_bytes: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  window_s: number;
  threads: number;
  connections: number;
  generator_cpu_pct: number; // of one core; up to threads × 100
  generator_saturated: boolean;
}

export const SATURATED_SHARE = 0.9;

const toMs = (v: string, unit: string) => Number(v) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? Number.NaN);

/** Parses wrk's --latency report. */
export function parseWrk(out: string): Omit<WrkResult, 'threads' | 'connections' | 'generator_cpu_pct' | 'generator_saturated' | 'window_s'> {
  const lat = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m ? toMs(m[1]!, m[2]!) : null;
  };
  const max = /^\s*Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)/m.exec(out);
  const done = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const completed = Number(done?.[1] ?? 0);
  const read = /requests in [\d.]+\w+, ([\d.]+)([KMGT]?)B read/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    completed,
    ok: completed - non2xx,
    non2xx,
    errors: sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) : 0,
    timeouts: sock ? Number(sock[4]) : 0,
    read_bytes: read ? Number(read[1]) * 1024 ** ' KMGT'.indexOf(read[2] || ' ') : Number.NaN,
    p50_ms: lat('50'),
    p99_ms: lat('99'),
    max_ms: max ? toMs(max[1]!, max[2]!) : null,
  };
}

/** One bounded wrk run against `url` (loopback); killed if it overstays by 30 s. */
export async function runWrk(
  children: Children,
  url: string,
  opts: { threads: number; connections: number; seconds: number; script?: string; headers?: Record<string, string> },
): Promise<WrkResult & { stdout: string }> {
  const wrk = findWrk();
  if (!wrk) throw new Error(WRK_MISSING);
  const proc = children.spawn([
    wrk,
    '-t',
    String(opts.threads),
    '-c',
    String(opts.connections),
    '-d',
    `${opts.seconds}s`,
    '--latency',
    '--timeout',
    '10s',
    ...Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    ...(opts.script ? ['-s', opts.script] : []),
    url,
  ]);
  const killer = setTimeout(() => proc.kill('SIGKILL'), (opts.seconds + 30) * 1000);
  const t0 = performance.now();
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const window = (performance.now() - t0) / 1000;
  clearTimeout(killer);
  children.forget(proc);
  if (code !== 0) throw new Error(`wrk exited ${code}: ${err.slice(-1000)}`);
  const usage = proc.resourceUsage();
  const cpuUs = usage ? Number(usage.cpuTime.user) + Number(usage.cpuTime.system) : Number.NaN;
  const generator_cpu_pct = cpuUs / 1e4 / window;
  return {
    ...parseWrk(out),
    stdout: out,
    window_s: window,
    threads: opts.threads,
    connections: opts.connections,
    generator_cpu_pct,
    generator_saturated: !(generator_cpu_pct < SATURATED_SHARE * 100 * opts.threads),
  };
}
