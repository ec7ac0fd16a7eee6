// The request hook, before routing: the route family's guard (browser, protocol, Accept), CORS and
// its preflight, and the read limit. The family is looked up once here (families.ts) and kept for
// the later hooks.
import type { Server } from 'bun';
import { CORS_HEADERS, preflight } from '../cors.ts';
import { noteFamily, pathOf } from '../families.ts';
import { guardAgentRequest, guardKeylessRead } from '../guard.ts';
import { requestArrived } from '../metrics.ts';
import { publicCache } from '../public-cache.ts';
import type { Shared } from './shared.ts';

type RequestContext = { request: Request; set: { headers: Record<string, unknown> }; server: Server<unknown> | null };

export function onRequest(shared: Shared) {
  const { ctx } = shared;
  const limits = ctx.limiters.publicReads;
  // Hooks name the context's members they read (never the whole context): Elysia reads a hook's
  // parameters to decide what to prepare for every request, and a context passed whole makes it
  // parse the cookies and copy the headers of each one.
  return ({ request, set, server: listening }: RequestContext) => {
    shared.server ??= listening;
    requestArrived(request);
    const family = noteFamily(request, shared.families.of(request.method, pathOf(request.url)));
    if (family === 'agent') {
      guardAgentRequest(request.headers);
      return;
    }
    if (family === 'agent-read') guardKeylessRead(request.headers);
    if (family === 'oauth') {
      if (request.method === 'OPTIONS') return preflight(request, 'GET, POST, OPTIONS');
      Object.assign(set.headers, CORS_HEADERS);
      return;
    }
    // An /api/* route sends CORS `*` (01). `*` never lets a browser send or read a cookie across
    // origins, and the guest routes check the cookie, the CSRF token and the exact Origin.
    const cors = family === 'public' || family === 'guest';
    if (cors && request.method === 'OPTIONS') return preflight(request, family === 'guest' ? 'GET, POST, OPTIONS' : undefined);
    // With the limit off (0) the client address is not even looked up.
    if ((cors || family === 'health' || family === 'page' || family === 'agent-read') && limits.limit > 0 && !shared.limitCounted.has(request)) {
      const verdict = limits.hit(shared.clientOf(request));
      if (!verdict.ok) throw shared.limitError(verdict.retryAt, ctx.clock.now());
    }
    // The hot path (hot-first.ts, before Elysia) answers a document a route served here before.
    if ((family === 'public' || family === 'page' || family === 'other') && request.method === 'GET') shared.documents ??= publicCache(ctx);
    if (cors) Object.assign(set.headers, CORS_HEADERS);
  };
}
