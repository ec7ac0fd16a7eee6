// Work that is slow or parses hostile input runs in Bun worker threads, off the request path:
// a message in, a result out, within a time budget. A worker that crashes or overruns its budget
// is terminated and replaced, and only the job it held fails. A job's budget counts from the moment
// a started worker holds it: starting a worker (loading its modules, slow on a busy machine) is
// not the job's time, and has a bound of its own.

import { availableParallelism } from 'node:os';

export class WorkerTimeout extends Error {}
export class WorkerCrash extends Error {}

interface Job {
  id: number;
  input: unknown;
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** The job's budget, or while the worker starts, the start's. */
  timer: ReturnType<typeof setTimeout> | null;
  /** The worker said it is ready (src/workers/serve.ts): its modules are loaded. */
  started: boolean;
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

export class WorkerPool<I, O> {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  replaced = 0; // workers replaced after a crash or a timeout (for tests and logs)

  constructor(
    private readonly location: string | URL,
    readonly size = backgroundWorkers(),
    readonly defaultTimeoutMs = 5_000,
  ) {}

  run(input: I, timeoutMs = this.defaultTimeoutMs): Promise<O> {
    if (this.closed) return Promise.reject(new WorkerCrash('worker pool is closed'));
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, timeoutMs, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Terminates every worker; queued and running jobs fail. */
  close(): void {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new WorkerCrash('worker pool is closed'));
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.job?.reject(new WorkerCrash('worker pool is closed'));
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
      slot.job = job;
      // A message to a worker still starting waits in its port; the budget starts with the worker.
      slot.worker.postMessage({ id: job.id, input: job.input });
      if (slot.started) this.startBudget(slot, job);
    }
  }

  private startBudget(slot: Slot, job: Job): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.fail(slot, new WorkerTimeout(`worker job exceeded ${job.timeoutMs} ms`)), job.timeoutMs);
  }

  private spawn(): Slot {
    const worker = new Worker(this.location);
    const slot: Slot = { worker, job: null, timer: null, started: false };
    slot.timer = setTimeout(() => this.fail(slot, new WorkerCrash(`worker did not start within ${WORKER_START_MS} ms`)), WORKER_START_MS);
    worker.onmessage = (e: MessageEvent<{ ready?: true; id: number; ok: boolean; result?: unknown; error?: string }>) => {
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
      if (e.data.ok) job.resolve(e.data.result);
      else job.reject(new WorkerCrash(e.data.error ?? 'worker failed'));
      this.pump();
    };
    worker.onerror = (e) => this.fail(slot, new WorkerCrash(`worker crashed: ${e.message}`));
    this.slots.push(slot);
    return slot;
  }

  // A hung or crashed worker cannot be trusted with the next job: it is replaced.
  private fail(slot: Slot, error: Error): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.worker.terminate();
    this.slots = this.slots.filter((s) => s !== slot);
    this.replaced++;
    slot.job?.reject(error);
    slot.job = null;
    if (!this.closed) this.pump();
  }
}
