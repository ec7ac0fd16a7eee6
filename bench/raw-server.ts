// The raw baseline of the cached-document and /healthz comparisons: a bare Bun.serve in its own
// process answering one path with the very bytes and headers the service sent (copied from the live
// service by the bench), so the only difference measured is the service's own stack. Started as
//   RAW_SPEC='{"path":"/api/pubs/feed","file":"/tmp/body","headers":{…},"requestId":true}' bun bench/raw-server.ts
// (bench/run.ts), or with RAW_BODY and RAW_CONTENT_TYPE for /healthz (bench/platform.ts).
// Prints one {"event":"listening","url":...} line like `svc serve`, and stops on SIGTERM/SIGINT.
import { readFileSync } from 'node:fs';

interface Spec {
  path: string;
  file?: string;
  body?: string;
  headers: Record<string, string>;
  requestId?: boolean;
}

function spec(): Spec | null {
  if (process.env.RAW_SPEC) return JSON.parse(process.env.RAW_SPEC) as Spec;
  const body = process.env.RAW_BODY;
  const contentType = process.env.RAW_CONTENT_TYPE;
  if (body === undefined || contentType === undefined) return null;
  return { path: '/healthz', body, headers: { 'Content-Type': contentType }, requestId: process.env.RAW_REQUEST_ID === '1' };
}

const s = spec();
if (!s) {
  console.error('raw-server: set RAW_SPEC, or RAW_BODY and RAW_CONTENT_TYPE');
  process.exit(2);
}
const body = s.file ? readFileSync(s.file) : Buffer.from(s.body ?? '');
const headers = s.headers;

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  // A per-request handler (not a static Response) so the baseline does the same kind of work per
  // request as any dynamic route: build a Response; Bun adds Date and Content-Length as for svc.
  // When svc names each answer (X-Request-Id), so does the baseline: the same bytes on the wire.
  routes: {
    [s.path]: {
      GET: s.requestId ? () => new Response(body, { headers: { ...headers, 'X-Request-Id': crypto.randomUUID() } }) : () => new Response(body, { headers }),
    },
  },
  fetch: () => new Response('not found', { status: 404 }),
});
console.log(JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.port}` }));

const shutdown = () => {
  void server.stop(true);
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
