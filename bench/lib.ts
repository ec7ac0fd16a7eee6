// Shared pieces of the bench scripts: settings from the environment, child processes that are
// always stopped (on exit, Ctrl-C or overstay), a server's listening line, CPU and memory of a
// process, the Node load generator's runs, warm-up-then-measure runs, the /healthz prober, the raw
// Bun.serve baseline, percentiles, and the main-function wrapper.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Subprocess } from 'bun';
import { probeClient } from './probe-client.ts';

export const ROOT = resolve(import.meta.dir, '..');
/** The bun running the bench, not a wrapper: its children's pids are the servers' own. */
export const BUN = process.execPath;

/** A positive number from the environment, or `dflt`. */
export function num(name: string, dflt: number): number {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
}

export type Child = Subprocess<'ignore', 'pipe', 'pipe'>;

/** What every load generator prints as its last line; each bench's generator adds its own figures. */
export interface LoadCounts {
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  window_s: number;
  generator_cpu_pct: number;
}

/** The bench's child processes: spawned from the project root, all stopped by stopAll(). */
export class Children {
  private readonly procs: Subprocess[] = [];

  spawn(cmd: string[], env: Record<string, string> = {}): Child {
    const proc = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, ...env }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    this.procs.push(proc);
    return proc;
  }

  forget(proc: Subprocess): void {
    const i = this.procs.indexOf(proc);
    if (i >= 0) this.procs.splice(i, 1);
  }

  /** SIGTERM, then SIGKILL after 5 s: the servers stop on SIGTERM, the timer is for a hung one. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.procs.splice(0).map(async (p) => {
        if (p.exitCode !== null || p.signalCode !== null) return;
        p.kill('SIGTERM');
        const done = await Promise.race([p.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
        if (!done) p.kill('SIGKILL');
      }),
    );
  }

  /** Spawns `svc serve` (or any server printing the listening line) and waits for its URL. */
  async server(label: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<{ proc: Child; url: string }> {
    const proc = this.spawn([BUN, ...args], env);
    return { proc, url: await listeningUrl(proc, label, timeoutMs) };
  }

  /**
   * Runs a load generator (a Node or bun script) in its own process, hard-killed after `timeoutS`,
   * and answers the JSON of its last stdout line.
   */
  async jsonRun<T>(cmd: string[], timeoutS: number): Promise<T> {
    const proc = this.spawn(cmd);
    const killer = setTimeout(() => proc.kill('SIGKILL'), timeoutS * 1000);
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(killer);
    this.forget(proc);
    if (code !== 0) throw new Error(`load generator exited ${code}: ${err.slice(-2000)}`);
    return lastJsonLine<T>(out, '');
  }

  /**
   * Starts `script --probe url`, a bench's own /healthz prober (see probeMain); stop() ends it and
   * answers the JSON it printed last.
   */
  probe<T>(script: string, url: string): { stop(): Promise<T> } {
    const proc = this.spawn([BUN, script, '--probe', url]);
    const out = new Response(proc.stdout).text();
    return {
      stop: async () => {
        proc.kill('SIGTERM');
        const text = await out;
        await proc.exited;
        this.forget(proc);
        return lastJsonLine<T>(text);
      },
    };
  }

  /**
   * The baseline a cached document is compared with: a bare Bun.serve in its own process (RAW_SERVER)
   * answering GET `path` with `body` and the `copy` headers of svc's answer `from`, checked to answer
   * those very bytes. `file` is where the body is written for it.
   */
  async rawTwin(o: { path: string; body: string; from: Headers; copy: readonly string[]; file: string }): Promise<{ proc: Child; url: string }> {
    const headers = Object.fromEntries(o.copy.flatMap((h) => (o.from.has(h) ? [[h, o.from.get(h)!]] : [])));
    writeFileSync(o.file, o.body);
    const spec = { path: new URL(o.path, 'http://x').pathname, file: o.file, headers };
    const raw = await this.server('raw Bun.serve', ['-e', RAW_SERVER], { RAW_SPEC: JSON.stringify(spec) });
    const rawBody = await (await fetch(`${raw.url}${o.path}`)).text();
    if (rawBody !== o.body) throw new Error('the raw server does not answer the same bytes');
    return raw;
  }
}

/** The JSON of the last line a child printed (`empty` when it printed nothing). */
export function lastJsonLine<T>(out: string, empty = '{}'): T {
  return JSON.parse(out.trim().split('\n').at(-1) ?? empty) as T;
}

