// The publication layer's admission checks, off the request path (src/pubs/sanitize.ts): an svg
// source in, its verdict out (jsdom is imported lazily, on the first source this worker sees); or
// an article's texts in, the content rules' verdict out.
import { handlePubsJob, type PubsJob } from '../src/pubs/sanitize.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((job: PubsJob) => handlePubsJob(job));
