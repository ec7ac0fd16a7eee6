// The board reads that public documents build off the request thread (issue 27: a build over
// about 5 ms does not block the loop): the office's lab summary and the leaderboard's standings.
// Each runs in the board-reads worker (workers/board-reads.ts) on the worker's own read-only
// connection to the database file, inside one read transaction, so it sees one committed state
// of the board, as the in-process build does; it answers the same values the in-process functions
// return (structured-cloned back), so the document is byte-identical either way.
import type { Database } from 'bun:sqlite';
import { resolve } from 'node:path';
import { openReadOnlyDatabase } from '../db/open.ts';
import { type LabSummary, labSummaryOf } from '../lab/conventions/states.ts';
import { listedStandingsOf, type Standing } from '../leaderboard/standings.ts';

/** A read as the request thread asks for it: what, and its parameters (times in ms). */
export type BoardRead =
  | { kind: 'lab-summary'; baseUrl: string; sinceMs: number; max: number }
  | { kind: 'listed-standings'; start: number; end: number; max: number };

/** What each read answers. */
export interface BoardReadAnswers {
  'lab-summary': LabSummary;
  'listed-standings': Standing[];
}

/** A job of the worker: the database file to read and the read. */
export interface BoardReadJob {
  path: string;
  read: BoardRead;
}

/** Answers a read from `db` (the worker's connection, or the service's own in tests). */
export function answerBoardRead(db: Database, read: BoardRead): BoardReadAnswers[BoardRead['kind']] {
  switch (read.kind) {
    case 'lab-summary':
      return labSummaryOf(db, read.baseUrl, read.sinceMs, read.max);
    case 'listed-standings':
      return listedStandingsOf(db, read.start, read.end, read.max);
  }
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

/** The worker's handler: the read in one read transaction on the file's read-only connection. */
export function handleBoardReadJob(job: BoardReadJob): BoardReadAnswers[BoardRead['kind']] {
  const db = readConnection(job.path);
  return db.transaction(() => answerBoardRead(db, job.read))();
}
