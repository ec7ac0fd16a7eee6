import { Elysia } from 'elysia';
import type { AppContext } from './context.ts';
import { PROTOCOL } from './http/families.ts';
import { doc } from './http/openapi-detail.ts';

// No message data and no CORS header: a liveness answer for self-hosters and their monitors.
export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'health' }).get('/healthz', () => ({ status: 'ok', service: ctx.config.serviceName, protocol: PROTOCOL }), {
    detail: doc({ summary: 'Liveness', tags: ['public'], errors: ['EDGE_RATE_LIMIT'] }),
  });
