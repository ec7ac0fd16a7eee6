// What a lab publish's body costs the request thread before any I/O:
// `node_modules/.bin/bun bench/lab-body.ts`.
//
// The bench's ~2 MB sites (bench/lab-site.ts, 2.7 MB of JSON each), in this process: JSON.parse of
// the body, the idempotency fingerprint of it (src/http/idempotency.ts) and the files' decoding
// (src/lab/pages/pages.ts decodeFiles), each timed, the third pass of eight bodies printed
// (docs/performance.md, "The index without positions": the lab-publish row's stalls).
import { fingerprintOf } from '../src/http/idempotency.ts';
import { decodeFiles, type PublishBody } from '../src/lab/pages/pages.ts';
import { labSite } from './lab-site.ts';

const bodies = Array.from({ length: 8 }, (_, i) => JSON.stringify(labSite(i)));
console.log(`${bodies.length} bodies of ${(bodies[0]!.length / 1e6).toFixed(1)} MB`);
for (let pass = 1; pass <= 3; pass++) {
  for (const text of bodies) {
    const t0 = performance.now();
    const body = JSON.parse(text) as PublishBody;
    const t1 = performance.now();
    fingerprintOf('PUT /v1/lab/pages/{slug}', { slug: 'bench', ...body });
    const t2 = performance.now();
    decodeFiles(body.files);
    const t3 = performance.now();
    if (pass === 3) console.log(`parse ${(t1 - t0).toFixed(1)} ms  fingerprint ${(t2 - t1).toFixed(1)} ms  decode ${(t3 - t2).toFixed(1)} ms`);
  }
}
