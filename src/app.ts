// Builds the service from its domains: the one place routes are mounted, in the order the
// composition root lists the domains (src/compose.ts), after the shared conventions.
import { Elysia } from 'elysia';
import { DOMAINS } from './compose.ts';
import type { AppContext, Domain } from './context.ts';
import { httpPlugin } from './http/plugin.ts';

export function createApp(ctx: AppContext, domains: readonly Domain[] = DOMAINS) {
  const app = new Elysia({ name: 'svc' });
  app.use(httpPlugin(ctx, () => app.routes));
  for (const d of domains) if (d.routes) app.use(d.routes(ctx, () => app));
  return app;
}

export type App = ReturnType<typeof createApp>;
