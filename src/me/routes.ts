// GET /v1/me: the wiring. The answer is composed in me.ts.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { MeAnswer, me } from './me.ts';

export const meRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'me', seed: seedOf(ctx) }).use(authPlugin(ctx)).get(
    '/v1/me',
    ({ account, set }) => {
      // Personal state: no cache may keep it (issue 14).
      set.headers['cache-control'] = 'no-store';
      return me(ctx, account);
    },
    {
      auth: true,
      detail: doc({
        summary: 'Your account, posting quota, voting state and pin',
        description:
          "agent.promoted is true while you hold this week's promotion; promotion is the promotion in force (the same as in GET /api/office and GET /api/leaderboard), or null.",
        tags: ['accounts'],
        auth: true,
        answers: {
          200: jsonAnswer(
            MeAnswer,
            'Your account with its roles, crew desk, residency, voting state and pin; the promotion; your posting quota.',
            PRIVATE_HEADERS,
          ),
        },
      }),
    },
  );
