// The served database's log, off the request thread (the why, and why it is sound: docs/operations.md,
// "Commits and checkpoints off the request thread"). Two parts, both given to the group commit
// (src/db/group-commit.ts, LogDurability):
//   - the sync: an fdatasync of the -wal file through node:fs/promises, which Bun runs on its thread
//     pool; the request thread only hands it over and hears back;
//   - the checkpoint: automatic checkpoints are off on the writing connection (wal_autocheckpoint =
//     0); once the log has reached `checkpointBytes` after a batch, a worker thread
//     (workers/wal-checkpoint.ts, src/db/checkpoint.ts) copies it into the database while the
//     batches go on, then the group commit holds its batches while the worker copies what they
//     wrote meanwhile and restarts the log, and lets them go. A batch that finds the whole log
//     copied before that (it could start the log over without syncing its header) waits for the
//     restart too. The log is bounded: once it reaches BOUND_FACTOR times the threshold during a
//     copy, the batches wait for the checkpoint's end, so it never passes that plus one batch (and
//     the few commits of writes that do not go through the group commit), unless a reader keeps
//     the log from restarting. The first restart lays the -wal file out to that bound
//     (src/db/checkpoint.ts, step 4), so no commit makes the file longer after it.
// While Litestream replicates it is the checkpointer: startReplicatedLog below keeps the off-thread
// sync and leaves the checkpoints to it (src/server.ts).
import type { Database } from 'bun:sqlite';
import { fstatSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { type CheckpointJob, type CheckpointResult, restartLog, setAutocheckpoint } from '../db/checkpoint.ts';
import { groupCommitBusy, groupCommitIdle, holdBatches, type LogDurability, setLogDurability } from '../db/group-commit.ts';
import { WAL_AUTOCHECKPOINT_PAGES } from '../db/open.ts';
import { logSize, shmDescriptor, wholeLogCheckpointed } from '../db/wal-index.ts';
import { PROCESS_METRICS } from '../lib/metrics.ts';
import { WorkerPool, workerLocation } from '../workers/pool.ts';

/**
 * The log's size that starts a checkpoint: 4,000 pages (4 KB pages and their 24-byte frame
 * headers), about 16 MB. SQLite's own 1,000 was kept while the held restart synced every page the
 * copies wrote; with their write-back started after each copy (src/db/checkpoint.ts), a larger log
 * copies a page the writes keep changing once for four times the writes, in larger batches the
 * disk writes faster. Measured at 1M posts beside the 1,000-page build, rounds interleaved: votes on
 * old posts 2,866/s against 2,487, 112 KB written to the disk a vote against 123
 * (docs/performance.md, "Checkpoints of 4,000 pages").
 */
export const CHECKPOINT_BYTES = 4000 * (4096 + 24);

/** The most a held restart copies, unless the copies before it ran out (COPIES): 250 pages, or a quarter of a smaller threshold. */
const heldCopyBytes = (threshold: number) => Math.min(threshold / 4, 250 * (4096 + 24));

/** While a checkpoint copies, the batches go on; once the log reaches this many times the threshold, they wait for its end. */
export const BOUND_FACTOR = 4;

/** The -wal file is laid out to the log's bound and this much more (about a batch of large writes): appends within it never make the file longer (src/db/checkpoint.ts, step 4). */
export const LAY_OUT_MARGIN = 4 * 1024 * 1024;

/** The copy is asked again, at most this many times in all, while what it has not copied is more than heldCopyBytes: the held restart then copies little. */
const COPIES = 6;

/**
 * The part of the -wal file just ahead of the log's end that the checkpoint worker asks into the
 * page cache (src/db/checkpoint.ts, readAhead), asked again once the log has used half of it: a
 * frame written into a block the cache no longer holds makes the kernel read the block first, in
 * the commit, on the request thread. 4 MB is a thousand frames, the writes of a few hundred votes.
 */
export const READ_AHEAD_BYTES = 4 * 1024 * 1024;

/** How long a checkpoint's restart may wait for the write lock and for readers to leave the log. */
const RESTART_BUSY_MS = 100;

/**
 * After a checkpoint that could not restart the log (a reader kept it), the next one waits this
 * long, twice as long after each that could not either, up to RETRY_MS: a reader that kept the log
 * for a moment (a document's build) is soon past, one that stays (another process) is asked again
 * at most once a second, each try holding the writes up to RESTART_BUSY_MS.
 */
export const RETRY_FIRST_MS = 25;
export const RETRY_MS = 1_000;

/** How long the next checkpoint waits after `failures` in a row that could not restart the log (1 or more). */
export const retryWait = (failures: number): number => Math.min(RETRY_MS, RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1));

const checkpointSeconds = PROCESS_METRICS.histogram(
  'svc_wal_checkpoint_seconds',
  'Seconds one checkpoint took on its worker thread, its copies (the writes go on) and its restart (the writes held).',
  ['restarted'],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);
