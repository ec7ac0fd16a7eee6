// The baseline for the /healthz comparison: a bare Bun.serve that answers GET /healthz with the
// very bytes and Content-Type the service sends (passed in by bench/platform.ts, which copies
// them from the live service), so the only difference measured is the service's own stack.
// Prints one {"event":"listening","url":...} line like `svc serve`, and stops on SIGTERM/SIGINT.
const body = process.env.RAW_BODY;
const contentType = process.env.RAW_CONTENT_TYPE;
const requestId = process.env.RAW_REQUEST_ID === '1';
if (body === undefined || contentType === undefined) {
  console.error('raw-server: RAW_BODY and RAW_CONTENT_TYPE must be set');
  process.exit(2);
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  // A per-request handler (not a static Response) so the baseline does the same kind of work per
  // request as any dynamic route: build a Response; Bun adds Date and Content-Length as for svc.
  // When svc names each answer (X-Request-Id), so does the baseline: the same bytes on the wire.
  routes: {
    '/healthz': {
      GET: requestId
        ? () => new Response(body, { headers: { 'Content-Type': contentType, 'X-Request-Id': crypto.randomUUID() } })
        : () => new Response(body, { headers: { 'Content-Type': contentType } }),
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
