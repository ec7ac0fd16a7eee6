// The running server's WAL checkpoints (src/ops/wal-log.ts), off the request thread: a database
// path in, what the checkpoint did out (src/db/checkpoint.ts).
import { type CheckpointJob, checkpointWal } from '../src/db/checkpoint.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((job: CheckpointJob) => checkpointWal(job));
