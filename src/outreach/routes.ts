// Outreach: contacts, e-mail, replies, channel posts and the public log. The routes come in two
// families: public-routes.ts (the log, the stop and unsubscribe links; no key) and agent-routes.ts
// (/v1/outreach/*, behind the outreach gate). The rules live in contacts.ts, email.ts, posts.ts,
// sent.ts and text.ts; sending in mailer.ts, receiving in inbound.ts, the public log in log.ts.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { outreachAgentRoutes } from './agent-routes.ts';
import { outreachPublicRoutes } from './public-routes.ts';

export const outreachRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'outreach', seed: seedOf(ctx) }).use(outreachPublicRoutes(ctx)).use(outreachAgentRoutes(ctx));
