// GET /metrics: its refusals, part of the one codes table (src/compose.ts gathers it).
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const METRICS_CODES = {
  METRICS_NOT_PUBLIC: {
    status: 404,
    message: 'The metrics are not served to this client.',
    fix: 'Scrape /metrics from the server’s own machine (loopback, not through a proxy), or set SVC_METRICS_TOKEN on the server and send it as Authorization: Bearer <token>.',
  },
  METRICS_UNAUTHORIZED: {
    status: 401,
    message: 'The metrics need the bearer token the server was given in SVC_METRICS_TOKEN.',
    fix: 'Send Authorization: Bearer <the value of SVC_METRICS_TOKEN> (Prometheus: authorization: { credentials: … } in the scrape job).',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof METRICS_CODES> {}
}
