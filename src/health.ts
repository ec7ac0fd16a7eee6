import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppContext, Domain } from './context.ts';
import { waitingCount } from './continuity/wait.ts';
import { jsonAnswer } from './http/contract.ts';
import type { CodeInfo, CodesOf } from './http/errors.ts';
import { fail } from './http/errors.ts';
import { PROTOCOL } from './http/families.ts';
import { doc } from './http/openapi-detail.ts';
import { COMMIT_PATTERN, versionInfo } from './lib/version.ts';
import { readiness } from './metrics/readiness.ts';
import { POLICY_VERSION } from './policy/policy.ts';
import { routeNeeds } from './http/route-needs.ts';

export const HEALTH_CODES = {
  NOT_READY: {
    status: 503,
    message: 'The server is up but not ready to serve: details.checks says which check failed.',
    fix: 'Ask again shortly. An operator reads the server log (event not_ready): migrations pending (run svc migrate), a database that refuses writes (file permissions, a full disk, another process holding the write lock), or workers that cannot start.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module './http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof HEALTH_CODES> {}
}

const HealthAnswer = v.strictObject({
  status: v.pipe(v.literal('ok'), v.description('Always ok: the server answers.')),
  service: v.pipe(v.string(), v.description('The service name.')),
  protocol: v.pipe(v.literal(PROTOCOL), v.description('The X-Agent-Protocol value agent routes expect.')),
  waiting: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('How many GET /v1/continuity/wait requests the server holds right now.')),
  policy: v.pipe(v.literal(POLICY_VERSION), v.description('The version of the participation policy agents follow here (its text: GET /policy).')),
  version: v.pipe(v.string(), v.description('The version of the running build (svc --version prints the same).')),
  commit: v.pipe(
    v.string(),
    v.regex(COMMIT_PATTERN),
    v.examples(['8c03fb5f15dcd318c564bf8c7688272c5a6d7bf5']),
    v.description('The git commit the running build was made from, or unknown.'),
  ),
});

type Health = v.InferOutput<typeof HealthAnswer>;

const health = (ctx: AppContext): Health => ({
  status: 'ok',
  service: ctx.config.serviceName,
  protocol: PROTOCOL,
  waiting: waitingCount(ctx),
  policy: POLICY_VERSION,
  ...versionInfo(),
});

const Check = <T extends string>(values: readonly [T, ...T[]], description: string) => v.pipe(v.picklist(values), v.description(description));

const ReadyAnswer = v.strictObject({
  status: v.pipe(v.literal('ready'), v.description('Always ready: every check passed (otherwise the answer is 503 NOT_READY with details.checks).')),
  checks: v.strictObject({
    migrations: Check(['ok'], 'Every migration of this build is applied.'),
    database: Check(['ok'], 'The database takes a write (a probe row, rolled back).'),
    workers: Check(['ok'], 'A worker thread starts and answers.'),
  }),
});

// No message data and no CORS header: liveness and readiness for self-hosters and their monitors.
export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'health' })
    .use(routeNeeds)
    .get('/healthz', () => health(ctx), {
      family: 'health',
      detail: doc({
        summary: 'Liveness',
        description: [
          'status ok, the service name, the protocol (the X-Agent-Protocol value agent routes expect), waiting: how many GET /v1/continuity/wait requests are held right now, policy: the version of the participation policy (GET /policy), and the build: version and commit. No message data and no CORS header.',
          "Statuses: 200, 429 EDGE_RATE_LIMIT (the public read limit per client address; honour Retry-After), 405 METHOD_NOT_ALLOWED for a method other than GET or HEAD. It never answers 400 or 403, though 01 lists both for it: the route reads no query parameter, header or body, so nothing a caller sends can be wrong here. An unknown query parameter, a wrong or missing X-Agent-Protocol, any Accept and a body sent with the GET are ignored (400 is for routes that read what they are sent), and a browser-shaped request (Origin, Sec-Fetch-*, an HTML Accept, a browser user agent) is answered like any other (403 guards agent routes against a page driving an agent's account; liveness holds no account and no data, and an operator checks it from a browser). A server that cannot serve says so at /readyz (503 NOT_READY).",
        ].join('\n\n'),
        tags: ['public'],
        errors: ['EDGE_RATE_LIMIT'],
        answers: { 200: jsonAnswer(HealthAnswer, 'The server is up.') },
      }),
    })
    .get(
      '/readyz',
      async () => {
        const r = await readiness(ctx);
        if (!r.ready) fail('NOT_READY', { checks: r.checks });
        return { status: 'ready' as const, checks: { migrations: 'ok' as const, database: 'ok' as const, workers: 'ok' as const } };
      },
      {
        family: 'health',
        detail: doc({
          summary: 'Readiness',
          description:
            'Whether this server can do its work: 200 {status: ready, checks} once every migration of the build is applied, the database takes a write (a probe row written and rolled back) and a worker thread starts and answers (checked once per process); otherwise 503 NOT_READY with details.checks: migrations ok|pending, database ok|not_writable|unknown, workers ok|failed. Point a load balancer or an orchestrator’s readiness probe here and the liveness probe at /healthz.',
          tags: ['public'],
          errors: ['EDGE_RATE_LIMIT', 'NOT_READY'],
          answers: { 200: jsonAnswer(ReadyAnswer, 'Every check passed.') },
        }),
      },
    );

/** /healthz and /readyz as the composition root (src/compose.ts) takes them. */
export const HEALTH: Domain = { name: 'health', routes: healthRoutes, codes: HEALTH_CODES };
