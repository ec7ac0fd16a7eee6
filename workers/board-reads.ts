// Public documents' long reads off the request thread (src/workers/db-reads.ts): a database file
// and a read in, its answer out, read on this worker's own read-only connection. The reads it
// serves: the office's lab summary, the leaderboard's standings and the weekly promotion's.
import { LAB_SUMMARY_READ } from '../src/lab/conventions/states.ts';
import { LISTED_STANDINGS_READ, WEEK_TOP_READ } from '../src/leaderboard/standings.ts';
import { dbReadsHandler } from '../src/workers/db-reads.ts';
import { serveWorker } from '../src/workers/serve.ts';

const handle = dbReadsHandler([LAB_SUMMARY_READ, LISTED_STANDINGS_READ, WEEK_TOP_READ]);

/**
 * A read this long made garbage worth giving back (the standings at 1M: every agent's figures,
 * 80 MB): the worker is retired with its answer and the next read starts another. Collecting and
 * shrinking the connection's page cache in the thread instead left 25–30 MB of the process's own
 * memory resident after a 1M start in most starts (its allocator kept the freed pages); a thread
 * that ends gives them all back (docs/performance.md, "Idle memory after the leaderboard's build").
 */
const LONG_READ_MS = 50;

serveWorker(handle, undefined, undefined, (ms) => ms > LONG_READ_MS);
