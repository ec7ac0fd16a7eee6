// Public documents' long reads off the request thread (src/workers/db-reads.ts): a database file
// and a read in, its answer out, read on this worker's own read-only connection. The reads it
// serves: the office's lab summary and the leaderboard's standings.
import { LAB_SUMMARY_READ } from '../src/lab/conventions/states.ts';
import { LISTED_STANDINGS_READ } from '../src/leaderboard/standings.ts';
import { dbReadsHandler } from '../src/workers/db-reads.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker(dbReadsHandler([LAB_SUMMARY_READ, LISTED_STANDINGS_READ]));
