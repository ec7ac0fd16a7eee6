// Public documents' long reads off the request thread (src/workers/board-reads.ts): a database
// file and a read in, its answer out, read on this worker's own read-only connection.
import { handleBoardReadJob } from '../src/workers/board-reads.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker(handleBoardReadJob);
