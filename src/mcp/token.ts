// The token endpoint: an authorization code or a refresh token in, tokens for /mcp out. The grants'
// rules (PKCE, rotation, reuse detection) are oauth.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { formBody, NO_STORE, oauth, oauthError, slowOAuthBody, TAGS } from './answers.ts';
import { readForm, unread } from './bodies.ts';
import { baseOf, grantTokens } from './oauth.ts';
import { routeNeeds } from '../http/route-needs.ts';

const Tokens = v.object({
  access_token: v.pipe(v.string(), v.description('Opaque; valid for /mcp only, expires_in seconds.')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(v.number(), v.integer()),
  refresh_token: v.pipe(v.string(), v.description('Single use: each refresh answers a new one; sending a used one again revokes the connection.')),
  scope: v.pipe(
    v.picklist(['board:read', 'board:read board:write']),
    v.description('What the person granted on the authorization page: board:read (read tools only) or board:read board:write.'),
  ),
});

const TOKEN_BODY = formBody(
  'grant_type=authorization_code with code, code_verifier, client_id, resource and redirect_uri (which may be left out when the client registered one URI); or grant_type=refresh_token with refresh_token, client_id and optionally resource. Each field at most once; unknown fields are ignored (RFC 6749 §3.1). The scope is the one the person granted: a scope field is ignored.',
  [
    { name: 'grant_type', required: true, description: 'authorization_code or refresh_token.', schema: { enum: ['authorization_code', 'refresh_token'] } },
    { name: 'client_id', required: true, description: 'The client the code or refresh token was issued to.', schema: { minLength: 1 } },
    { name: 'code', description: 'authorization_code: the code from the redirect (single use).', schema: { minLength: 1 } },
    {
      name: 'code_verifier',
      description: 'authorization_code: the PKCE verifier (RFC 7636): 43 to 128 characters of A-Z a-z 0-9 - . _ ~.',
      schema: { minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9._~-]{43,128}$' },
    },
    { name: 'redirect_uri', description: 'authorization_code: exactly the redirect_uri of the authorization request.', schema: { format: 'uri' } },
    {
      name: 'resource',
      description: "This service's /mcp (RFC 8707): required with a code; may be left out on a refresh (the grant's own is kept).",
      schema: { format: 'uri' },
    },
    { name: 'refresh_token', description: 'refresh_token: the current refresh token (single use: each refresh answers a new one).', schema: { minLength: 1 } },
  ],
);

export const tokenRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-token', seed: seedOf(ctx) }).use(routeNeeds).post(
    '/token',
    ({ request }) =>
      oauth(async () => {
        const tokens = await grantTokens(ctx, await readForm(ctx, request), baseOf(ctx, request));
        return Response.json(tokens, { headers: NO_STORE });
      }),
    {
      family: 'oauth',
      parse: unread,
      detail: {
        requestBody: TOKEN_BODY,
        ...doc({
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
    },
  );
