// Requests by route family and status, and how long they took (GET /metrics). The shared
// conventions (plugin.ts) mark a request when it arrives and count it once when it is answered:
// a route's own answer where Elysia reports it, an error answer where it is made (onError).
import { PROCESS_METRICS, SECONDS_BUCKETS } from '../lib/metrics.ts';
import { familyOf } from './families.ts';

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

/** Marks a request's arrival (the first hook of the shared conventions); the time it was marked. */
export function requestArrived(request: Request): number {
  const at = arrived.get(request);
  if (at !== undefined) return at;
  const now = performance.now();
  arrived.set(request, now);
  return now;
}

/** When the request was marked as arrived (performance.now()), while it is not yet counted. */
export const arrivalOf = (request: Request): number | undefined => arrived.get(request);

// Each request's two records, bound once per family and status (the labels are not looked up again,
// and no key string is made per answer: a cached document's whole answer costs a few µs).
type Records = { counted: { inc(): void }; timed: { observe(value: number): void } };
const bound = new Map<string, Map<number, Records>>();

/** Counts a request once, with the status it was answered (499 when the client hung up first). */
export function requestAnswered(request: Request, status: number, family: string = familyOf(request)): void {
  const at = arrived.get(request);
  if (at === undefined) return; // never marked, or already counted
  arrived.delete(request);
  answeredIn(family, request.signal.aborted ? 499 : status, at);
}

/** Counts an answer made at once, in the hook that marked its arrival at `at` (no client has left). */
export function answeredIn(family: string, code: number, at: number): void {
  let byCode = bound.get(family);
  if (!byCode) {
    byCode = new Map();
    bound.set(family, byCode);
  }
  let records = byCode.get(code);
  if (!records) {
    records = { counted: requests.bind({ family, status: String(code) }), timed: duration.bind({ family }) };
    byCode.set(code, records);
  }
  records.counted.inc();
  records.timed.observe((performance.now() - at) / 1000);
}
