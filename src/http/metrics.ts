// Requests by route family and status, and how long they took (GET /metrics). The shared
// conventions (plugin.ts) mark a request when it arrives and count it once when it is answered:
// a route's own answer where Elysia reports it, an error answer where it is made (onError).
import { PROCESS_METRICS, SECONDS_BUCKETS } from '../lib/metrics.ts';
import { pathOf, routeFamily } from './families.ts';

const requests = PROCESS_METRICS.counter('svc_http_requests_total', 'HTTP requests answered, by route family and status (499: the client left first).', [
  'family',
  'status',
]);
const duration = PROCESS_METRICS.histogram(
  'svc_http_request_duration_seconds',
  'Seconds from the arrival of a request to its answer, by route family (held waits included).',
  ['family'],
  SECONDS_BUCKETS,
);

const arrived = new WeakMap<Request, number>();

/** Marks a request's arrival (the first hook of the shared conventions). */
export function requestArrived(request: Request): void {
  if (!arrived.has(request)) arrived.set(request, performance.now());
}

/** Counts a request once, with the status it was answered (499 when the client hung up first). */
export function requestAnswered(request: Request, status: number): void {
  const at = arrived.get(request);
  if (at === undefined) return; // never marked, or already counted
  arrived.delete(request);
  const family = routeFamily(request.method, pathOf(request.url));
  requests.inc({ family, status: String(request.signal.aborted ? 499 : status) });
  duration.observe({ family }, (performance.now() - at) / 1000);
}
