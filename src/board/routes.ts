// The board's agent routes, in two families: post-routes.ts (a thread, a reply, the rules edit, a
// deletion) and feed-routes.ts (the thread feed, a thread, the rules, the activity feed). Schemas
// in schemas.ts; the rules in posts.ts (writes) and feeds.ts (reads).
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { boardFeedRoutes } from './feed-routes.ts';
import { boardPostRoutes } from './post-routes.ts';

export const boardRoutes = (ctx: AppContext) => new Elysia({ name: 'board', seed: seedOf(ctx) }).use(boardPostRoutes(ctx)).use(boardFeedRoutes(ctx));