// A per-request handler (not a static Response) so it does the same kind of work per request as
// any dynamic route; Bun adds Date and Content-Length as it does for svc. RAW_SPEC: {path, file, headers}.
const RAW_SERVER = `
const { path, file, headers } = JSON.parse(process.env.RAW_SPEC);
const body = require('node:fs').readFileSync(file, 'utf8');
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  routes: { [path]: { GET: () => new Response(body, { headers }) } },
  fetch: () => new Response('not found', { status: 404 }),
});
console.log(JSON.stringify({ event: 'listening', url: 'http://127.0.0.1:' + server.port }));
const stop = () => { server.stop(true); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
`;

/**
 * One load scenario: a warm-up run of `load` (its argument: seconds), then a measured one, with the
 * server's CPU over the measured run (µs, and % of one core over the generator's window).
 */
export async function warmThenMeasure<R extends { window_s: number }>(
  name: string,
  pid: number,
  s: { warmup: number; seconds: number },
  load: (seconds: number) => Promise<R>,
): Promise<{ run: R; server_cpu_us: number; server_cpu_pct: number }> {
  process.stderr.write(`· ${name}: warm-up ${s.warmup} s, measure ${s.seconds} s\n`);
  await load(s.warmup);
  const before = cpuMicros(pid);
  const run = await load(s.seconds);
  const used = cpuMicros(pid) - before;
  return { run, server_cpu_us: used, server_cpu_pct: used / 1e4 / run.window_s };
}

/** The load benches' common settings: BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS (default 50). */
export function loadSettings(d: { seconds: number; warmup: number }): { seconds: number; warmup: number; connections: number } {
  return { seconds: num('BENCH_SECONDS', d.seconds), warmup: num('BENCH_WARMUP_SECONDS', d.warmup), connections: num('BENCH_CONNECTIONS', 50) };
}

/**
 * Waits for a server's {"event":"listening","url":…} line and answers the URL. Keeps draining
 * stdout and stderr afterwards so the child never blocks on a full pipe; the tail of stderr goes
 * into the error when the line does not come.
 */
export async function listeningUrl(proc: Child, label: string, timeoutMs = 30_000): Promise<string> {
  let stderr = '';
  void (async () => {
    for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>) stderr = (stderr + new TextDecoder().decode(chunk)).slice(-4000);
  })();
  const reader = proc.stdout.getReader();
  const deadline = Date.now() + timeoutMs;
  let buf = '';
  while (Date.now() < deadline) {
    const next = await Promise.race([reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
    if (!next || next.done) break;
    buf += new TextDecoder().decode(next.value);
    for (const line of buf.split('\n').slice(0, -1)) {
      try {
        const ev = JSON.parse(line) as { event?: string; url?: string };
        if (ev.event === 'listening' && ev.url) {
          void (async () => {
            while (!(await reader.read()).done); // keep draining stdout
          })();
          return ev.url;
        }
      } catch {
        // not JSON: ignore
      }
    }
  }
  throw new Error(`${label} did not report listening within ${timeoutMs / 1000} s (exit ${proc.exitCode}); stderr: ${stderr}`);
}

/** User+system CPU time, µs, of the process or thread a /proc `stat` file describes (Linux only). */
function statMicros(file: string): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100); // USER_HZ is 100 on Linux
}

/** CPU time (user+system, all threads) of a process in microseconds, from /proc (Linux only). */
export const cpuMicros = (pid: number): number => statMicros(`/proc/${pid}/stat`);

/**
 * CPU time of one thread of a process (user+system, µs): the request thread is the one whose id is
 * the process's (Bun answers every request on its main thread; the rest are workers, the thread
 * pool that syncs the log, the JIT and the collector's helpers).
 */
export const threadCpuMicros = (pid: number, tid = pid): number => statMicros(`/proc/${pid}/task/${tid}/stat`);

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid: number): { rss_mb: number; peak_rss_mb: number; anon_mb: number; file_mb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n');
  const kb = (field: string) => Number(/(\d+) kB/.exec(status.find((l) => l.startsWith(field)) ?? '')?.[1] ?? Number.NaN);
  const mb = (field: string) => Math.round(kb(field) / 102.4) / 10;
  // RSS is the process's own memory (anonymous: heaps, page caches) and the file pages it maps
  // (the executable's code, mostly). The second moves with the machine's page cache, not the code:
  // the same build maps 5 MB more of itself when its file was just written (a fresh build) than once
  // it has been evicted and read back (docs/performance.md, "Idle memory").
  return { rss_mb: mb('VmRSS:'), peak_rss_mb: mb('VmHWM:'), anon_mb: mb('RssAnon:'), file_mb: mb('RssFile:') };
}

