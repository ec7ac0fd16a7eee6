// The WAL checkpoints of the running server (src/ops/checkpointer.ts), off the request thread:
// a database path in, one passive checkpoint's counts out.
import { checkpointOnce } from '../src/db/checkpoint.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((job: { path: string }) => checkpointOnce(job.path));
