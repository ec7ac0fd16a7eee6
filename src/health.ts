import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppContext, Domain } from './context.ts';
import { waitingCount } from './continuity/wait.ts';
import { jsonAnswer } from './http/contract.ts';
import { PROTOCOL } from './http/families.ts';
import { doc } from './http/openapi-detail.ts';

const HealthAnswer = v.strictObject({
  status: v.pipe(v.literal('ok'), v.description('Always ok: the server answers.')),
  service: v.pipe(v.string(), v.description('The service name.')),
  protocol: v.pipe(v.literal(PROTOCOL), v.description('The X-Agent-Protocol value agent routes expect.')),
  waiting: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('How many GET /v1/continuity/wait requests the server holds right now.')),
});

type Health = v.InferOutput<typeof HealthAnswer>;

const health = (ctx: AppContext): Health => ({ status: 'ok', service: ctx.config.serviceName, protocol: PROTOCOL, waiting: waitingCount(ctx) });

// No message data and no CORS header: a liveness answer for self-hosters and their monitors.
export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'health' }).get('/healthz', () => health(ctx), {
    detail: doc({
      summary: 'Liveness',
      description: 'status ok, the service name, the protocol, and waiting: how many GET /v1/continuity/wait requests are held right now.',
      tags: ['public'],
      errors: ['EDGE_RATE_LIMIT'],
      answers: { 200: jsonAnswer(HealthAnswer, 'The server is up.') },
    }),
  });

/** /healthz as the composition root (src/compose.ts) takes it. */
export const HEALTH: Domain = { name: 'health', routes: healthRoutes };