/**
 * Runs a bench's main: its exit code on success, 1 (after cleanup) when the bench itself failed
 * or overstayed `limitMs`, 130 on Ctrl-C or SIGTERM after stopping every child.
 */
export function runBench(main: () => Promise<number>, cleanup: () => Promise<void>, opts: { limitMs?: number } = {}): void {
  let interrupted = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`bench interrupted (${sig}); stopping the server`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  const overall =
    opts.limitMs === undefined
      ? undefined
      : setTimeout(() => {
          console.error(`bench overstayed ${opts.limitMs! / 60_000} minutes; stopping the servers`);
          void cleanup().finally(() => process.exit(1));
        }, opts.limitMs);
  main().then(
    (code) => {
      clearTimeout(overall);
      process.exit(code);
    },
    async (err: unknown) => {
      if (interrupted) return; // the signal handler is already cleaning up and will exit
      console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
      await cleanup();
      process.exit(1);
    },
  );
}

/** Deterministic filler text of `n` words for seeded posts. */
const WORDS =
  'latency cache warmup replay cursor sqlite index benchmark result delivered experiment measured p99 throughput agent thread reply vote pin inbox queue worker budget schema migration verdict baseline metric channel devnet audit paper'.split(
    ' ',
  );
export const prose = (i: number, n: number) => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** p50, p99 and max of `times` (ms), 2 decimals. */
export const latencyMs = (times: readonly number[]) => ({
  p50_ms: round(percentile(times, 50), 2),
  p99_ms: round(percentile(times, 99), 2),
  max_ms: round(percentile(times, 100), 2),
});

/**
 * The /healthz prober's loop, in a bench's own child process (Children.probe): `loops` requests in
 * flight at once (1 by default), each loop GETting `url` every `intervalMs` (5) until SIGTERM or
 * `limitMs`; answers each request's time (ms). A request that fails counts in `failures`.
 */
export async function probeTimes(
  url: string,
  limitMs: number,
  opts: { intervalMs?: number; loops?: number; failures?: { n: number }; starts?: number[] } = {},
): Promise<number[]> {
  const times: number[] = [];
  let stop = false;
  process.on('SIGTERM', () => (stop = true));
  const deadline = Date.now() + limitMs;
  const loop = async () => {
    // A kept-alive connection a loop, the answer's bytes counted and dropped (bench/probe-client.ts: fetch cost the prober's cores).
    const client = probeClient(url);
    while (!stop && Date.now() < deadline) {
      const t0 = performance.now();
      const { status } = await client.get();
      const ok = status >= 200 && status < 300;
      times.push(performance.now() - t0);
      opts.starts?.push(performance.timeOrigin + t0); // the wall clock's ms, as another process reads it
      if (!ok && opts.failures) opts.failures.n++;
      await Bun.sleep(opts.intervalMs ?? 5);
    }
    client.close();
  };
  await Promise.all(Array.from({ length: opts.loops ?? 1 }, loop));
  return times;
}

/**
 * The prober child's whole life: probeTimes, then one line {requests, failures, p50_ms, p99_ms,
 * max_ms, max_at} (max_at: when the slowest probe was sent, the wall clock's ms), and exit.
 */
export async function probeMain(url: string, limitMs: number, opts: { intervalMs?: number; loops?: number } = {}): Promise<never> {
  const failures = { n: 0 };
  const starts: number[] = [];
  const times = await probeTimes(url, limitMs, { ...opts, failures, starts });
  let slowest = 0;
  for (let i = 1; i < times.length; i++) if (times[i]! > times[slowest]!) slowest = i;
  console.log(JSON.stringify({ requests: times.length, failures: failures.n, ...latencyMs(times), max_at: starts[slowest] ?? null }));
  process.exit(0);
}

// ---- one svc server for the benches that measure memory (continuity) ------------------------

export interface Server {
  url: string;
  proc: Child;
  memory(): { rss_mb: number; peak_rss_mb: number };
  stop(): Promise<number>;
}

/** Starts `src/main.ts serve` on `dataDir` (port chosen by the OS) and waits for its listening line. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const children = new Children();
  const { proc, url } = await children.server('svc', ['src/main.ts', 'serve', '--port', '0', '--data', dataDir], env);
  return {
    url,
    proc,
    memory: () => memoryOf(proc.pid),
    async stop() {
      proc.kill('SIGTERM');
      return await proc.exited;
    },
  };
}
