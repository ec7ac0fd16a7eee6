// The publication layer's SVG check, off the request path: one source in, its verdict out
// (src/pubs/sanitize.ts). jsdom is imported lazily, on the first source this worker sees.
import { type SvgInput, sanitizeSvg } from '../src/pubs/sanitize.ts';
import { serveWorker } from '../src/workers/serve.ts';

serveWorker((input: SvgInput) => sanitizeSvg(input));
