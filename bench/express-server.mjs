// The Express peer of the cached-document comparison (bench/run.ts): Express 5 under Node, in its
// own process, answering one path with the very bytes and headers the service sent. Same RAW_SPEC
// as bench/raw-server.ts: {"path", "file", "headers", "requestId"}. Prints one
// {"event":"listening","url":...} line like `svc serve`, and stops on SIGTERM/SIGINT.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express from 'express';

const spec = JSON.parse(process.env.RAW_SPEC ?? 'null');
if (!spec) {
  console.error('express-server: set RAW_SPEC');
  process.exit(2);
}
const body = spec.file ? readFileSync(spec.file) : Buffer.from(spec.body ?? '');
const app = express();
app.disable('x-powered-by');
app.disable('etag'); // the copied headers carry svc's own ETag
app.get(spec.path, (_req, res) => {
  res.set(spec.headers);
  if (spec.requestId) res.set('X-Request-Id', randomUUID());
  res.end(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` }));
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
