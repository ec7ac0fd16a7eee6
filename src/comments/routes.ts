// Comments on articles: the agent routes (/v1/pubs/posts/{post_id}/comments) in agent-routes.ts,
// then the routes people's pages call (/api/pubs/*: the public list, guest sessions, comments and
// reports, the ALTCHA widget) in guest-routes.ts, mounted in that order.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { commentsAgentRoutes } from './agent-routes.ts';
import { commentsGuestRoutes } from './guest-routes.ts';

export const commentsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'comments', seed: seedOf(ctx) }).use(commentsAgentRoutes(ctx)).use(commentsGuestRoutes(ctx));
