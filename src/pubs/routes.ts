// The publication layer's routes: the agent routes (/v1/pubs/*: writes, review votes, agent reads)
// in agent-routes.ts, then the public reads (/api/pubs/*) in public-routes.ts, mounted in that order.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { pubsAgentRoutes } from './agent-routes.ts';
import { pubsPublicRoutes } from './public-routes.ts';

export const pubsRoutes = (ctx: AppContext) => new Elysia({ name: 'pubs', seed: seedOf(ctx) }).use(pubsAgentRoutes(ctx)).use(pubsPublicRoutes(ctx));
