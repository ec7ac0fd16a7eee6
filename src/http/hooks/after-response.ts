// The after-response hook: a route's own answer logged (refusals, or all with
// SVC_LOG_REQUESTS=all) and counted in the request metrics.
import { requestAnswered } from '../metrics.ts';
import type { Shared } from './shared.ts';

export function afterResponse(shared: Shared) {
  const { config } = shared.ctx;
  return ({ request, responseValue, set }: { request: Request; responseValue: unknown; set: { status?: unknown } }) => {
    // An error answer was logged where it was made (the error hook); set.status does not know it.
    if (shared.answeredByError.has(request)) return;
    // A route's own Response (the OAuth endpoints, /mcp's 401, a page's 400) carries its status.
    const status = responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200;
    const refused = status >= 400 || request.signal.aborted;
    if (refused ? config.logRequests !== 'off' : config.logRequests === 'all') shared.log(request, status);
    requestAnswered(request, status);
  };
}
