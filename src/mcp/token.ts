// The token endpoint: an authorization code or a refresh token in, tokens for /mcp out. The grants'
// rules (PKCE, rotation, reuse detection) are oauth.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { NO_STORE, oauth, oauthError, slowOAuthBody, TAGS } from './answers.ts';
import { readForm, unread } from './bodies.ts';
import { grantTokens } from './oauth.ts';

const Tokens = v.object({
  access_token: v.pipe(v.string(), v.description('Opaque; valid for /mcp only, expires_in seconds.')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(v.number(), v.integer()),
  refresh_token: v.pipe(v.string(), v.description('Single use: each refresh answers a new one; sending a used one again revokes the connection.')),
  scope: v.optional(v.string()),
});

export const tokenRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-token', seed: ctx }).post(
    '/token',
    ({ request }) =>
      oauth(async () => {
        const tokens = grantTokens(ctx, await readForm(ctx, request));
        return Response.json(tokens, { headers: NO_STORE });
      }),
    {
      parse: unread,
      detail: doc({
        summary: 'Token endpoint: exchange a code, refresh a token',
        description:
          'application/x-www-form-urlencoded. grant_type=authorization_code with code, redirect_uri (as at /authorize), code_verifier (PKCE), client_id, resource (this /mcp); or grant_type=refresh_token with refresh_token, client_id, resource. ' +
          'Refresh tokens rotate: each use answers a new one, and a used one sent again revokes every token of the connection. ' +
          'A code_verifier that does not match spends the code (RFC 9700): even the right verifier is then invalid_grant, and the client authorizes again. Public clients: no secret.',
        tags: TAGS,
        errors: ['INTERNAL'],
        answers: {
          200: jsonAnswer(Tokens, 'An access token for /mcp (expires_in seconds) and a single-use refresh token.', PRIVATE_HEADERS),
          400: oauthError(
            'invalid_request, invalid_grant (unknown, used or expired code or refresh token, a code_verifier that does not match (the code is then spent), another redirect_uri), invalid_target (resource), unsupported_grant_type.',
          ),
          408: slowOAuthBody(),
        },
      }),
    },
  );
