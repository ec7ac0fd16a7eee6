// Discovery: where an MCP client learns that /mcp needs a token from this service (RFC 9728) and
// what this authorization server supports (RFC 8414). The documents are the routes' answers.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { jsonAnswer } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { TAGS } from './answers.ts';
import { baseOf, issuerOf, resourceOf } from './oauth.ts';
import { SCOPES } from './scopes.ts';
import { routeNeeds } from '../http/route-needs.ts';

const ProtectedResource = v.object({
  resource: v.pipe(v.string(), v.url(), v.description('The MCP endpoint: the audience of every token (RFC 8707).')),
  authorization_servers: v.array(v.pipe(v.string(), v.url())),
  bearer_methods_supported: v.array(v.string()),
  scopes_supported: v.pipe(
    v.array(v.string()),
    v.description('board:read (read tools only) and board:write (the write tools too); the person chooses on the authorization page.'),
  ),
  resource_name: v.string(),
  resource_documentation: v.pipe(v.string(), v.url()),
});

const AuthorizationServer = v.object({
  issuer: v.pipe(v.string(), v.url()),
  authorization_endpoint: v.pipe(v.string(), v.url()),
  token_endpoint: v.pipe(v.string(), v.url()),
  registration_endpoint: v.pipe(v.string(), v.url()),
  revocation_endpoint: v.pipe(v.string(), v.url()),
  scopes_supported: v.array(v.string()),
  response_types_supported: v.array(v.string()),
  response_modes_supported: v.array(v.string()),
  grant_types_supported: v.array(v.string()),
  code_challenge_methods_supported: v.array(v.string()),
  token_endpoint_auth_methods_supported: v.array(v.string()),
  revocation_endpoint_auth_methods_supported: v.array(v.string()),
  client_id_metadata_document_supported: v.literal(true),
  authorization_response_iss_parameter_supported: v.literal(true),
  service_documentation: v.pipe(v.string(), v.url()),
});

// Both documents name the base URL the request names (src/mcp/oauth.ts baseOf): SVC_BASE_URL, or on
// a default install the loopback name the client used, as RFC 9728 §3.3 and RFC 8414 §3.3 want the
// resource and the issuer to match the address the client asked.
const protectedResource = (base: string): v.InferOutput<typeof ProtectedResource> => ({
  resource: resourceOf(base),
  authorization_servers: [issuerOf(base)],
  bearer_methods_supported: ['header'],
  scopes_supported: [...SCOPES],
  resource_name: 'svc board tools (MCP)',
  resource_documentation: `${base}/docs`,
});

const authorizationServer = (base: string): v.InferOutput<typeof AuthorizationServer> => {
  return {
    issuer: issuerOf(base),
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    revocation_endpoint: `${base}/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/docs`,
  };
};

const prmDetail = (path: string) =>
  doc({
    summary: `Protected-resource metadata of /mcp (RFC 9728)${path.endsWith('/mcp') ? ', path form' : ''}`,
    description:
      "Where an MCP client learns which authorization server issues tokens for /mcp (this service) and the resource indicator to ask for. Without SVC_BASE_URL, the URLs name the loopback address the request came to (localhost, 127.0.0.1 or [::1] at the server's port); any other address gets the default base URL.",
    tags: TAGS,
    errors: ['INTERNAL'],
    answers: { 200: jsonAnswer(ProtectedResource, 'The metadata document.') },
  });

export const oauthMetadataRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'mcp-oauth-metadata', seed: seedOf(ctx) })
    .use(routeNeeds)
    .get('/.well-known/oauth-protected-resource', ({ request }) => Response.json(protectedResource(baseOf(ctx, request))), {
      family: 'oauth',
      detail: prmDetail('/.well-known/oauth-protected-resource'),
    })
    .get('/.well-known/oauth-protected-resource/mcp', ({ request }) => Response.json(protectedResource(baseOf(ctx, request))), {
      family: 'oauth',
      detail: prmDetail('/.well-known/oauth-protected-resource/mcp'),
    })
    .get('/.well-known/oauth-authorization-server', ({ request }) => Response.json(authorizationServer(baseOf(ctx, request))), {
      family: 'oauth',
      detail: doc({
        summary: 'Authorization-server metadata (RFC 8414)',
        description:
          'Authorization code with PKCE S256 only, public clients (no secret), Client ID Metadata Documents (an https client_id) first and dynamic registration as the fallback, tokens bound to the resource /mcp. Without SVC_BASE_URL, the issuer and endpoints name the loopback address the request came to; a token asked for under one loopback name is good under the others (one service).',
        tags: TAGS,
        errors: ['INTERNAL'],
        answers: { 200: jsonAnswer(AuthorizationServer, 'The metadata document.') },
      }),
    });
