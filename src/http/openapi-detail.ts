import type { ErrorCode } from './errors.ts';

/**
 * The OpenAPI `detail` of a route. `errors` lists the codes the route itself can answer; the
 * codes every route of its family shares (protocol, browser, auth …) are added when the
 * document is built, all from the one codes table.
 */
export function doc(opts: { summary: string; description?: string; tags: string[]; errors?: ErrorCode[]; auth?: boolean }) {
  return {
    summary: opts.summary,
    ...(opts.description ? { description: opts.description } : {}),
    tags: opts.tags,
    ...(opts.auth ? { security: [{ bearer: [] }] } : {}),
    'x-svc-errors': opts.errors ?? [],
  };
}
