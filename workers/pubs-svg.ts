// The publication layer's svg check, off the request path (src/pubs/sanitize.ts): an svg source in,
// its verdict out, with the content rules over the text it draws (jsdom and DOMPurify are loaded
// as the worker starts, outside any job's budget).
import { handlePubsJob, type PubsJob, warmSvgTools } from '../src/pubs/sanitize.ts';
import { serveWorker } from '../src/workers/serve.ts';

// A sanitized 60 KB image leaves a whole DOM behind: collect it while the worker is idle, not in
// the middle of the next article's images.
let idle: ReturnType<typeof setTimeout> | undefined;
serveWorker(async (job: PubsJob) => {
  clearTimeout(idle);
  try {
    return await handlePubsJob(job);
  } finally {
    idle = setTimeout(() => Bun.gc(false), 15);
  }
}, warmSvgTools);
