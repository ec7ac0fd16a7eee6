// The full-text index's merges (schema/0039_posts_fts_merges.sql), run on a connection of their
// own in a worker thread (workers/posts-fts-merge.ts), asked for by src/search/merges.ts.
//
// One job is one FTS5 'merge' step or a few, each its own short write transaction: a step writes
// merged segments only where a level holds four segments or more (FTS5's `usermerge`, 4, the width
// the writing connection's automerge had), and about as many pages as fit in `stepMs` at the pace
// of the connection's last step (the time it held the lock over the pages it wrote; between 16 and
// `pages`): the group commit's batches wait for the write lock while a step holds it
// (src/db/group-commit.ts, waitForWriteLock; the request thread answers everything else
// meanwhile). FTS5 ends a step only at the end of a term, so a step holds the lock somewhat longer
// than asked: at a million posts, during sustained posts, 6 ms for half and at most 19 ms
// (docs/performance.md, "Merge steps paced by the pages they wrote"). Between two steps of one job
// the worker pauses at least as long as the step took, so a batch finds the lock free.
// A job goes on past its budget while a level holds `behind` segments or more (every write adds
// one): the writing connection's crisis merge (schema/0041_posts_fts_crisis_merge.sql) must never
// find a level full, for it merges the whole level in a commit on the request thread.
//
// The connection runs synchronous = NORMAL: a step's commit is not synced on its own, and the next
// batch's sync of the log (which answers that batch's writes) makes it durable with them; a crash
// before then loses a merge, never a post (the segments it merged are still there). When a step is
// the first write after a checkpoint copied the whole log, SQLite starts the log over and, at
// NORMAL, syncs the new header before its frames, as the group commit requires of every log it
// appends to without syncs of its own (docs/operations.md, "Commits and checkpoints off the
// request thread").
import type { Database } from 'bun:sqlite';
import { mergeStep, openMergeConnection } from './index-store.ts';
import { pagesWritten, widestLevel } from './segments.ts';

export interface MergeJob {
  /** The database file. */
  path: string;
  /** The most pages one step writes. */
  pages: number;
  /** About how long one step may hold the write lock: its pages are sized by the last step's pace. */
  stepMs: number;
  /** The job ends after the step that passes this many milliseconds, work left or not (0: one step). */
  budgetMs: number;
  /** Past its budget, the job goes on while a level holds this many segments or more (0: never), for at most LONGEST_JOB_MS. */
  behind?: number;
  /** Closes the connection instead (before the server's last checkpoint). */
  close?: boolean;
}

export interface MergeResult {
  /** Milliseconds each step that merged something held the write lock. */
  steps: number[];
  /** Work was left: the budget ran out, or the write lock stayed taken. */
  more: boolean;
  /** The most segments one level held when the job ended (read after its last step). */
  widest?: number;
}

/** The longest a job that is behind goes on stepping: a stop() waits for the job under way. */
export const LONGEST_JOB_MS = 1_000;

/** The fewest pages a step asks for, whatever the pace. */
const MIN_PAGES = 16;

interface MergeConnection {
  db: Database;
  /** The milliseconds a page took in its last step. */
  msPerPage: number | null;
}

// Each database's merge connection.
const connections = new Map<string, MergeConnection>();

function connectionTo(path: string): MergeConnection {
  let c = connections.get(path);
  if (!c) {
    const db = openMergeConnection(path);
    c = { db, msPerPage: null };
    connections.set(path, c);
  }
  return c;
}

/** The pages the next step asks for: what fits in `stepMs` at the last step's pace, within [MIN_PAGES, max]. */
export function stepPages(msPerPage: number | null, stepMs: number, max: number): number {
  const top = Math.max(MIN_PAGES, Math.floor(max));
  if (msPerPage === null || msPerPage <= 0) return Math.min(top, Math.max(MIN_PAGES, Math.floor(top / 4)));
  return Math.min(top, Math.max(MIN_PAGES, Math.floor(stepMs / msPerPage)));
}

const isBusy = (e: unknown): boolean => /^SQLITE_BUSY/.test(String((e as { code?: string })?.code ?? ''));

/** Runs one job (above) of the database at `job.path`. */
export function mergePostsIndex(job: MergeJob, sleep: (ms: number) => void = Bun.sleepSync): MergeResult {
  if (job.close) {
    connections.get(job.path)?.db.close();
    connections.delete(job.path);
    return { steps: [], more: false };
  }
  const c = connectionTo(job.path);
  const started = performance.now();
  const steps: number[] = [];
  for (;;) {
    const pages = stepPages(c.msPerPage, job.stepMs, job.pages);
    let step: ReturnType<typeof mergeStep>;
    try {
      step = mergeStep(c.db, pages);
    } catch (e) {
      if (isBusy(e)) return { steps, more: true };
      throw e;
    }
    const took = step.heldMs;
    if (!step.merged) return { steps, more: false, widest: widestLevel(step.after) };
    // Paced by the pages it wrote, not by those it was asked for: a step that found a few pages to
    // merge in a quick millisecond must not make the next one ask for hundreds (at 1M one such step
    // merged three levels, 439 pages, in 55 ms).
    const written = pagesWritten(step.before, step.after);
    if (written > 0) c.msPerPage = took / written;
    steps.push(took);
    const spent = performance.now() - started;
    if (spent >= job.budgetMs) {
      const widest = widestLevel(step.after);
      if (!job.behind || widest < job.behind || spent >= LONGEST_JOB_MS) return { steps, more: true, widest };
    }
    sleep(Math.max(1, took));
  }
}
