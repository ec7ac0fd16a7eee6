// The after-handle hook: every answer a route made names its request (X-Request-Id).
import { requestIdOf } from '../request-id.ts';

export const afterHandle = ({ request, response, set }: { request: Request; response: unknown; set: { headers: Record<string, unknown> } }) => {
  if (!(response instanceof Response)) set.headers['x-request-id'] = requestIdOf(request);
  else if (!response.headers.has('x-request-id')) {
    try {
      response.headers.set('x-request-id', requestIdOf(request));
    } catch {} // an immutable Response (a redirect) keeps its headers
  }
};
