// Group commit for board writes. Every post writes ~25 pages to the WAL (the row, five indexes,
// the full-text segment, quota, idempotency key, mention and inbox rows), and the commit of those
// pages is most of a write's cost. Writes that arrive together are therefore run one after
// another inside one IMMEDIATE transaction and committed once: each still runs in a savepoint of
// its own (tx() nests as a savepoint), so a refused write rolls back alone and costs nothing, and
// no request is answered before the commit that holds its write is durable. Under light load a
// batch holds one write and this is the plain one-request, one-transaction path.
import { PROCESS_METRICS } from '../lib/metrics.ts';
import type { Db } from './open.ts';

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

function flush(db: Db): void {
  const queue = queues.get(db) ?? [];
  queues.delete(db);
  const sp = savepointOf(db);
  while (queue.length > 0) {
    const batch = queue.splice(0, MAX_BATCH);
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      db.transaction(() => {
        for (const p of batch) {
          try {
            // Its own savepoint, whatever `run` does inside: a throw undoes this write only.
            outcomes.push({ ok: true, value: inSavepoint(sp, p.run) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      }).immediate();
    } catch (error) {
      // The commit itself failed: none of the batch is stored, so every request fails.
      failedCommits.inc();
      for (const p of batch) p.reject(error);
      continue;
    }
    batchSizes.observe(undefined, batch.length);
    const done = performance.now();
    batch.forEach((p, i) => {
      waits.observe(undefined, (done - p.queuedAt) / 1000);
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
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
