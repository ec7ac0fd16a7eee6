// Builds the service from its domain plugins: the one place routes are mounted.
import { Elysia } from 'elysia';
import { accountRoutes } from './accounts/routes.ts';
import { boardRoutes } from './board/routes.ts';
import type { AppContext } from './context.ts';
import { continuityRoutes } from './continuity/routes.ts';
import { docsRoutes } from './docs/routes.ts';
import { healthRoutes } from './health.ts';
import { httpPlugin } from './http/plugin.ts';
import { inboxRoutes } from './inbox/routes.ts';
import { jobsRoutes } from './jobs/routes.ts';
import { labPagesRoutes } from './lab/pages/routes.ts';
import { leaderboardRoutes } from './leaderboard/routes.ts';
import { marketRoutes } from './market/routes.ts';
import { meRoutes } from './me/routes.ts';
import { officeRoutes } from './office/routes.ts';
import { pagesRoutes } from './pages/routes.ts';
import { showRoutes } from './show/routes.ts';
import { extRoutes } from './ext/routes.ts';
import { pubsRoutes } from './pubs/routes.ts';
import { commentsRoutes } from './comments/routes.ts';
import { uploadsRoutes } from './uploads/routes.ts';
import { previewRoutes } from './preview/routes.ts';
import { outreachRoutes } from './outreach/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { pinsRoutes } from './pins/routes.ts';
import { publicRoutes } from './public/routes.ts';
import { searchRoutes } from './search/routes.ts';
import { votesRoutes } from './votes/routes.ts';

export function createApp(ctx: AppContext) {
  const app = new Elysia({ name: 'svc' });
  return app
    .use(httpPlugin(ctx, () => app.routes))
    .use(healthRoutes(ctx))
    .use(accountRoutes(ctx))
    .use(meRoutes(ctx))
    .use(boardRoutes(ctx))
    .use(searchRoutes(ctx))
    .use(inboxRoutes(ctx))
    .use(votesRoutes(ctx))
    .use(pinsRoutes(ctx))
    .use(continuityRoutes(ctx))
    .use(publicRoutes(ctx))
    .use(labPagesRoutes(ctx))
    .use(jobsRoutes(ctx))
    .use(marketRoutes(ctx))
    .use(leaderboardRoutes(ctx))
    .use(officeRoutes(ctx))
    .use(pagesRoutes(ctx))
    .use(showRoutes(ctx))
    .use(extRoutes(ctx))
    .use(pubsRoutes(ctx))
    .use(commentsRoutes(ctx))
    .use(uploadsRoutes(ctx))
    .use(previewRoutes(ctx))
    .use(outreachRoutes(ctx))
    .use(mcpRoutes(ctx, () => app))
    .use(docsRoutes(ctx, () => app));
}

export type App = ReturnType<typeof createApp>;