const checkpointHeldSeconds = PROCESS_METRICS.histogram(
  'svc_wal_checkpoint_held_seconds',
  "Seconds the group commit held its writes for one checkpoint's restart (the copy of what was written during its copies, and the log's new header).",
  [],
  [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
);

export interface WalLogOptions {
  /** The log's size that starts a checkpoint (default CHECKPOINT_BYTES). */
  checkpointBytes?: number;
  /** Runs one checkpoint (default: the wal-checkpoint worker). Tests inject failures and observe holds. */
  checkpoint?: (job: CheckpointJob) => Promise<CheckpointResult>;
  /** Syncs the log (default: fdatasync of the -wal file). Tests inject a failure. */
  sync?: (wal: FileHandle) => Promise<void>;
  /** Asks a range of the -wal file into the page cache (default: the wal-checkpoint worker; none when `checkpoint` is injected and this is not). */
  readAhead?: (job: CheckpointJob) => Promise<unknown>;
}

export interface WalLog {
  /** Checkpoints done (restarted or not). */
  readonly checkpoints: number;
  /**
   * For a write another connection of the server made outside the group commit (a merge step of
   * the full-text index, src/search/merges.ts): as after a batch, a checkpoint starts once the log
   * has reached its threshold, and while it copies and the log is past its bound the promise says
   * to wait for its end before writing again. Null when nothing is to be waited for.
   */
  afterOutsideWrite(): Promise<void> | null;
  /** Waits for a checkpoint under way, then gives the connection back its in-commit syncs and closes the worker and the file. */
  stop(): Promise<void>;
}

/**
 * Takes the log of `db` (the writing connection to the database file `path`, in WAL mode) off the
 * request thread, until stop(). It starts from a restarted log whose header is on disk: a
 * checkpoint at start-up, before the server listens, on this connection (restartLog).
 */
export async function startWalLog(db: Database, path: string, opts: WalLogOptions = {}): Promise<WalLog> {
  const threshold = opts.checkpointBytes ?? CHECKPOINT_BYTES;
  const restarted = restartLog(db);
  // One handle for the server's life: a write-back error is reported to every descriptor open
  // when it happens, so this one hears of any error after this point.
  const wal = await open(`${path}-wal`, 'r');
  const shm = shmDescriptor(path);
  const logBytes = logSize(shm);
  // An unreadable WAL-index header falls back on the -wal file's size: never smaller than the log,
  // so the log stays bounded (with a checkpoint after every batch once the file has grown).
  const sizeOfLog = (): { bytes: number; uncopied: number } => {
    try {
      return logBytes();
    } catch {
      const bytes = fstatSync(wal.fd).size;
      return { bytes, uncopied: bytes };
    }
  };
  const sync = opts.sync ?? ((h: FileHandle) => h.datasync());
  let pool: WorkerPool<CheckpointJob, CheckpointResult> | null = null;
  const checkpoint =
    opts.checkpoint ??
    ((job: CheckpointJob) => {
      pool ??= new WorkerPool<CheckpointJob, CheckpointResult>(workerLocation('wal-checkpoint'), 1, 10 * 60_000);
      return pool.run(job);
    });
  const askAhead = opts.readAhead ?? (opts.checkpoint ? null : checkpoint);
  // The range of the -wal file last asked into the page cache; a log that starts over goes back before it.
  let aheadFrom = 0;
  let aheadTo = 0;
  const readAhead = (end: number) => {
    if (!askAhead || (end >= aheadFrom && end + READ_AHEAD_BYTES / 2 <= aheadTo)) return;
    // The first range once the log has used half of one: an idle server's few writes (those at
    // start) do not start the worker and its heap for this (idle memory, docs/performance.md).
    if (aheadTo === 0 && end < READ_AHEAD_BYTES / 2) return;
    aheadFrom = end;
    aheadTo = end + READ_AHEAD_BYTES;
    // Not waited for, and nothing depends on it: a failure only leaves the pages where they were.
    void askAhead({ path, step: 'readAhead', from: end, bytes: READ_AHEAD_BYTES }).catch(() => undefined);
  };
  let running: Promise<void> | null = null;
  // Another process's reader kept the start-up checkpoint from restarting the log: see `ended` below.
  let unrestarted = !restarted;
  let notBefore = 0;
  let failures = 0;
  let checkpoints = 0;

  // Not restarted: the next try comes after retryWait (RETRY_FIRST_MS, doubled up to RETRY_MS)
  // whatever the size. Meanwhile the log may be wholly copied yet not cut, and a commit may then
  // start it over from its head: a batch that finds it so (mayRestart, below: asked before the
  // batch and again inside its transaction) commits at FULL, and SQLite syncs the new header before
  // its frames; the batches after it append to that log, at OFF. Only that batch, not every batch
  // until the next checkpoint: those made the request thread sync a second's commits (85-87 at 1M
  // during votes on old posts, docs/performance.md).
  const ended = (restartedLog: boolean) => {
    unrestarted = !restartedLog;
    if (restartedLog) {
      failures = 0;
      return;
    }
    notBefore = performance.now() + retryWait(++failures);
  };
  const failed = (e: unknown) => {
    ended(false);
    console.error(JSON.stringify({ event: 'wal_checkpoint_failed', error: String((e as Error)?.message ?? e) }));
  };

  // The copies while the batches go on, then the restart while they are held (src/db/checkpoint.ts).
  const runCheckpoint = async (): Promise<void> => {
    const started = performance.now();
    try {
      for (let copies = 1; ; copies++) {
        await checkpoint({ path, step: 'copy', busyMs: 0 });
        if (copies >= COPIES || sizeOfLog().uncopied <= heldCopyBytes(threshold)) break;
      }
    } catch (e: unknown) {
      failed(e);
      return;
    }
    const held = performance.now();
    // The hold ends once the outcome is noted: the batches it releases commit as it says.
    const restart = checkpoint({ path, step: 'restart', busyMs: RESTART_BUSY_MS, layOut: BOUND_FACTOR * threshold + LAY_OUT_MARGIN }).then((r) => {
      checkpoints++;
      checkpointHeldSeconds.observe(undefined, (performance.now() - held) / 1000);
      checkpointSeconds.observe({ restarted: String(r.restarted) }, (performance.now() - started) / 1000);
      ended(r.restarted);
    }, failed);
    holdBatches(db, restart);
    await restart;
  };

  const durability: LogDurability = {
    sync: () => sync(wal),
    afterCommit() {
      const { bytes } = sizeOfLog();
      readAhead(bytes);
      // During the copies the batches go on until the log reaches its bound; then they wait for the end.
      if (running) return bytes >= threshold * BOUND_FACTOR ? running : null;
      if (performance.now() < notBefore) return null;
      if (!unrestarted && bytes < threshold) return null;
      running = runCheckpoint();
      void running.finally(() => {
        running = null;
      });
      return null;
    },
    // The log's own checkpoints start it over with its header synced; where one could not, the
    // batch that may start it over is found by mayRestart.
    fullSyncNext: () => false,
    // The whole log copied (our copy caught up, a checkpoint that could not restart it, or another
    // process checkpointed): the next commit could start the log over. During our checkpoint it
    // waits for the restart; else it commits at FULL.
    mayRestart: wholeLogCheckpointed(shm),
    restartPending: () => running,
  };
  setAutocheckpoint(db, 0);
  setLogDurability(db, durability);
  let stopped = false;
  return {
    get checkpoints() {
      return checkpoints;
    },
    afterOutsideWrite: () => (stopped ? null : durability.afterCommit()),
    async stop() {
      if (stopped) return;
      stopped = true;
      // Every write handed in is answered (or failed) before the log goes back to in-commit syncs.
      while (running || groupCommitBusy(db)) await (running ?? Bun.sleep(2));
      setLogDurability(db, null);
      setAutocheckpoint(db, WAL_AUTOCHECKPOINT_PAGES);
      pool?.close();
      await wal.close();
    },
  };
}

export interface ReplicatedLogOptions {
  /** Whether Litestream runs (it checkpoints then; svc's own automatic checkpoints are off). */
  litestreamUp: () => boolean;
  /** Syncs the log (default: fdatasync of the -wal file). */
  sync?: (wal: FileHandle) => Promise<void>;
}

/**
 * The log of a replicated server, synced off the request thread too. Litestream checkpoints it
 * (PASSIVE, without the write lock, or RESTART) and writes a row of its own just after, so svc
 * neither checkpoints nor holds its batches; a batch commits at OFF and is answered after the
 * off-thread sync, except when the log may start over in it: the whole log checkpointed (asked
 * before the batch and again once its transaction has begun, LogDurability.mayRestart), or
 * Litestream down (svc's own automatic checkpoints are back on, and run inside the commit with
 * its sync level). Those commit at FULL, which syncs a new log header before its frames.
 */
export async function startReplicatedLog(db: Database, path: string, opts: ReplicatedLogOptions): Promise<WalLog> {
  const wal = await open(`${path}-wal`, 'r');
  const shm = shmDescriptor(path);
  const sync = opts.sync ?? ((h: FileHandle) => h.datasync());
  const mayRestart = wholeLogCheckpointed(shm);
  setLogDurability(db, {
    sync: () => sync(wal),
    afterCommit: () => null,
    fullSyncNext: () => !opts.litestreamUp(),
    mayRestart,
  });
  let stopped = false;
  return {
    checkpoints: 0,
    // Litestream checkpoints whatever is written.
    afterOutsideWrite: () => null,
    async stop() {
      if (stopped) return;
      stopped = true;
      await groupCommitIdle(db);
      setLogDurability(db, null);
      await wal.close();
    },
  };
}
