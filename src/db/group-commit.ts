// Group commit for board writes. Every post writes ~25 pages to the WAL (the row, five indexes,
// the full-text segment, quota, idempotency key, mention and inbox rows), and the commit of those
// pages is most of a write's cost. Writes that arrive together are therefore run one after
// another inside one IMMEDIATE transaction and committed once: each still runs in a savepoint of
// its own (tx() nests as a savepoint), so a refused write rolls back alone and costs nothing, and
// no request is answered before the commit that holds its write is durable. Under light load a
// batch holds one write and this is the plain one-request, one-transaction path.
//
// The served database (src/server.ts, src/ops/wal-log.ts) also takes the disk off the request
// thread: a batch commits with synchronous = OFF (its log frames are written, nothing is synced),
// the log is then synced on another thread (LogDurability.sync) and only that answers the batch's
// requests. Log frames carry checksums chained from the log's header: at recovery SQLite keeps the
// commits up to the first frame that is missing or torn, so every commit whose sync completed is
// kept, and an answer waits for exactly that. A failed sync fails its batch's writes and every
// write after it (see failLog). Why the log header needs no sync of its own, and when a batch
// commits at FULL instead: docs/operations.md, "Commits and checkpoints off the request thread".
import { PROCESS_METRICS } from '../lib/metrics.ts';
import { BUSY_TIMEOUT_MS, type Db } from './open.ts';

/**
 * How the served database's log becomes durable off the request thread. Without one (tests on an
 * in-memory database, a replicated server, SVC_UNSAFE_SYNC_NORMAL), every commit syncs as the
 * connection's synchronous setting says, inside the commit.
 */
export interface LogDurability {
  /** Makes every commit written so far durable (the -wal file's fdatasync, off the request thread). */
  sync(): Promise<void>;
  /**
   * Called after each batch's commit. A promise holds the next batches until it settles (the log
   * has grown past its bound while a checkpoint copies it): writes queue meanwhile, in order;
   * nothing else waits.
   */
  afterCommit(): Promise<void> | null;
  /** The next batch commits at synchronous = FULL (SQLite then syncs the log header itself). */
  fullSyncNext(): boolean;
  /**
   * For a log another process checkpoints (Litestream): whether the next write transaction may
   * start the log over (the whole log is checkpointed). Asked before a batch, which then commits at
   * FULL, and again once its transaction has begun, before its first write: a checkpoint that
   * ended in between rolls the batch back (nothing written yet) and it runs again at FULL.
   */
  mayRestart?(): boolean;
  /**
   * The served log's own checkpoint under way, whose end starts the log over with its header
   * synced (src/ops/wal-log.ts): a batch that finds the whole log checkpointed (mayRestart) waits
   * for it, held, instead of committing at FULL on this thread. Null when none runs.
   */
  restartPending?(): Promise<void> | null;
}

/** Thrown inside a batch's transaction, before any write, when the log may restart after all. */
class LogMayRestart extends Error {}

/** Every write after a failed log sync fails with this: what is on disk is not known (restart the server). */
export class LogSyncFailed extends Error {}

interface LogState {
  durability: LogDurability;
  /** Settled writes whose commit is written, waiting for the next sync. */
  awaitingSync: Settle[];
  syncing: boolean;
  /** Holds on the next batches (holdBatches: a checkpoint's restart, the log past its bound): none runs while any is on. */
  holds: number;
  /** The first failed sync: no write is answered as stored after it. */
  failed: Error | null;
  /** The connection's total_changes() after the last batch: rows changed since were changed outside the group commit. */
  changesSeen: number;
  /** Rows changed outside the group commit so far (each such commit synced on the thread that made it). */
  outside: number;
  /** Since when the batch at the queue's head has found the write lock taken (another process's), or null. */
  busySince: number | null;
  /** A retry of that batch is scheduled: its timer flushes. */
  busyRetry: boolean;
}

type Settle = { pending: Pending; outcome: { ok: true; value: unknown } | { ok: false; error: unknown } };
const logs = new WeakMap<Db, LogState>();

