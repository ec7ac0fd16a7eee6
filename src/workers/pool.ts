// Work that is slow or parses hostile input runs in Bun worker threads, off the request path:
// a message in, a result out, within a time budget. A worker that crashes or overruns its budget
// is terminated and replaced, and only the job it held fails. A job's budget counts from the moment
// a started worker holds it: starting a worker (loading its modules, slow on a busy machine) is
// not the job's time, and has a bound of its own.

import { availableParallelism } from 'node:os';
import { PROCESS_METRICS } from '../lib/metrics.ts';

export class WorkerTimeout extends Error {}
export class WorkerCrash extends Error {}

interface Job {
  id: number;
  input: unknown;
  /** Buffers moved to the worker instead of copied (postMessage's transfer list). */
  transfer: Transferable[];
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** performance.now() when a worker took the job (for its time in GET /metrics). */
  takenAt?: number;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** The job's budget, or while the worker starts, the start's. */
  timer: ReturnType<typeof setTimeout> | null;
  /** The worker said it is ready (src/workers/serve.ts): its modules are loaded. */
  started: boolean;
  /** Ends the worker once it has been idle for the pool's `idleMs` (unset while it holds a job). */
  idle: ReturnType<typeof setTimeout> | null;
}

export interface PoolOptions {
  /**
   * A worker without a job for this long is ended (the next job starts another): for pools whose
   * jobs are rare, so an idle server does not keep a thread and its heap for them. Unset: kept.
   */
  idleMs?: number;
}

/** How long a worker may take to load its modules before it is taken as hung (generous: a cold start on a loaded machine). */
export const WORKER_START_MS = 60_000;

/** Where a worker file lives: beside the sources in the repo, inside the executable once compiled. */
export function workerLocation(name: string): string | URL {
  const compiled = import.meta.url.includes('$bunfs') || Bun.main.startsWith('/$bunfs/');
  return compiled ? `./workers/${name}.ts` : new URL(`../../workers/${name}.ts`, import.meta.url);
}

/**
 * How many workers background work may keep busy: every core but one, which stays with the
 * request thread (a scan that takes both cores of a 2-core machine makes /healthz wait). At least one.
 */
export function backgroundWorkers(cores = availableParallelism()): number {
  return Math.max(1, Math.floor(cores) - 1);
}

// GET /metrics, by pool (the worker file's name): jobs waiting for a worker, workers busy, each
// job's time from the moment a worker took it, and how jobs ended.
type Outcome = 'ok' | 'error' | 'timeout' | 'crash' | 'closed';
const openPools = new Map<string, Set<WorkerPool<unknown, unknown>>>();
const sumOver = (read: (p: WorkerPool<unknown, unknown>) => number) => () =>
  [...openPools].map(([pool, set]): [{ pool: string }, number] => [{ pool }, [...set].reduce((n, p) => n + read(p), 0)]);
