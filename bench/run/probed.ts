// A round of work done by the bench's own helper processes (article submits, lab publishes, a
// disk neighbour) while other processes probe the server (bench/writer.ts probe): the server's,
// the helpers' and the machine's CPU over the round, the probes' figures, and the refusals that
// follow from them (harness.ts probeRefusal: too few probes for a p99 that is not the maximum;
// any probe that failed).
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { busiestOthers, type CoreWaitSample, coreWaitDuring, cpuSnapshot, machineBusyMicros, notSuccess, parseSchedstat, probeRefusal } from '../harness.ts';
import { BUN, cpuMicros, lastJsonLine, ROOT } from '../lib.ts';
import { children, helperRound, type Proc, type Round, safeCpu } from './context.ts';

export interface Probe {
  requests: number;
  failures: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** When the slowest probe was sent (wall clock ms), as the prober printed it. */
  max_at?: number | null;
  /** How long the server's request thread waited for a core during the slowest probe (ms, at most; null: not known). */
  max_core_wait_ms?: number | null;
}

/**
 * Samples, every millisecond until stop(), how long the thread `tid` of `pid` (the request thread:
 * tid = pid) has waited for a core so far. A probe's maximum that is mostly such a wait measured
 * the machine's cores (taken by other processes, the bench's own included), not svc's work.
 */
export function sampleCoreWait(pid: number, tid = pid): { stop(): CoreWaitSample[] } {
  const file = `/proc/${pid}/task/${tid}/schedstat`;
  const samples: CoreWaitSample[] = [];
  const take = () => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    const ns = parseSchedstat(text);
    if (ns !== null) samples.push([performance.timeOrigin + performance.now(), ns]);
  };
  take();
  const timer = setInterval(take, 1);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export interface ProbedRound {
  /** The JSON line the work process printed last (null when it printed none). */
  out: unknown;
  probes: Probe[];
  server_us: number;
  helpers_us: number;
  machine_us: number;
  /** Who else used the CPU meanwhile (harness.ts busiestOthers). */
  others: { name: string; pct: number }[];
  window_s: number;
  /** Why the probes cannot be judged, or null. */
  probe_refused: string | null;
}

const usageOf = (p: Proc) => {
  const u = p.resourceUsage();
  return u ? Number(u.cpuTime.user) + Number(u.cpuTime.system) : 0;
};

/**
 * Starts a prober per URL (each its own process), then the work (`work()` spawns it: it ends by
 * itself), waits for it, stops the probers and answers what the round measured. `extraHelpers`
 * are other processes of the bench running meanwhile (their CPU is the bench's, not another's).
 */
export async function probedRound(
  serverPid: number,
  probeUrls: readonly string[],
  work: () => Proc,
  extraHelpers: readonly number[] = [],
): Promise<ProbedRound> {
  const waits = sampleCoreWait(serverPid);
  const probers = probeUrls.map((u) => children.spawn([BUN, join(ROOT, 'bench/writer.ts'), 'probe', u]));
  const outs = probers.map((p) => new Response(p.stdout).text());
  await Bun.sleep(50); // the probers are up before the work starts
  const cpu0 = cpuMicros(serverPid);
  const snapshot0 = cpuSnapshot();
  const self0 = process.cpuUsage();
  const machine0 = machineBusyMicros();
  const helpersCpu = () => [...probers.map((p) => p.pid), ...extraHelpers].reduce((n, pid) => n + safeCpu(pid), 0);
  const helpers0 = helpersCpu();
  const t0 = performance.now();
  const w = work();
  const out = await new Response(w.stdout).text();
  await w.exited;
  children.forget(w);
  const window_s = (performance.now() - t0) / 1000;
  // The bench's own process is a helper too: it samples the request thread's waits every millisecond meanwhile.
  const self = process.cpuUsage(self0);
  const helpers_us = helpersCpu() - helpers0 + usageOf(w) + self.user + self.system;
  const server_us = cpuMicros(serverPid) - cpu0;
  const machine_us = machineBusyMicros() - machine0;
  const others = busiestOthers(snapshot0, cpuSnapshot(), window_s);
  const probes: Probe[] = [];
  for (const [i, p] of probers.entries()) {
    p.kill('SIGTERM');
    probes.push(lastJsonLine<Probe>(await outs[i]!));
    await p.exited;
    children.forget(p);
  }
  const samples = waits.stop();
  for (const p of probes) p.max_core_wait_ms = p.max_at == null ? null : coreWaitDuring(samples, p.max_at, p.max_at + p.max_ms);
  const reasons = probes.flatMap((p, i) => [probeRefusal(p.requests), p.failures > 0 ? `${p.failures} probes of ${probeUrls[i]} were not 2xx` : null]);
  const refused = reasons.filter((r): r is string => r !== null);
  return {
    out: out.trim() ? lastJsonLine(out) : null,
    probes,
    server_us,
    helpers_us,
    machine_us,
    others,
    window_s,
    probe_refused: refused.length ? refused.join('; ') : null,
  };
}

/**
 * One probe's (or the work's own) figures of a probed round as a judged round: its requests, the
 * ones that failed, its latencies, the round's CPU, and refused for the probes' reasons and `also`.
 */
export function probeRound(x: ProbedRound, figures: Probe, ...also: (string | null)[]): Round {
  const r = helperRound({
    completed: figures.requests,
    statuses: { '200': figures.requests - figures.failures, ...(figures.failures ? { failed: figures.failures } : {}) },
    p50_ms: figures.p50_ms,
    p99_ms: figures.p99_ms,
    max_ms: figures.max_ms,
    window_s: x.window_s,
    concurrency: 2,
    cpu: { server_us: x.server_us, helpers_us: x.helpers_us, machine_us: x.machine_us, others: x.others },
  });
  r.refused = [r.refused, x.probe_refused, ...also].filter(Boolean).join('; ') || null;
  return r;
}

/** Why the paced writer's writes refuse the rounds they ran beside (it printed nothing, or some were not 2xx), or null. */
export function writerRefusal(writes: { statuses: Record<string, number> } | null): string | null {
  if (writes === null) return 'the writer printed nothing';
  const failed = notSuccess(writes.statuses);
  return failed > 0 ? `${failed} of the agent's writes were not 2xx` : null;
}

/** A probe's maximum as the round lines print it, with the request thread's wait for a core during it when it waited a millisecond or more. */
export const maxText = (p: Probe): string =>
  `${p.max_ms}${p.max_core_wait_ms != null && p.max_core_wait_ms >= 1 ? ` (${p.max_core_wait_ms.toFixed(1)} waiting for a core)` : ''}`;

/** A row's note: in each round, how long the request thread waited for a core during the slowest probe (ms). */
export const coreWaitNote = (probes: readonly Probe[]): string =>
  `during each round's slowest probe the request thread waited for a core ${probes.map((p) => (p.max_core_wait_ms == null ? '?' : p.max_core_wait_ms.toFixed(1))).join(', ')} ms`;
