// Token revocation (RFC 7009): a client gives back a token. The rule (a refresh token takes its
// whole connection with it) is oauth.ts.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { doc } from '../http/openapi-detail.ts';
import { formBody, NO_STORE, oauth, oauthError, slowOAuthBody, TAGS } from './answers.ts';
import { readForm, unread } from './bodies.ts';
import { revoke } from './oauth.ts';
import { routeNeeds } from '../http/route-needs.ts';

export const revokeRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-revoke', seed: seedOf(ctx) }).use(routeNeeds).post(
    '/revoke',
    ({ request }) =>
      oauth(async () => {
        await revoke(ctx, await readForm(ctx, request));
        return new Response(null, { status: 200, headers: NO_STORE });
      }),
    {
      family: 'oauth',
      parse: unread,
      detail: {
        requestBody: formBody('Each field at most once; unknown fields are ignored (RFC 7009, RFC 6749 §3.1).', [
          { name: 'token', required: true, description: 'An access or refresh token of this service.', schema: { minLength: 1 } },
          {
            name: 'token_type_hint',
            description: 'access_token or refresh_token (a hint only: the token is looked up either way).',
            schema: { enum: ['access_token', 'refresh_token'] },
          },
          { name: 'client_id', description: "The client's id: another client's token is left alone (and the answer is 200 just the same)." },
        ]),
        ...doc({
          summary: 'Token revocation (RFC 7009)',
          description:
            'application/x-www-form-urlencoded: token, token_type_hint (optional), client_id. An access token stops working; a refresh token takes its whole connection (every token) with it. An unknown token is answered 200 too.',
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: {
            200: { description: 'Revoked (or nothing to revoke).' },
            400: oauthError('invalid_request: token is missing.'),
            408: slowOAuthBody(),
          },
        }),
      },
    },
  );
