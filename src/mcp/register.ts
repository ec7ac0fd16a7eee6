// Dynamic client registration (RFC 7591), the fallback for a client without a Client ID Metadata
// Document. What a client may register (redirect URIs, grants, the rate limit) is clients.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { clientAddress } from '../http/client.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { NO_STORE, OAuthError, oauth, oauthError, slowOAuthBody, TAGS } from './answers.ts';
import { bodyFailure, FORM_BYTES, readBody, unread } from './bodies.ts';
import { registerClient } from './clients.ts';
import { OAuthFailure } from './oauth.ts';
import { routeNeeds } from '../http/route-needs.ts';

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

const URI = { type: 'string' as const, format: 'uri' };
const REGISTER_BODY = {
  required: true,
  description: 'RFC 7591 client metadata as JSON. Other members of RFC 7591 are accepted and not used.',
  content: {
    'application/json': {
      schema: {
        type: 'object' as const,
        required: ['redirect_uris'],
        properties: {
          redirect_uris: {
            type: 'array' as const,
            minItems: 1,
            maxItems: 10,
            items: URI,
            description:
              'https, or http on 127.0.0.1, [::1] or localhost; no fragment, no user name, no backslash, its host written as a browser reads it (not http://127.1/, not a percent-encoded or Unicode host). Matched exactly at /authorize, but for the port of http on 127.0.0.1, [::1] or localhost, which may be any there (RFC 8252 §7.3). Registering a URI does not make /authorize redirect problems to it: only a browser that approved this client with it does (see GET /authorize).',
          },
          client_name: { type: 'string' as const, description: 'Shown to the person on the authorization page (untrusted text; at most 200 characters kept).' },
          client_uri: { ...URI, description: 'Shown on the authorization page as the web site the client names (untrusted, never a link).' },
          grant_types: {
            type: 'array' as const,
            items: { type: 'string' as const, enum: ['authorization_code', 'refresh_token'] },
            description: 'Default both.',
          },
          response_types: { type: 'array' as const, items: { type: 'string' as const, enum: ['code'] } },
          token_endpoint_auth_method: { type: 'string' as const, description: 'Whatever is asked, none is registered: every client is public.' },
          scope: { type: 'string' as const, description: 'Not used: the person chooses the scope on the authorization page.' },
        },
      },
      example: { client_name: 'My assistant', redirect_uris: ['http://127.0.0.1:33333/callback'] },
    },
  },
};

export const registerRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-register', seed: seedOf(ctx) }).use(routeNeeds).post(
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
      family: 'oauth',
      parse: unread,
      detail: {
        requestBody: REGISTER_BODY,
        ...doc({
          summary: 'Dynamic client registration (RFC 7591)',
          description:
            'The fallback for a client without a Client ID Metadata Document. JSON client metadata: redirect_uris (1 to 10; each https, or http on a loopback host for a native app: 127.0.0.1, [::1] or localhost, matched at any port at /authorize (RFC 8252 §7.3); no fragment, no user name, no backslash, and the host written as a browser reads it; anything else, a private-use scheme included, is invalid_redirect_uri), client_name, client_uri, grant_types (authorization_code, refresh_token). ' +
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
    },
  );
