// Checkpoints off the request thread. SQLite checkpoints the WAL inside the commit that crosses
// its autocheckpoint threshold (1,000 pages): that commit copies ~4 MB into the database and
// syncs the database file before its request is answered, and every other request waits on the
// loop meanwhile (a 2 MB lab publish crosses it every second publish). The server turns the
// connection's autocheckpoint off and a worker thread (workers/wal-checkpoint.ts) runs a passive
// checkpoint on its own connection every `intervalMs`: the copy and the database sync happen on
// the other core, the request thread only ever syncs the log. The worker starts when the log first
// reaches the size SQLite would have checkpointed at (an idle server keeps no thread for it).
// Litestream, when it replicates, is the only checkpointer instead (src/ops/replica.ts): the
// server stops this one while it runs.
import type { Database } from 'bun:sqlite';
import { statSync } from 'node:fs';
import { AUTOCHECKPOINT_PAGES, type CheckpointResult, setAutocheckpoint } from '../db/checkpoint.ts';
import { WorkerPool, workerLocation } from '../workers/pool.ts';

/** The log's size at which the worker starts: SQLite's own threshold (1,000 pages of 4 KB). */
const START_BYTES = AUTOCHECKPOINT_PAGES * 4096;

const walBytes = (path: string): number => {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
};

export interface Checkpointer {
  /** Whether the worker was started (the log reached START_BYTES once). */
  readonly started: boolean;
  /** Checkpoints the worker completed (tests, logs). */
  readonly runs: number;
  /** The last checkpoint's counts, or null before the first. */
  readonly last: CheckpointResult | null;
  /** Stops the timer and, once a checkpoint under way has ended, the worker; the connection checkpoints on its own again. */
  stop(): Promise<void>;
}

export function startCheckpointer(db: Database, path: string, opts: { intervalMs?: number; timeoutMs?: number } = {}): Checkpointer {
  const intervalMs = opts.intervalMs ?? 1_000;
  let pool: WorkerPool<{ path: string }, CheckpointResult> | null = null;
  setAutocheckpoint(db, 0);
  let running: Promise<void> | null = null;
  let stopped = false;
  const state = { runs: 0, last: null as CheckpointResult | null };
  const tick = () => {
    if (running || stopped) return;
    if (!pool) {
      if (walBytes(path) < START_BYTES) return;
      pool = new WorkerPool<{ path: string }, CheckpointResult>(workerLocation('wal-checkpoint'), 1, opts.timeoutMs ?? 60_000);
    }
    running = pool.run({ path }).then(
      (r) => {
        state.runs++;
        state.last = r;
        running = null;
      },
      (e: unknown) => {
        running = null;
        // A worker that crashed or overran is replaced by the pool; the next tick tries again.
        console.error(JSON.stringify({ event: 'checkpoint_failed', error: String((e as Error)?.message ?? e) }));
      },
    );
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref?.();
  return {
    get started() {
      return pool !== null;
    },
    get runs() {
      return state.runs;
    },
    get last() {
      return state.last;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      // A checkpoint is left to end (it is bounded by the pool's timeout), never cut in the middle.
      await running;
      pool?.close();
      setAutocheckpoint(db, AUTOCHECKPOINT_PAGES);
    },
  };
}
