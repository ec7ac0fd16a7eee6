// Token revocation (RFC 7009): a client gives back a token. The rule (a refresh token takes its
// whole connection with it) is oauth.ts.
import { Elysia } from 'elysia';
import type { AppContext } from '../context.ts';
import { doc } from '../http/openapi-detail.ts';
import { NO_STORE, oauth, oauthError, slowOAuthBody, TAGS } from './answers.ts';
import { readForm, unread } from './bodies.ts';
import { revoke } from './oauth.ts';

export const revokeRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-revoke', seed: ctx }).post(
    '/revoke',
    ({ request }) =>
      oauth(async () => {
        revoke(ctx, await readForm(ctx, request));
        return new Response(null, { status: 200, headers: NO_STORE });
      }),
    {
      parse: unread,
      detail: doc({
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
  );
