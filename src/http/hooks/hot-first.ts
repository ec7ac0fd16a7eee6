// The wrap around every handler (Elysia calls hoc(handler, request)(request) for every request,
// routed by Bun or by Elysia): the hot path of a cached public read first, and
// Strict-Transport-Security on every answer, whichever path made it.
import { answeredIn } from '../metrics.ts';
import { newRequestId, requestIdOf } from '../request-id.ts';
import type { Shared } from './shared.ts';

export function hotFirst(shared: Shared) {
  const { ctx } = shared;
  const limits = ctx.limiters.publicReads;
  const logAll = ctx.config.logRequests === 'all';

  /**
   * A cached public document a route already served at this address, still fresh: answered here,
   * before Elysia makes a context or routes (hot-reads.ts), with what the route path does for it:
   * the read limit (and its 429), the request id, CORS and the route's headers, Age/ETag/304, the
   * request metrics and the request log. Anything else (undefined) takes the ordinary path.
   */
  const answerHot = (request: Request): Response | undefined => {
    // Each of Request's getters (method, url, headers) is a call into Bun: each is read once here,
    // and the headers only at an address a route served (test/http/hot-reads.test.ts counts them).
    const documents = shared.documents;
    if (documents === undefined || request.method !== 'GET') return;
    const hot = documents.hot;
    const slot = hot.at(request.url);
    if (slot === undefined) return;
    const headers = request.headers;
    const serving = hot.pick(slot, headers);
    if (serving === null) return;
    const at = performance.now();
    const now = ctx.clock.now();
    const family = serving.family;
    if (limits.limit > 0 && family !== 'other') {
      const retryAt = limits.take(shared.clientOf(request), now);
      if (retryAt !== null) return shared.refuseHere(request, shared.limitError(retryAt, now), family, at);
    }
    const doc = hot.document(serving, now);
    if (doc === null) {
      shared.limitCounted.add(request); // the route answers it, and must not count it twice
      return;
    }
    const answer = hot.respond(serving, doc, headers, now, logAll ? requestIdOf(request) : newRequestId(request, headers));
    answeredIn(family, answer.status, at);
    if (logAll) shared.log(request, answer.status, undefined, at);
    return answer;
  };

  // An immutable Response (a redirect) keeps its headers.
  const hsts = ctx.config.hsts;
  const stamp = (r: unknown) => {
    if (r instanceof Response && hsts !== null) {
      try {
        r.headers.set('strict-transport-security', hsts);
      } catch {}
    }
    return r;
  };
  const stampHsts = (r: unknown) => (r instanceof Promise ? r.then(stamp) : stamp(r));

  return (handler: (request: Request) => unknown, request: Request) => {
    const answer = answerHot(request);
    const served = answer === undefined ? handler : () => answer;
    return hsts === null ? served : (req: Request) => stampHsts(served(req));
  };
}