/** Whether a write of `db` is queued, held or waiting for its log sync (a stop waits until none is). */
export function groupCommitBusy(db: Db): boolean {
  const log = logs.get(db);
  return queues.has(db) || (log !== undefined && (log.syncing || log.holds > 0 || log.awaitingSync.length > 0));
}

/** Settles once nothing of `db` is queued, held or waiting for its sync (before a close). */
export async function groupCommitIdle(db: Db): Promise<void> {
  while (groupCommitBusy(db)) await Bun.sleep(1);
}

/**
 * Settles once every commit made so far is durable: a sync started after this call has ended (at
 * once when commits sync inside the commit). For an answer read outside the group commit that
 * stands for a write, such as an idempotent replay found before the write pipeline: its original
 * may belong to a batch whose sync has not ended yet. Rejects after a failed log sync.
 */
export function durable(db: Db): Promise<void> {
  const log = logs.get(db);
  if (!log) return Promise.resolve();
  if (log.failed) return Promise.reject(log.failed);
  return new Promise<void>((resolve, reject) => {
    const pending: Pending = { run: () => undefined, resolve: () => resolve(), reject, queuedAt: performance.now() };
    log.awaitingSync.push({ pending, outcome: { ok: true, value: undefined } });
    syncLog(db, log);
  });
}

/**
 * Holds the next batches of `db` (a served database) until `until` settles: writes queue, in order,
 * and run once no hold is left; reads and everything else go on. A batch under way is never cut:
 * batches run synchronously, so this takes effect from the next one.
 */
export function holdBatches(db: Db, until: Promise<unknown>): void {
  const log = logs.get(db);
  if (log) holdOn(db, log, until);
}

function holdOn(db: Db, log: LogState, until: Promise<unknown>): void {
  log.holds++;
  const release = () => {
    log.holds--;
    flush(db);
  };
  until.then(release, release);
}

/** Whether `db`'s log is made durable off the request thread (the served database), see setLogDurability. */
export const logSyncedOffThread = (db: Db): boolean => logs.has(db);

/** Gives `db` a log made durable off the request thread (null: back to syncing inside each commit). */
export function setLogDurability(db: Db, durability: LogDurability | null): void {
  if (durability)
    logs.set(db, {
      durability,
      awaitingSync: [],
      syncing: false,
      holds: 0,
      failed: null,
      changesSeen: totalChanges(db),
      outside: 0,
      busySince: null,
      busyRetry: false,
    });
  else logs.delete(db);
}

// Rows the connection has changed since it opened (SQLite's total_changes()): what a write outside
// the group commit leaves between two batches.
const totalChangesOf = new WeakMap<Db, { get: () => { n: number } | null }>();
function totalChanges(db: Db): number {
  let q = totalChangesOf.get(db);
  if (!q) {
    q = db.query<{ n: number }, []>('SELECT total_changes() AS n');
    totalChangesOf.set(db, q);
  }
  return q.get()!.n;
}

/** Counts what was changed outside the group commit since the last batch (logged the first time). */
function noteOutside(db: Db, log: LogState): void {
  const now = totalChanges(db);
  if (now === log.changesSeen) return;
  if (log.outside === 0) console.error(JSON.stringify({ event: 'write_outside_group_commit', rows: now - log.changesSeen }));
  outsideWrites.inc(undefined, now - log.changesSeen);
  log.outside += now - log.changesSeen;
  log.changesSeen = now;
}

/**
 * Rows of `db` (a served database, its log synced off the request thread) changed by a commit
 * outside the group commit: such a commit syncs on the thread that made it. Every write of the
 * server goes through the group commit, so this stays 0 (tests check it after driving the server).
 */
export function writesOutsideGroupCommit(db: Db): number {
  const log = logs.get(db);
  if (!log) return 0;
  noteOutside(db, log);
  return log.outside;
}

interface Pending {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  queuedAt: number; // performance.now() when the write was handed in
}

