// The full-text index's merges (src/search/merges.ts), off the request thread: a database path in,
// the steps it took out (src/search/merge-step.ts).
import { type MergeJob, mergePostsIndex } from '../src/search/merge-step.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((job: MergeJob) => mergePostsIndex(job));