PROCESS_METRICS.gauge(
  'svc_worker_queue_depth',
  'Jobs waiting for a free worker, by pool.',
  ['pool'],
  sumOver((p) => p.queued),
);
PROCESS_METRICS.gauge(
  'svc_worker_busy',
  'Workers holding a job, by pool.',
  ['pool'],
  sumOver((p) => p.busy),
);
const jobSeconds = PROCESS_METRICS.histogram(
  'svc_worker_job_duration_seconds',
  'Seconds from a worker taking a job to its answer (or its failure), by pool.',
  ['pool'],
  [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
);
const jobsDone = PROCESS_METRICS.counter('svc_worker_jobs_total', 'Worker jobs ended, by pool and outcome (ok, error, timeout, crash, closed).', [
  'pool',
  'outcome',
]);
const replacedWorkers = PROCESS_METRICS.counter('svc_worker_replaced_total', 'Workers terminated and replaced after a crash or an overrun budget, by pool.', [
  'pool',
]);

/** A pool's name in the metrics: its worker file without the folder and extension. */
export const poolName = (location: string | URL): string =>
  String(location)
    .split(/[/\\]/)
    .at(-1)!
    .replace(/\.[cm]?[jt]s$/, '');

export class WorkerPool<I, O> {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private listed = false; // counted in GET /metrics (from its first job: the root builds pools before any is used)
  replaced = 0; // workers replaced after a crash or a timeout (for tests and logs)
  retired = 0; // workers ended at their own request after a job (serveWorker's `retire`) or idle for `idleMs`
  readonly name: string;

  constructor(
    private readonly location: string | URL,
    readonly size = backgroundWorkers(),
    readonly defaultTimeoutMs = 5_000,
    private readonly options: PoolOptions = {},
  ) {
    this.name = poolName(location);
  }

  /** Jobs waiting for a free worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** Workers running now, holding a job or not. */
  get alive(): number {
    return this.slots.length;
  }

  /** Workers holding a job. */
  get busy(): number {
    return this.slots.reduce((n, s) => n + (s.job ? 1 : 0), 0);
  }

  /**
   * Runs one job. `transfer` lists buffers of `input` that are moved to the worker rather than
   * copied (a 2 MB site is copied in the request thread's time; moved, it costs nothing there):
   * they are unusable here afterwards, so pass only buffers the caller no longer reads.
   */
  run(input: I, timeoutMs = this.defaultTimeoutMs, transfer: Transferable[] = []): Promise<O> {
    if (this.closed) return Promise.reject(new WorkerCrash('worker pool is closed'));
    if (!this.listed) {
      this.listed = true;
      const same = openPools.get(this.name) ?? new Set();
      openPools.set(this.name, same);
      same.add(this as WorkerPool<unknown, unknown>);
    }
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, transfer, timeoutMs, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** A job's end, counted once: its time (when a worker had taken it) and its outcome. */
  private ended(job: Job, outcome: Outcome): void {
    if (job.takenAt !== undefined) jobSeconds.observe({ pool: this.name }, (performance.now() - job.takenAt) / 1000);
    jobsDone.inc({ pool: this.name, outcome });
  }

  /** Terminates every worker; queued and running jobs fail. */
  close(): void {
    if (!this.closed && this.listed) openPools.get(this.name)?.delete(this as WorkerPool<unknown, unknown>);
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      this.ended(job, 'closed');
      job.reject(new WorkerCrash('worker pool is closed'));
    }
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      if (slot.idle) clearTimeout(slot.idle);
      if (slot.job) {
        this.ended(slot.job, 'closed');
        slot.job.reject(new WorkerCrash('worker pool is closed'));
      }
      slot.worker.terminate();
    }
    this.slots = [];
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      slot.job = job;
      job.takenAt = performance.now();
      // A message to a worker still starting waits in its port; the budget starts with the worker.
      slot.worker.postMessage({ id: job.id, input: job.input }, job.transfer);
      if (slot.started) this.startBudget(slot, job);
    }
  }

  private startBudget(slot: Slot, job: Job): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.fail(slot, new WorkerTimeout(`worker job exceeded ${job.timeoutMs} ms`)), job.timeoutMs);
  }

  private spawn(): Slot {
    const worker = new Worker(this.location);
    const slot: Slot = { worker, job: null, timer: null, started: false, idle: null };
    slot.timer = setTimeout(() => this.fail(slot, new WorkerCrash(`worker did not start within ${WORKER_START_MS} ms`)), WORKER_START_MS);
    worker.onmessage = (e: MessageEvent<{ ready?: true; id: number; ok: boolean; result?: unknown; error?: string; retire?: true }>) => {
      if (e.data.ready) {
        slot.started = true;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        if (slot.job) this.startBudget(slot, slot.job);
        return;
      }
      const job = slot.job;
      if (!job || e.data.id !== job.id) return;
      if (slot.timer) clearTimeout(slot.timer);
      slot.job = null;
      slot.timer = null;
      this.ended(job, e.data.ok ? 'ok' : 'error');
      if (e.data.ok) job.resolve(e.data.result);
      else job.reject(new WorkerCrash(e.data.error ?? 'worker failed'));
      // Retired at its own request (a job that left its heap large): the thread ends and the next
      // job starts another, so the memory goes back whole instead of waiting in its allocator.
      if (e.data.retire) this.retire(slot);
      this.pump();
      if (slot.job === null && this.slots.includes(slot) && this.options.idleMs !== undefined) {
        slot.idle = setTimeout(() => {
          if (slot.job === null) this.retire(slot);
        }, this.options.idleMs);
        slot.idle.unref?.();
      }
    };
    worker.onerror = (e) => this.fail(slot, new WorkerCrash(`worker crashed: ${e.message}`));
    this.slots.push(slot);
    return slot;
  }

  /** Ends a worker that holds no job (its own request, or idle for `idleMs`): not a failure. */
  private retire(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.worker.terminate();
    this.slots = this.slots.filter((s) => s !== slot);
    this.retired++;
  }

  // A hung or crashed worker cannot be trusted with the next job: it is replaced.
  private fail(slot: Slot, error: Error): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.idle) clearTimeout(slot.idle);
    slot.worker.terminate();
    this.slots = this.slots.filter((s) => s !== slot);
    this.replaced++;
    replacedWorkers.inc({ pool: this.name });
    if (slot.job) this.ended(slot.job, error instanceof WorkerTimeout ? 'timeout' : 'crash');
    slot.job?.reject(error);
    slot.job = null;
    if (!this.closed) this.pump();
  }
}

/**
 * Readiness (GET /readyz): a worker starts here and answers a job. The probe is workers/ping.ts,
 * compiled into dist/svc like every other worker, run once through a pool of one that is then closed.
 */
export async function workerAnswers(location: string | URL = workerLocation('ping'), timeoutMs = 10_000): Promise<void> {
  const pool = new WorkerPool<string, string>(location, 1, timeoutMs);
  try {
    const answer = await pool.run('ping');
    if (answer !== 'ping') throw new WorkerCrash(`the probe worker answered ${JSON.stringify(answer)}`);
  } finally {
    pool.close();
  }
}
