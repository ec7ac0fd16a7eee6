import { pathOf } from './families.ts';
import { arrivalOf } from './metrics.ts';
import { requestIdOf } from './request-id.ts';

/**
 * One JSON line per refused request (and per answered one with SVC_LOG_REQUESTS=all). A client that
 * hung up before its answer is logged as 499 CLIENT_CLOSED_REQUEST (the common proxy convention):
 * whatever answer was made, nobody received it, and it was no fault of the service. `client` is the
 * address the limits counted (the socket's, or a trusted proxy's last X-Forwarded-For hop), left out
 * with SVC_LOG_ADDRESSES=0; `duration_ms` runs from the request's arrival to the log line.
 */
export function logRequest(request: Request, status: number, code?: string, seen: { client?: string; at?: number } = {}): void {
  if (request.signal.aborted) {
    status = 499;
    code = 'CLIENT_CLOSED_REQUEST';
  }
  const at = seen.at ?? arrivalOf(request);
  console.log(
    JSON.stringify({
      event: 'request',
      request_id: requestIdOf(request),
      method: request.method,
      path: pathOf(request.url),
      status,
      ...(code ? { code } : {}),
      ...(seen.client !== undefined ? { client: seen.client } : {}),
      ...(at !== undefined ? { duration_ms: Math.round((performance.now() - at) * 10) / 10 } : {}),
    }),
  );
}
