// The full-text index's merges, off the request thread (why: schema/0039_posts_fts_merges.sql and
// docs/performance.md, "The index's merges off the request thread"). Every TICK_MS the request
// thread reads the index's structure record, one small row; when it changed since the last job
// ended with nothing left to merge (a commit added a segment), the merge worker
// (src/search/merge-step.ts) is given a job: one bounded 'merge' step in its own short write
// transaction. A step that merged something is followed by another at the next tick, until one
// finds nothing left. Between ticks FTS5's crisis merge, in the writing connection's commit, keeps
// each level under 16 segments (cheap at the low levels where it happens: their segments are a
// few batches' terms). The worker thread starts with the first job, so a server nobody writes to
// never starts it.
import type { Db } from '../db/open.ts';
import { PROCESS_METRICS } from '../lib/metrics.ts';
import { WorkerPool, workerLocation } from '../workers/pool.ts';
import { structureReader } from './index-store.ts';
import type { MergeJob, MergeResult } from './merge-step.ts';

/**
 * How often the structure is looked at, and how soon a job that left work is followed by the next.
 * Measured at 10k (docs/performance.md, "The index's merges off the request thread"): steps every
 * few milliseconds did four times the merge work of four steps a second (the crisis merge in the
 * commit then takes the lowest levels 16 at a time) and cost the request thread more; and every
 * step makes the writing connection's page cache start over (SQLite drops a connection's cache
 * when another connection has written).
 */
export const TICK_MS = 250;

/**
 * The merge worker ends after this long without a job, and the next job starts another (30-40 ms
 * of its own thread's CPU): a server nobody writes to keeps no thread and heap for merges (one job
 * at a start was enough to keep them for good; docs/performance.md, "The index without positions").
 * Under writes a job comes every tick, so the worker stays.
 */
export const MERGE_IDLE_MS = 1_000;

/** After a failed job, the next waits this long (a worker that cannot start is not started four times a second). */
const FAILED_PAUSE_MS = 10_000;

/** About how long one step should hold the write lock; a step ends only at a term's end, so some hold it far longer (merge-step.ts). */
export const STEP_MS = 8;

/** The most pages one step writes, whatever its pace. */
export const MAX_STEP_PAGES = 512;

/**
 * Segments on one level at which a job goes on stepping past its one step (merge-step.ts), far below
 * the crisis merge's 200 (schema/0041_posts_fts_crisis_merge.sql): an agent writing 200 a second adds
 * 50 between two ticks.
 */
export const BEHIND_SEGMENTS = 32;

const widestGauge = PROCESS_METRICS.gauge(
  'svc_posts_index_widest_level_segments',
  "The most segments one level of the full-text index held after the merge worker's last job (the commit that finds 200 on a level merges it on the request thread).",
);

const stepSeconds = PROCESS_METRICS.histogram(
  'svc_posts_index_merge_step_seconds',
  "Seconds one merge step of the full-text index held the write lock, on the merge worker's connection (the group commit's batches wait meanwhile).",
  [],
  [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
);

export interface PostsIndexMergesOptions {
  tickMs?: number;
  pages?: number;
  stepMs?: number;
  /** A job's budget for more than one step (default 0: one step a job, the next one tick later). */
  budgetMs?: number;
  /** Segments on a level at which a job goes on past its budget (default BEHIND_SEGMENTS; 0: never). */
  behind?: number;
  /** How long the merge worker may wait for a job before it ends (default MERGE_IDLE_MS). */
  idleMs?: number;
  /** How long the next job waits after a failed one (default FAILED_PAUSE_MS). */
  failedPauseMs?: number;
  /** Runs one job (default: the posts-fts-merge worker). */
  run?: (job: MergeJob) => Promise<MergeResult>;
  /**
   * After a job that merged (its steps wrote to the log outside the group commit): the served log's
   * bound (src/ops/wal-log.ts, afterOutsideWrite). A promise holds the next job until it settles.
   */
  afterMerge?: () => Promise<void> | null;
}

export interface PostsIndexMerges {
  /** Jobs run so far. */
  readonly jobs: number;
  /** Merge workers ended for want of a job so far. */
  readonly idleEnded: number;
  /** Waits for a job under way, closes the worker's connection and the worker. */
  stop(): Promise<void>;
}

const sameBytes = (a: Uint8Array | null, b: Uint8Array | null): boolean =>
  a === b || (a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]));

/** Merges the full-text index of `db` (the writing connection to the database file `path`) until stop(). */
export function startPostsIndexMerges(db: Db, path: string, opts: PostsIndexMergesOptions = {}): PostsIndexMerges {
  let pool: WorkerPool<MergeJob, MergeResult> | null = null;
  const run =
    opts.run ??
    ((job: MergeJob) => {
      pool ??= new WorkerPool<MergeJob, MergeResult>(workerLocation('posts-fts-merge'), 1, 60_000, { idleMs: opts.idleMs ?? MERGE_IDLE_MS });
      return pool.run(job);
    });
  const read = structureReader(db);
  // What the structure was when a job last ended with nothing to merge.
  let settled = read();
  let running: Promise<void> | null = null;
  let more = false;
  let stopped = false;
  let jobs = 0;
  let failures = 0;
  let notBefore = 0;

  const tick = () => {
    if (stopped || running || performance.now() < notBefore) return;
    const now = read();
    if (!more && sameBytes(now, settled)) return;
    jobs++;
    const job = {
      path,
      pages: opts.pages ?? MAX_STEP_PAGES,
      stepMs: opts.stepMs ?? STEP_MS,
      budgetMs: opts.budgetMs ?? 0,
      behind: opts.behind ?? BEHIND_SEGMENTS,
    };
    running = run(job)
      .then(
        async (result) => {
          for (const ms of result.steps) stepSeconds.observe(undefined, ms / 1000);
          if (result.widest !== undefined) widestGauge.set(undefined, result.widest);
          more = result.more;
          // Read after the job, its own merges included. A segment a commit added after the job's
          // last step is merged after the next change: until then it costs a search one segment more.
          if (!more) settled = read();
          // The log stays bounded when only merges write to it (a checkpoint starts from here too).
          if (result.steps.length > 0) await opts.afterMerge?.()?.catch(() => undefined);
        },
        (e: unknown) => {
          more = false;
          notBefore = performance.now() + (opts.failedPauseMs ?? FAILED_PAUSE_MS);
          if (failures++ === 0) console.error(JSON.stringify({ event: 'posts_index_merge_failed', error: String((e as Error)?.message ?? e) }));
        },
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, opts.tickMs ?? TICK_MS);
  timer.unref?.();

  return {
    get jobs() {
      return jobs;
    },
    get idleEnded() {
      return pool?.retired ?? 0;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await running;
      if (pool) {
        // A worker ended for want of a job took its connection with it: none is started to close nothing.
        if (pool.alive > 0) await pool.run({ path, pages: 0, stepMs: 0, budgetMs: 0, close: true }).catch(() => undefined);
        pool.close();
      }
    },
  };
}
