// GET /metrics: the Prometheus text format, for the operator's scraper only. Without
// SVC_METRICS_TOKEN it answers loopback clients (the server's own machine, not through a proxy)
// and 404 METRICS_NOT_PUBLIC to anyone else; with the token it answers whoever sends it as a
// bearer token, loopback included, and 401 METRICS_UNAUTHORIZED to anyone else.
import { timingSafeEqual } from 'node:crypto';
import { Elysia } from 'elysia';
import type { AppContext } from '../context.ts';
import { mediaAnswer } from '../http/contract.ts';
import { ApiError, fail } from '../http/errors.ts';
import { doc } from '../http/openapi-detail.ts';
import { METRICS_CONTENT_TYPE } from '../lib/metrics.ts';
import { renderMetrics } from './collect.ts';

/** A proxy says it forwarded the request with one of these: the socket's loopback address is then the proxy's. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/** 127.0.0.0/8, ::1, and 127.x mapped into IPv6. */
export const isLoopback = (address: string | null | undefined): boolean =>
  !!address && (address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address) || /^::ffff:127\.\d+\.\d+\.\d+$/i.test(address));

const digest = (s: string) => new Bun.CryptoHasher('sha256').update(s).digest();

/** Refuses the request unless it may read the metrics (see the head of this file). */
export function checkMetricsAccess(ctx: AppContext, request: Request, socketAddress: string | null | undefined): void {
  const token = ctx.config.metrics.token;
  if (token) {
    const sent = /^Bearer +(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    // Compared as digests: equal lengths, and a constant time whatever was sent.
    if (sent && timingSafeEqual(digest(sent), digest(token))) return;
    const err = new ApiError('METRICS_UNAUTHORIZED', { reason: sent ? 'wrong_token' : 'missing_token' });
    err.headers['www-authenticate'] = 'Bearer realm="svc-metrics"';
    throw err;
  }
  if (!isLoopback(socketAddress) || FORWARDED.some((h) => request.headers.has(h))) fail('METRICS_NOT_PUBLIC');
}

export const metricsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'metrics' }).get(
    '/metrics',
    ({ request, server }) => {
      checkMetricsAccess(ctx, request, server?.requestIP(request)?.address);
      return new Response(renderMetrics(ctx), { headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' } });
    },
    {
      detail: doc({
        summary: 'Metrics for the operator’s Prometheus',
        description:
          'The Prometheus text format (0.0.4): requests by route family and status with latency histograms, group commit, worker pools, the public cache, held waits, the database and WAL sizes, each scheduled job’s latest run, the outreach queue, the process. Not public: without SVC_METRICS_TOKEN only a loopback client that is not behind a proxy gets it (anyone else 404 METRICS_NOT_PUBLIC); with the token, only a request carrying Authorization: Bearer <token> (anyone else 401 METRICS_UNAUTHORIZED).',
        tags: ['operations'],
        errors: ['METRICS_NOT_PUBLIC', 'METRICS_UNAUTHORIZED'],
        answers: { 200: mediaAnswer('text/plain', 'The metrics, in the Prometheus text format (text/plain; version=0.0.4).') },
      }),
    },
  );
