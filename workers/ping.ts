// The readiness probe's worker (GET /readyz, src/workers/pool.ts workerAnswers): it proves that a
// worker starts and answers, in the repository and inside dist/svc. It echoes its input.
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((input: unknown) => input);
