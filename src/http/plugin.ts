// The HTTP conventions every route shares, composed from their hooks (one a file, in hooks/):
// the hot path and HSTS around every handler, the route family's guard, CORS and read limit before
// routing, the JSON body reader within the route's budget, the query as sent, X-Request-Id, the
// request log and metrics, and one error handler that answers every failure with the spec's
// envelope. What a route needs (its body budget, its family, its auth) the route declares
// (route-needs.ts, auth.ts); these hooks read the declaration, never the route's path.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { afterHandle } from './hooks/after-handle.ts';
import { afterResponse } from './hooks/after-response.ts';
import { hotFirst } from './hooks/hot-first.ts';
import { onError } from './hooks/on-error.ts';
import { onParse } from './hooks/on-parse.ts';
import { onRequest } from './hooks/on-request.ts';
import { onTransform } from './hooks/on-transform.ts';
import { type Routes, sharedState } from './hooks/shared.ts';

export const httpPlugin = (ctx: AppContext, routes: Routes) => {
  const shared = sharedState(ctx, routes);
  // One hook of each kind, all global: src/mcp/dispatch.ts recognises a plain read by them.
  return new Elysia({ name: 'svc-http', seed: seedOf(ctx) })
    .wrap(hotFirst(shared) as never)
    .onRequest(onRequest(shared))
    .onParse({ as: 'global' }, onParse(shared))
    .onAfterHandle({ as: 'global' }, afterHandle)
    .onAfterResponse({ as: 'global' }, afterResponse(shared))
    .onTransform({ as: 'global' }, onTransform(shared))
    .onError({ as: 'global' }, onError(shared));
};

declare module '../context.ts' {
  interface Parts {
    /** The HTML page a browser gets for an address with no page (the pages domain draws it). */
    notFoundPage(): Response;
  }
}
