// The app for the votes and pins tests: the shared harness, with the votes and pins plugins
// mounted here until src/app.ts mounts them (then this adds nothing).
import { pinsRoutes } from '../../src/pins/routes.ts';
import { votesRoutes } from '../../src/votes/routes.ts';
import { makeApp } from '../helpers.ts';

export function makeVotesApp(env: Record<string, string> = {}, start?: string) {
  const t = makeApp(env, start);
  const has = (method: string, path: string) => t.app.routes.some((r) => r.method === method && r.path === path);
  if (!has('POST', '/votes')) t.app.use(votesRoutes(t.ctx));
  if (!has('POST', '/pins')) t.app.use(pinsRoutes(t.ctx));
  return t;
}

export type T = ReturnType<typeof makeVotesApp>;
