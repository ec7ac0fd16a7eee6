// Running a read of db-reads.ts off the request thread. A database in a file is read by the
// board-reads worker on its own read-only connection, so the request thread only sends the job
// and receives the answer; an in-memory database (tests, benches) has no file another connection
// could open, so its read runs in process, as `inProcess` (paced) says. A worker that fails or
// overruns its budget costs speed, not the document: the read runs in process instead.
import type { Db } from '../db/open.ts';
import { PROCESS_METRICS } from '../lib/metrics.ts';
import type { DbRead, DbReadJob } from './db-reads.ts';
import { WorkerPool, workerLocation } from './pool.ts';

export type BoardReadsPool = WorkerPool<DbReadJob, unknown>;

declare module '../context.ts' {
  interface Workers {
    /** The board-reads worker (workers/board-reads.ts): public documents' long reads. */
    boardReads: BoardReadsPool;
  }
}

/** A read's budget in the worker: generous (a cold page cache on a large board), then in process. */
const BUDGET_MS = 30_000;

/**
 * How long the board-reads worker may wait for its next read before it is ended: its reads are a
 * document's rebuild, at most one a document per max-age, so an idle server keeps no thread and
 * heap for them (5–7 MB at 10k; starting one again costs 30–40 ms of CPU on its own thread).
 */
const IDLE_MS = 1_000;

/**
 * The board-reads pool: one worker (the reads are background rebuilds, at most one per document
 * at a time, and every core but one stays with the request thread), ended when idle (IDLE_MS) or
 * after a long read (workers/board-reads.ts).
 */
export const boardReadsPool = (): BoardReadsPool => new WorkerPool<DbReadJob, unknown>(workerLocation('board-reads'), 1, BUDGET_MS, { idleMs: IDLE_MS });

const fallbacks = PROCESS_METRICS.counter(
  'svc_board_reads_fallback_total',
  'Board reads that the board-reads worker failed or overran, run on the request thread instead.',
);

/** Reads run in the worker (and where they run in process) since the start: for tests, benches and logs. */
export const boardReadStats = { worker: 0, inProcess: 0, fallback: 0 };

/** The file another connection may open, or null for an in-memory or temporary database. */
export function databaseFile(db: Db): string | null {
  const f = db.filename;
  return f === '' || f === ':memory:' || f.startsWith('file::memory:') ? null : f;
}

/**
 * The answer of `read` for `db`: from the worker of `pool` when the database is a file,
 * otherwise (or when the worker fails) from `inProcess`, which must compute the same thing.
 */
export async function boardRead<P, A>(pool: BoardReadsPool, db: Db, read: DbRead<P, A>, params: P, inProcess: () => Promise<A>): Promise<A> {
  const path = databaseFile(db);
  if (path === null) {
    boardReadStats.inProcess++;
    return inProcess();
  }
  try {
    const answer = (await pool.run({ path, kind: read.kind, params })) as A;
    boardReadStats.worker++;
    return answer;
  } catch (e) {
    boardReadStats.fallback++;
    fallbacks.inc();
    console.error(JSON.stringify({ event: 'board_read_fallback', read: read.kind, error: String((e as Error)?.message ?? e) }));
    return inProcess();
  }
}
