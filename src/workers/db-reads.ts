// Reads that build part of a public document off the request thread (issue 27: a build over about
// 5 ms does not block the loop). A domain defines each read once, beside the function that answers
// it (`dbRead`: its kind and that function), and a worker entry lists the reads it serves
// (workers/board-reads.ts). The worker answers a job on its own read-only connection to the
// database file, inside one read transaction, so it sees one committed state as the in-process
// build does, and sends back what the function returns (structured-cloned): the document is
// byte-identical either way. Nothing here knows which reads there are.
import type { Database } from 'bun:sqlite';
import { resolve } from 'node:path';
import { openReadOnlyDatabase } from '../db/open.ts';

/** A read the worker can run: its kind (the job names it) and how it is answered from a connection. */
export interface DbRead<P, A> {
  kind: string;
  answer(db: Database, params: P): A;
}

/** Defines a read (times in its parameters are ms). */
export const dbRead = <P, A>(kind: string, answer: (db: Database, params: P) => A): DbRead<P, A> => ({ kind, answer });

/** A job of the worker: the database file to read, the read's kind and its parameters. */
export interface DbReadJob {
  path: string;
  kind: string;
  params: unknown;
}

// One read-only connection per database file, opened at the first job and kept.
const connections = new Map<string, Database>();

function readConnection(path: string): Database {
  const key = resolve(path);
  let db = connections.get(key);
  if (!db) {
    // The file is in WAL mode (set by the service when it opened it): this connection reads the
    // last committed state while the service writes, and never writes.
    db = openReadOnlyDatabase(key);
    connections.set(key, db);
  }
  return db;
}

/** A worker's handler for `reads`: each job's read in one read transaction on the file's read-only connection. */
export function dbReadsHandler(reads: readonly DbRead<never, unknown>[]): (job: DbReadJob) => unknown {
  const byKind = new Map(reads.map((r) => [r.kind, r]));
  return (job) => {
    const read = byKind.get(job.kind);
    if (!read) throw new Error(`this worker serves no read of kind ${job.kind}`);
    const db = readConnection(job.path);
    return db.transaction(() => read.answer(db, job.params as never))();
  };
}
