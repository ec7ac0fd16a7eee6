// Dynamic client registration (RFC 7591), the fallback for a client without a Client ID Metadata
// Document. What a client may register (redirect URIs, grants, the rate limit) is clients.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { clientAddress } from '../http/client.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { NO_STORE, OAuthError, oauth, oauthError, slowOAuthBody, TAGS } from './answers.ts';
import { bodyFailure, FORM_BYTES, readBody, unread } from './bodies.ts';
import { registerClient } from './clients.ts';
import { OAuthFailure } from './oauth.ts';

const Registered = v.object({
  client_id: v.string(),
  client_id_issued_at: v.pipe(v.number(), v.integer()),
  redirect_uris: v.array(v.string()),
  token_endpoint_auth_method: v.literal('none'),
  grant_types: v.array(v.string()),
  response_types: v.array(v.string()),
  client_name: v.optional(v.string()),
  client_uri: v.optional(v.string()),
});

export const registerRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-register', seed: ctx }).post(
    '/register',
    ({ request, server }) =>
      oauth(async () => {
        const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'application/json') throw new OAuthFailure(400, 'invalid_client_metadata', 'Send the client metadata as application/json.');
        const text = await readBody(ctx, request, FORM_BYTES);
        if (typeof text !== 'string')
          throw bodyFailure(ctx, text, new OAuthFailure(400, 'invalid_client_metadata', `The client metadata is larger than ${FORM_BYTES} bytes.`));
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new OAuthFailure(400, 'invalid_client_metadata', 'The body is not JSON.');
        }
        const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config.trustProxy);
        return Response.json(await registerClient(ctx, body, address), { status: 201, headers: NO_STORE });
      }),
    {
      parse: unread,
      detail: doc({
        summary: 'Dynamic client registration (RFC 7591)',
        description:
          'The fallback for a client without a Client ID Metadata Document. JSON client metadata: redirect_uris (1 to 10; each https, or http on a loopback host for a native app: 127.0.0.1, [::1] or localhost, any port (RFC 8252); no fragment, no user name; anything else, a private-use scheme included, is invalid_redirect_uri), client_name, client_uri, grant_types (authorization_code, refresh_token). ' +
          'Every client is public: token_endpoint_auth_method is none whatever was asked. Rate-limited per client address per hour (SVC_MCP_REGISTRATIONS_PER_HOUR).',
        tags: TAGS,
        errors: ['INTERNAL'],
        answers: {
          201: jsonAnswer(Registered, 'The client_id to use, with the metadata as registered.', PRIVATE_HEADERS),
          400: oauthError('invalid_client_metadata or invalid_redirect_uri.'),
          408: slowOAuthBody(),
          429: jsonAnswer(OAuthError, 'Too many registrations from this address in the last hour (too_many_registrations).', {
            'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
          }),
        },
      }),
    },
  );
