import { Elysia } from 'elysia';
import type { AppContext } from './context.ts';
import { waitingCount } from './continuity/wait.ts';
import { PROTOCOL } from './http/families.ts';
import { doc } from './http/openapi-detail.ts';

// No message data and no CORS header: a liveness answer for self-hosters and their monitors.
// `waiting` is how many continuity waits the server holds right now.
export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'health' }).get('/healthz', () => ({ status: 'ok', service: ctx.config.serviceName, protocol: PROTOCOL, waiting: waitingCount(ctx) }), {
    detail: doc({
      summary: 'Liveness',
      description: 'status ok, the service name, the protocol, and waiting: how many GET /v1/continuity/wait requests are held right now.',
      tags: ['public'],
      errors: ['EDGE_RATE_LIMIT'],
    }),
  });