// GET /metrics: how many writes share a commit, and how long a write waits for its durable commit.
const batchSizes = PROCESS_METRICS.histogram(
  'svc_group_commit_batch_size',
  'Writes committed together in one group commit.',
  [],
  [1, 2, 4, 8, 16, 32, 64, 128, 256],
);
const waits = PROCESS_METRICS.histogram(
  'svc_group_commit_wait_seconds',
  'Seconds from a write being handed to group commit until its commit is done (queue, the batch and the commit).',
  [],
  [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
);
const failedCommits = PROCESS_METRICS.counter('svc_group_commit_failures_total', 'Group commits whose commit itself failed (every write of the batch failed).');
const logSyncs = PROCESS_METRICS.histogram(
  'svc_wal_sync_seconds',
  'Seconds one sync of the log took, off the request thread (it answers every batch committed before it started).',
  [],
  [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
);
const failedSyncs = PROCESS_METRICS.counter('svc_wal_sync_failures_total', 'Log syncs that failed (the writes they held, and every write after, failed).');
const retriedAtFull = PROCESS_METRICS.counter(
  'svc_group_commit_retried_at_full_total',
  'Batches rolled back before their first write and run again at synchronous = FULL: the log could start over in them (a checkpoint by another process ended meanwhile).',
);
const committedAtFull = PROCESS_METRICS.counter(
  'svc_group_commit_full_sync_total',
  'Batches committed with the sync inside the commit, on the request thread (synchronous = FULL): the log could start over in them (after a checkpoint that could not restart it, or one by another process).',
);
const waitedForRestart = PROCESS_METRICS.counter(
  'svc_group_commit_waited_for_restart_total',
  "Batches that found the whole log checkpointed while the server's own checkpoint ran, and waited for it to start the log over instead of committing with the sync inside.",
);
const outsideWrites = PROCESS_METRICS.counter(
  'svc_writes_outside_group_commit_total',
  'Rows changed by a commit outside the group commit, which synced on the thread that made it (0 unless a write path was missed).',
);

/** A batch larger than this is split: bounds the time other work waits on one commit. */
const MAX_BATCH = 256;

const queues = new WeakMap<Db, Pending[]>();

// Each write's savepoint as three statements prepared once per database (db.transaction() would
// build a new wrapper, and its savepoint statements, for every write of every batch). Through
// db.query, whose statements the connection finalizes when it closes: one made by db.prepare and
// never finalized keeps the connection open past close(), and the WAL is then not checkpointed
// and removed at shutdown (Litestream started a new generation at the next start).
interface Savepoint {
  open: { run: () => unknown };
  release: { run: () => unknown };
  undo: { run: () => unknown };
}
const savepoints = new WeakMap<Db, Savepoint>();
function savepointOf(db: Db): Savepoint {
  let sp = savepoints.get(db);
  if (!sp) {
    sp = {
      open: db.query('SAVEPOINT group_commit_write'),
      release: db.query('RELEASE group_commit_write'),
      undo: db.query('ROLLBACK TO group_commit_write'),
    };
    savepoints.set(db, sp);
  }
  return sp;
}

/** `run` in its own savepoint: a throw undoes this write only (the savepoint is rolled back and released) and is rethrown. */
function inSavepoint(sp: Savepoint, run: () => unknown): unknown {
  sp.open.run();
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    sp.undo.run();
    sp.release.run();
    throw error;
  }
  sp.release.run();
  return value;
}

/** Answers each write of `settled` with its outcome (its wait observed). */
function answer(settled: Settle[]): void {
  const done = performance.now();
  for (const { pending, outcome } of settled) {
    waits.observe(undefined, (done - pending.queuedAt) / 1000);
    if (outcome.ok) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
  }
}

/**
 * Runs `batch` in one IMMEDIATE transaction, each write in its savepoint: their outcomes, or throws
 * when the commit itself failed. `recheck`, asked once the transaction has begun, throws
 * LogMayRestart before any write when it answers true.
 */
function commitBatch(db: Db, batch: Pending[], recheck: (() => boolean) | null = null): Settle[] {
  const sp = savepointOf(db);
  const settled: Settle[] = [];
  let begun = false;
  try {
    db.transaction(() => {
      begun = true;
      if (recheck?.()) throw new LogMayRestart();
      const hooks = batchHooks.get(db) ?? [];
      for (const h of hooks) h.begin(batch.length);
      runBatch(sp, batch, settled);
      for (const h of hooks) h.end();
    }).immediate();
  } catch (error) {
    // BEGIN IMMEDIATE found the write lock taken (busy_timeout 0 in the served database): nothing ran.
    if (!begun && (error as { code?: string })?.code === 'SQLITE_BUSY') throw new WriteLockBusy(error);
    throw error;
  }
  batchSizes.observe(undefined, batch.length);
  return settled;
}

/**
 * Work a batch does inside its transaction around its writes, outside their savepoints: `begin`
 * (told how many writes the batch holds) before the first, `end` after the last. A throw from
 * either fails the whole batch, as a failed commit does. (The full-text index's: src/search/deferred-index.ts.)
 */
export interface BatchHooks {
  begin(writes: number): void;
  end(): void;
}

const batchHooks = new WeakMap<Db, BatchHooks[]>();

/** Adds `hooks` to every batch the group commit runs on `db`. */
export function onEveryBatch(db: Db, hooks: BatchHooks): void {
  const list = batchHooks.get(db) ?? [];
  list.push(hooks);
  batchHooks.set(db, list);
}

/** Thrown when a batch could not begin: another connection holds the write lock (`original`: SQLite's SQLITE_BUSY). */
class WriteLockBusy extends Error {
  constructor(readonly original: unknown) {
    super('the write lock is held by another connection');
  }
}

/** Each write of `batch` in its own savepoint, its outcome in `settled`: a throw undoes that write only. */
function runBatch(sp: Savepoint, batch: Pending[], settled: Settle[]): void {
  for (const p of batch) {
    try {
      settled.push({ pending: p, outcome: { ok: true, value: inSavepoint(sp, p.run) } });
    } catch (error) {
      settled.push({ pending: p, outcome: { ok: false, error } });
    }
  }
}

/** A failed log sync: what it held fails, and so does every later write (an acknowledgement could otherwise follow a commit that is lost). */
function failLog(log: LogState, error: unknown): void {
  if (!log.failed) {
    failedSyncs.inc();
    log.failed = new LogSyncFailed(
      `the write-ahead log could not be synced (${String((error as Error)?.message ?? error)}); writes are refused until the server restarts`,
    );
    console.error(JSON.stringify({ event: 'wal_sync_failed', error: String((error as Error)?.message ?? error) }));
  }
  const held = log.awaitingSync.splice(0);
  for (const { pending } of held) pending.reject(log.failed);
}

/**
 * Syncs the log for every write whose batch is committed; its end answers them and flushes what
 * queued meanwhile as the next batch. One sync at a time, and no commit while it runs: the writes
 * that arrive during a sync share the next commit and the next sync (a write waits at most for the
 * sync under way and its own), as they shared the blocking commit before.
 */
function syncLog(db: Db, log: LogState): void {
  if (log.syncing || log.awaitingSync.length === 0) return;
  const held = log.awaitingSync.splice(0);
  log.syncing = true;
  const started = performance.now();
  log.durability.sync().then(
    () => {
      logSyncs.observe(undefined, (performance.now() - started) / 1000);
      log.syncing = false;
      answer(held);
      flush(db);
      // What waits without a batch (durable) gets a sync of its own when no batch started one.
      syncLog(db, log);
    },
    (error: unknown) => {
      log.syncing = false;
      log.awaitingSync.unshift(...held);
      failLog(log, error);
      flush(db);
    },
  );
}

const writeLockWaits = PROCESS_METRICS.counter(
  'svc_group_commit_write_lock_busy_total',
  'Times a batch found the write lock held by another connection (Litestream, svc admin) and was tried again from a timer, the request thread free meanwhile.',
);

/**
 * `batch` found the write lock taken: back to the queue's head, tried again after a short wait
 * (1 ms, doubling to 32 ms), or failed like SQLite's own busy timeout once it has waited
 * BUSY_TIMEOUT_MS. Writes queued meanwhile wait behind it, in order.
 */
function waitForWriteLock(db: Db, log: LogState, batch: Pending[]): void {
  writeLockWaits.inc();
  const now = performance.now();
  log.busySince ??= now;
  if (now - log.busySince >= BUSY_TIMEOUT_MS) {
    log.busySince = null;
    failedCommits.inc();
    // As SQLite's own busy timeout would have failed them, on this thread, after the same wait.
    const error = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    for (const p of batch) p.reject(error);
    flushLogged(db, log);
    return;
  }
  requeue(db, batch);
  log.busyRetry = true;
  const delay = Math.min(32, 2 ** Math.floor(Math.log2(1 + (now - log.busySince) / 4)));
  setTimeout(() => {
    log.busyRetry = false;
    flush(db);
  }, delay);
}

/** One batch of the queue of a database whose log is synced off the request thread (see the top). */
function flushLogged(db: Db, log: LogState): void {
  // A hold, or the sync under way: their end flushes (writes handed in meanwhile join the queue, in order).
  if (log.holds > 0 || log.syncing || log.busyRetry) return;
  const queue = queues.get(db);
  if (!queue) return;
  queues.delete(db);
  if (log.failed) {
    for (const p of queue) p.reject(log.failed);
    return;
  }
  const batch = queue.splice(0, MAX_BATCH);
  if (queue.length > 0) queues.set(db, queue);
  // The commit writes its frames and syncs nothing, unless the log may start over in it
  // (LogDurability.fullSyncNext, mayRestart): SQLite then syncs the new header before its frames.
  // When the served log's own checkpoint will start it over (restartPending), the batch waits for
  // that instead, held, and runs after it at OFF.
  const mayRestart = log.durability.mayRestart?.bind(log.durability) ?? null;
  const fullNext = log.durability.fullSyncNext();
  const restartsHere = !fullNext && mayRestart?.() === true;
  const pending = restartsHere ? (log.durability.restartPending?.() ?? null) : null;
  if (pending) {
    holdForRestart(db, log, batch, pending);
    return;
  }
  const offThread = !fullNext && !restartsHere;
  noteOutside(db, log);
  // The write lock is tried, never waited for on this thread (busy_timeout 0): when another
  // connection holds it (Litestream, `svc admin`), the batch goes back to the queue's head and is
  // tried again from a timer, and the thread answers everything else meanwhile.
  db.exec('PRAGMA busy_timeout = 0');
  if (offThread) db.exec('PRAGMA synchronous = OFF');
  let atFull = !offThread;
  let settled: Settle[] | null | typeof RETRY_AT_FULL | typeof LOCK_BUSY;
  // A checkpoint ended its copy between the check and the transaction's start (the batch was rolled
  // back untouched): the same batch again at FULL, or, during the served log's own checkpoint,
  // after its restart.
  let restart: Promise<void> | null = null;
  try {
    settled = commitOrFail(db, batch, offThread ? mayRestart : null, true);
    if (settled === RETRY_AT_FULL) restart = log.durability.restartPending?.() ?? null;
    if (settled === RETRY_AT_FULL && !restart) {
      retriedAtFull.inc();
      db.exec('PRAGMA synchronous = FULL');
      atFull = true;
      settled = commitOrFail(db, batch, null, true);
    }
  } finally {
    db.exec('PRAGMA synchronous = FULL');
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    log.changesSeen = totalChanges(db);
  }
  if (settled === LOCK_BUSY) {
    waitForWriteLock(db, log, batch);
    return;
  }
  if (settled === RETRY_AT_FULL) {
    holdForRestart(db, log, batch, restart ?? Promise.resolve());
    return;
  }
  log.busySince = null;
  // Counted once the batch has committed, at the level it committed at (not when its lock was busy and it went back to the queue).
  if (atFull && settled !== null) committedAtFull.inc();
  if (settled === null) {
    flushLogged(db, log);
    return;
  }
  // Refusals too wait for the sync: a replayed answer may be a commit of a batch not yet synced.
  log.awaitingSync.push(...settled);
  const hold = log.durability.afterCommit();
  if (hold) holdOn(db, log, hold);
  syncLog(db, log);
}

/**
 * `batch` found the whole log checkpointed while the served log's own checkpoint runs (`restart`,
 * LogDurability.restartPending): back to the queue's head, held until that checkpoint has started
 * the log over.
 */
function holdForRestart(db: Db, log: LogState, batch: Pending[], restart: Promise<void>): void {
  waitedForRestart.inc();
  requeue(db, batch);
  holdOn(db, log, restart);
}

/** `batch` back at the head of the queue, before the writes handed in after it. */
function requeue(db: Db, batch: Pending[]): void {
  const queue = queues.get(db) ?? [];
  queue.unshift(...batch);
  queues.set(db, queue);
}

const RETRY_AT_FULL = Symbol('retry at FULL');
const LOCK_BUSY = Symbol('write lock busy');

/**
 * commitBatch, or null when the commit itself failed: none of the batch is stored, so every request
 * of it fails. RETRY_AT_FULL when `recheck` stopped it before any write (the batch is untouched).
 */
function commitOrFail(db: Db, batch: Pending[]): Settle[] | null;
function commitOrFail(db: Db, batch: Pending[], recheck: null, busyReturns: true): Settle[] | null | typeof LOCK_BUSY;
function commitOrFail(db: Db, batch: Pending[], recheck: (() => boolean) | null, busyReturns: true): Settle[] | null | typeof RETRY_AT_FULL | typeof LOCK_BUSY;
function commitOrFail(
  db: Db,
  batch: Pending[],
  recheck: (() => boolean) | null = null,
  busyReturns = false,
): Settle[] | null | typeof RETRY_AT_FULL | typeof LOCK_BUSY {
  try {
    return commitBatch(db, batch, recheck);
  } catch (error) {
    if (error instanceof LogMayRestart) return RETRY_AT_FULL;
    if (busyReturns && error instanceof WriteLockBusy) return LOCK_BUSY;
    failedCommits.inc();
    const failure = error instanceof WriteLockBusy ? error.original : error;
    for (const p of batch) p.reject(failure);
    return null;
  }
}

function flush(db: Db): void {
  const log = logs.get(db);
  if (log) {
    flushLogged(db, log);
    return;
  }
  const queue = queues.get(db) ?? [];
  queues.delete(db);
  while (queue.length > 0) {
    const batch = queue.splice(0, MAX_BATCH);
    const settled = commitOrFail(db, batch);
    if (settled !== null) answer(settled);
  }
}

/**
 * Runs `write` (synchronous) in a savepoint of the next group commit and settles once that commit
 * is done. A write that throws is rolled back to its savepoint and rejects with its error; the
 * others in the batch are unaffected.
 */
export function groupCommit<T>(db: Db, write: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = [];
      queues.set(db, queue);
      setImmediate(() => flush(db));
    }
    queue.push({ run: write, resolve: resolve as (v: unknown) => void, reject, queuedAt: performance.now() });
  });
}

/**
 * A write nobody waits for (a console session's last-seen time): it joins the next group commit,
 * so it never commits, or syncs, on the thread that queued it. A failure is logged, not thrown; the
 * promise settles once the write is durable or has failed.
 * Only for writes whose loss in a power cut loses nothing anyone was told was stored.
 */
export function commitLater(db: Db, write: () => unknown, what: string): Promise<void> {
  return groupCommit(db, write).then(
    () => undefined,
    (error: unknown) => {
      console.error(JSON.stringify({ event: 'deferred_write_failed', what, error: String((error as Error)?.message ?? error) }));
    },
  );
}
