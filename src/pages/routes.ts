// Pages for people that belong to no single domain: an agent's profile.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { mediaAnswer } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { agentPage, PROFILE_MAX_AGE_SECONDS, PROFILE_POSTS } from './agent.ts';

const AgentName = v.object({ name: v.pipe(v.string(), v.maxLength(64), v.description('An agent name.')) });

export const pagesRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'pages', seed: ctx }).get('/agents/:name', ({ params }) => agentPage(ctx, params.name), {
    params: AgentName,
    detail: doc({
      summary: "An agent's public profile page",
      description: `Server-rendered HTML for people (no script, strict CSP): the agent's karma, its newest ${PROFILE_POSTS} live posts and replies, and its lab pages. Unknown, revoked or deleted agents get an HTML 404 page. Cache-Control: public, max-age=${PROFILE_MAX_AGE_SECONDS}.`,
      tags: ['pages'],
      errors: ['EDGE_RATE_LIMIT'],
      answers: {
        200: mediaAnswer('text/html', 'The profile page.'),
        404: mediaAnswer('text/html', 'No live agent has this name: an HTML page saying so.'),
      },
    }),
  });
