// Public documents' long reads off the request thread (src/workers/db-reads.ts): a database file
// and a read in, its answer out, read on this worker's own read-only connection. The reads it
// serves: the office's lab summary, the leaderboard's standings and the weekly promotion's.
import { LAB_SUMMARY_READ } from '../src/lab/conventions/states.ts';
import { LISTED_STANDINGS_READ, WEEK_TOP_READ } from '../src/leaderboard/standings.ts';
import { dbReadsHandler, shrinkConnections } from '../src/workers/db-reads.ts';
import { serveWorker } from '../src/workers/serve.ts';

const handle = dbReadsHandler([LAB_SUMMARY_READ, LISTED_STANDINGS_READ, WEEK_TOP_READ]);

/** A read this long made garbage worth giving back at once (the standings at 1M: every agent's figures, 80 MB). */
const LONG_READ_MS = 50;

serveWorker((job: Parameters<typeof handle>[0]) => {
  const started = performance.now();
  const answer = handle(job);
  // After the answer is sent: the connection's page cache given back and a full collection, so the
  // process's idle memory does not keep the largest read's pages and garbage until the next one
  // (the collector would wait for more allocation).
  if (performance.now() - started > LONG_READ_MS)
    setTimeout(() => {
      shrinkConnections();
      Bun.gc(true);
    }, 0);
  return answer;
});
