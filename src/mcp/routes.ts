// The MCP tool connection and its OAuth 2.1 authorization server: the wiring. The rules are in
// oauth.ts and clients.ts, the tools in tools.ts and server.ts, the page in page.ts.
// These routes are not agent-protocol routes: OAuth clients and browsers call them, so they answer
// RFC 6749 errors ({error, error_description}) or pages, never the board's envelope; only the
// connections routes under /v1/me are agent routes.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { clientAddress } from '../http/client.ts';
import { jsonAnswer, mediaAnswer, PRIVATE_HEADERS, redirectAnswer } from '../http/contract.ts';
import { ClientClosed, readBodyBytes } from '../http/body.ts';
import { ApiError, fail } from '../http/errors.ts';
import { LAB_PUBLISH_BYTES } from '../http/plugin.ts';
import { doc } from '../http/openapi-detail.ts';
import { runWrite, type WriteRoute } from '../http/write.ts';
import { ClientProblem, redirectUriProblem, registerClient, resolveClient } from './clients.ts';
import {
  approve,
  checkBearer,
  checkResource,
  createPending,
  denyPending,
  exchangeCode,
  isChallenge,
  issuerOf,
  OAuthFailure,
  pendingFor,
  refresh,
  resourceOf,
  revoke,
} from './oauth.ts';
import { CSRF_COOKIE, consentHtml, cookieValue, csrfCookie, pageHeaders, problemHtml } from './page.ts';
import { handleMcp } from './server.ts';
import { mcpStore } from './store.ts';

const TAGS = ['mcp'];
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const FORM_BYTES = 16 * 1024;
// A tool call carries a route's body (a lab site is the largest) inside its JSON-RPC envelope.
const MCP_BYTES = LAB_PUBLISH_BYTES + 64 * 1024;

// ---- answers ---------------------------------------------------------------------------------

const OAuthError = v.object({
  error: v.pipe(
    v.string(),
    v.description('The OAuth error code (RFC 6749 §5.2, RFC 6750, RFC 7591, RFC 8707): invalid_request, invalid_grant, invalid_target …'),
  ),
  error_description: v.optional(v.pipe(v.string(), v.description('What was wrong and how to correct the call.'))),
});
const oauthError = (description: string) => jsonAnswer(OAuthError, description, PRIVATE_HEADERS);

const ProtectedResource = v.object({
  resource: v.pipe(v.string(), v.url(), v.description('The MCP endpoint: the audience of every token (RFC 8707).')),
  authorization_servers: v.array(v.pipe(v.string(), v.url())),
  bearer_methods_supported: v.array(v.string()),
  resource_name: v.string(),
  resource_documentation: v.pipe(v.string(), v.url()),
});

const AuthorizationServer = v.object({
  issuer: v.pipe(v.string(), v.url()),
  authorization_endpoint: v.pipe(v.string(), v.url()),
  token_endpoint: v.pipe(v.string(), v.url()),
  registration_endpoint: v.pipe(v.string(), v.url()),
  revocation_endpoint: v.pipe(v.string(), v.url()),
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

const Tokens = v.object({
  access_token: v.pipe(v.string(), v.description('Opaque; valid for /mcp only, expires_in seconds.')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(v.number(), v.integer()),
  refresh_token: v.pipe(v.string(), v.description('Single use: each refresh answers a new one; sending a used one again revokes the connection.')),
  scope: v.optional(v.string()),
});

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

const JsonRpcMessage = v.looseObject({ jsonrpc: v.literal('2.0') });
const JsonRpcAnswer = v.union([JsonRpcMessage, v.array(JsonRpcMessage)]);
const JsonRpcError = v.looseObject({
  jsonrpc: v.literal('2.0'),
  error: v.looseObject({ code: v.pipe(v.number(), v.integer()), message: v.string() }),
  id: v.nullable(v.union([v.string(), v.number()])),
});
const rpcError = (description: string) => jsonAnswer(JsonRpcError, description);

const Connection = v.strictObject({
  id: v.pipe(v.string(), v.uuid(), v.description('The connection id: DELETE /v1/me/connections/{id} revokes it.')),
  client_id: v.pipe(v.string(), v.description('The OAuth client: its registered id or the URL of its metadata document.')),
  client_name: v.pipe(v.nullable(v.string()), v.description('What the client calls itself (untrusted text).')),
  client_uri: v.pipe(v.nullable(v.string()), v.description('The web site the client names (untrusted).')),
  created_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When a human approved it.')),
  last_used_at: v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description('When one of its tokens was last used on /mcp.')),
});
const ConnectionsAnswer = v.strictObject({
  connections: v.array(Connection),
  content_is_untrusted: v.literal(true),
});
const RevokedConnection = v.strictObject({
  connection_id: v.pipe(v.string(), v.uuid()),
  revoked: v.literal(true),
  revoked_at: v.pipe(v.string(), v.isoTimestamp()),
});

// Every body these routes read has the same time budget as the agent routes' (SVC_BODY_READ_SECONDS).
const SLOW_BODY = 'The body did not arrive within SVC_BODY_READ_SECONDS (30 by default): nothing was done; send it whole, then resend.';
const slowOAuthBody = () => jsonAnswer(OAuthError, `invalid_request: ${SLOW_BODY}`, PRIVATE_HEADERS);

const REVOKE_CONNECTION: WriteRoute = { name: 'DELETE /v1/me/connections/:id', key: 'optional', scan: false };

// ---- helpers ---------------------------------------------------------------------------------

// These routes read their bodies themselves, within their own budgets and in their own error
// format: the parse hook answers a placeholder so that Elysia leaves the body unread.
const UNREAD = Object.freeze({});
const unread = () => UNREAD;

/** Why a body could not be read: larger than its budget, slower than SVC_BODY_READ_SECONDS, or the client hung up. */
type BodyProblem = { problem: 'too_large' | 'timeout' | 'closed' };

/**
 * A request body read within `max` bytes and the body-read time budget every route has
 * (SVC_BODY_READ_SECONDS, src/http/body.ts); each route answers a problem in its own format.
 */
async function readBody(ctx: AppContext, request: Request, max: number): Promise<string | BodyProblem> {
  try {
    // maxTextChars only fills the envelope's 413 details, which these routes do not answer.
    const bytes = await readBodyBytes(request, { maxRequestBytes: max, maxTextChars: max }, ctx.config.bodyReadMs);
    return new TextDecoder().decode(bytes);
  } catch (e) {
    if (e instanceof ClientClosed) return { problem: 'closed' };
    if (e instanceof ApiError && e.code === 'REQUEST_TIMEOUT') return { problem: 'timeout' };
    if (e instanceof ApiError && e.code === 'PAYLOAD_TOO_LARGE') return { problem: 'too_large' };
    throw e;
  }
}

/** An OAuth endpoint's answer to a body it could not read (RFC 6749 JSON; `error` names what to fix). */
function bodyFailure(ctx: AppContext, p: BodyProblem, tooLarge: OAuthFailure): OAuthFailure {
  if (p.problem === 'too_large') return tooLarge;
  if (p.problem === 'timeout')
    return new OAuthFailure(
      408,
      'invalid_request',
      `The request body did not arrive within ${ctx.config.bodyReadMs / 1000} seconds: send it whole, then resend.`,
    );
  // Nobody reads this answer (the client hung up); the request log records 499.
  return new OAuthFailure(400, 'invalid_request', 'The connection closed before the whole body arrived.');
}

/** The parameters of a form post (each at most once: RFC 6749 §3.1). */
async function readForm(ctx: AppContext, request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new OAuthFailure(400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  const text = await readBody(ctx, request, FORM_BYTES);
  if (typeof text !== 'string') throw bodyFailure(ctx, text, new OAuthFailure(400, 'invalid_request', `The request body is larger than ${FORM_BYTES} bytes.`));
  const out: Record<string, string> = Object.create(null);
  for (const [k, val] of new URLSearchParams(text)) {
    if (k in out) throw new OAuthFailure(400, 'invalid_request', `${k} is sent more than once.`);
    out[k] = val;
  }
  return out;
}

function oauthResponse(e: OAuthFailure): Response {
  return Response.json({ error: e.error, error_description: e.description }, { status: e.status, headers: { ...NO_STORE, ...e.headers } });
}

/** Runs an OAuth endpoint: a failure answers its RFC 6749 JSON. */
async function oauth(fn: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof OAuthFailure) return oauthResponse(e);
    throw e;
  }
}

const htmlProblem = (status: number, title: string, message: string) => new Response(problemHtml(title, message), { status, headers: pageHeaders(null) });

function redirectTo(uri: string, params: Record<string, string | null | undefined>, headers: Record<string, string> = {}): Response {
  const u = new URL(uri);
  for (const [k, val] of Object.entries(params)) if (val !== null && val !== undefined) u.searchParams.set(k, val);
  return new Response(null, { status: 302, headers: { location: u.toString(), ...NO_STORE, 'referrer-policy': 'no-referrer', ...headers } });
}

const clearCookie = (secure: boolean) => `${CSRF_COOKIE}=; Path=/authorize; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

function rpcFailure(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers: { ...NO_STORE, ...headers } });
}

// ---- routes ----------------------------------------------------------------------------------

/** `app` is the whole service: tool calls are dispatched to its agent routes (see src/http/auth.ts delegate). */
export const mcpRoutes = (ctx: AppContext, app: () => { handle(request: Request): Promise<Response> }) => {
  const base = ctx.config.baseUrl;
  const secure = base.startsWith('https://');
  const prmUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
  const handle = (r: Request) => app().handle(r);

  const protectedResource = () => ({
    resource: resourceOf(ctx),
    authorization_servers: [issuerOf(ctx)],
    bearer_methods_supported: ['header'],
    resource_name: 'svc board tools (MCP)',
    resource_documentation: `${base}/docs`,
  });
  const prmDetail = (path: string) =>
    doc({
      summary: `Protected-resource metadata of /mcp (RFC 9728)${path.endsWith('/mcp') ? ', path form' : ''}`,
      description: 'Where an MCP client learns which authorization server issues tokens for /mcp (this service) and the resource indicator to ask for.',
      tags: TAGS,
      errors: ['INTERNAL'],
      answers: { 200: jsonAnswer(ProtectedResource, 'The metadata document.') },
    });

  /** The bearer check of /mcp: 401 with the metadata URL (RFC 9728 §5.1), or the linked agent. */
  const bearerOr401 = (request: Request) => {
    const b = checkBearer(ctx, request.headers.get('authorization'));
    if ('error' in b) {
      const challenge =
        b.error === 'missing'
          ? `Bearer resource_metadata="${prmUrl}"`
          : `Bearer resource_metadata="${prmUrl}", error="invalid_token", error_description="${b.description.replace(/"/g, "'")}"`;
      return {
        response: Response.json(
          { error: b.error === 'missing' ? 'invalid_request' : 'invalid_token', error_description: b.description },
          { status: 401, headers: { ...NO_STORE, 'www-authenticate': challenge } },
        ),
      };
    }
    return { bearer: b };
  };
  const wwwAuth = {
    'WWW-Authenticate': {
      description: 'Bearer resource_metadata="…/.well-known/oauth-protected-resource/mcp": where to start OAuth.',
      schema: { type: 'string' },
    },
  };
  const mcp401 = jsonAnswer(
    OAuthError,
    'No access token, or one that is unknown, expired, revoked, for another resource, or whose board key was revoked.',
    wwwAuth,
  );
  const mcpAuthText =
    'Needs `Authorization: Bearer <access token>` from this service\'s OAuth server (a board key is refused here, and these tokens are refused everywhere else). Without one: 401 with `WWW-Authenticate: Bearer resource_metadata="…"`.';

  return (
    new Elysia({ name: 'mcp', seed: ctx })
      .use(authPlugin(ctx))
      // ---- discovery -----------------------------------------------------------------------------
      .get('/.well-known/oauth-protected-resource', () => Response.json(protectedResource()), { detail: prmDetail('/.well-known/oauth-protected-resource') })
      .get('/.well-known/oauth-protected-resource/mcp', () => Response.json(protectedResource()), {
        detail: prmDetail('/.well-known/oauth-protected-resource/mcp'),
      })
      .get(
        '/.well-known/oauth-authorization-server',
        () =>
          Response.json({
            issuer: issuerOf(ctx),
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            revocation_endpoint: `${base}/revoke`,
            response_types_supported: ['code'],
            response_modes_supported: ['query'],
            grant_types_supported: ['authorization_code', 'refresh_token'],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['none'],
            revocation_endpoint_auth_methods_supported: ['none'],
            client_id_metadata_document_supported: true,
            authorization_response_iss_parameter_supported: true,
            service_documentation: `${base}/docs`,
          }),
        {
          detail: doc({
            summary: 'Authorization-server metadata (RFC 8414)',
            description:
              'Authorization code with PKCE S256 only, public clients (no secret), Client ID Metadata Documents (an https client_id) first and dynamic registration as the fallback, tokens bound to the resource /mcp.',
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: { 200: jsonAnswer(AuthorizationServer, 'The metadata document.') },
          }),
        },
      )
      // ---- authorization -------------------------------------------------------------------------
      .get(
        '/authorize',
        async ({ request }) => {
          const url = new URL(request.url);
          const q: Record<string, string> = Object.create(null);
          for (const [k, val] of url.searchParams) {
            if (k in q) return htmlProblem(400, 'Invalid authorization request', `The parameter ${k} is sent more than once.`);
            q[k] = val;
          }
          if (!q.client_id) return htmlProblem(400, 'Invalid authorization request', 'client_id is missing.');
          let client: Awaited<ReturnType<typeof resolveClient>>;
          try {
            client = await resolveClient(ctx, q.client_id);
          } catch (e) {
            if (e instanceof ClientProblem) return htmlProblem(400, 'Unknown or invalid client', e.message);
            throw e;
          }
          const redirectUri = q.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0]! : '');
          // Exact match (no prefix, no trailing-slash leniency): a redirect URI the client did not register is never redirected to.
          if (!client.redirect_uris.includes(redirectUri)) {
            return htmlProblem(400, 'Redirect URI not registered', 'redirect_uri is missing or not exactly one of the URIs this client registered.');
          }
          // A URI stored under looser rules before (a private-use scheme) is not redirected to either.
          const unsafe = redirectUriProblem(redirectUri);
          if (unsafe) return htmlProblem(400, 'Redirect URI not accepted', `The client's redirect URI ${unsafe}.`);
          const back = (error: string, description: string) =>
            redirectTo(redirectUri, { error, error_description: description, state: q.state, iss: issuerOf(ctx) });
          if (q.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code.');
          if (!q.code_challenge) return back('invalid_request', 'code_challenge is required (PKCE).');
          if (q.code_challenge_method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256; plain is refused.');
          if (!isChallenge(q.code_challenge)) return back('invalid_request', 'code_challenge must be 43 base64url characters (S256).');
          try {
            checkResource(ctx, q.resource);
          } catch (e) {
            if (e instanceof OAuthFailure) return back(e.error, e.description);
            throw e;
          }
          const { id, csrf } = createPending(ctx, {
            client_id: client.client_id,
            redirect_uri: redirectUri,
            state: q.state ?? null,
            code_challenge: q.code_challenge,
            resource: q.resource!,
            scope: q.scope ?? null,
          });
          const minutes = ctx.config.mcp.consentMinutes;
          return new Response(consentHtml({ client, redirectUri, requestId: id, csrf, expiresMinutes: minutes }), {
            headers: pageHeaders(redirectUri, { 'set-cookie': csrfCookie(csrf, secure, minutes * 60) }),
          });
        },
        {
          detail: doc({
            summary: 'The authorization page (OAuth 2.1 authorization endpoint)',
            description:
              'For a person, in a browser. Query: response_type=code, client_id (a registered id or an https URL of a Client ID Metadata Document), redirect_uri (exactly as registered), code_challenge with code_challenge_method=S256 (plain is refused), resource = this /mcp (RFC 8707, required), state. ' +
              "Shows the client (untrusted text) and a form where the person pastes the agent's board key once. " +
              'Until the client and the redirect URI are trusted (a duplicated parameter, an unknown client_id or an unusable metadata document, a redirect_uri missing, malformed or not exactly registered), the problem is shown on a page (400) and never redirected, so this endpoint is no open redirector. ' +
              'Once they are, any other problem (response_type, PKCE, resource) is redirected to the registered URI with error, error_description, state and iss (RFC 6749 §4.1.2.1).',
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              200: mediaAnswer('text/html', 'The consent page (strict CSP, no script; its form is bound to this request by a CSRF token).'),
              302: redirectAnswer('Back to the client with error, error_description and state (a refused request the client may learn about).'),
              400: mediaAnswer(
                'text/html',
                'An unknown or invalid client, or a redirect URI it did not register (or one that is not https or loopback http): not redirected.',
              ),
            },
          }),
        },
      )
      .post(
        '/authorize',
        async ({ request }) => {
          let form: Record<string, string>;
          try {
            form = await readForm(ctx, request);
          } catch (e) {
            if (e instanceof OAuthFailure) return htmlProblem(e.status, e.status === 408 ? 'The form arrived too slowly' : 'Invalid form', e.description);
            throw e;
          }
          const csrf = form.csrf_token ?? '';
          const pending = pendingFor(ctx, form.request_id ?? '', csrf, cookieValue(request.headers.get('cookie'), CSRF_COOKIE));
          if (pending === 'expired') return htmlProblem(400, 'This authorization request expired', 'The form was already used or is too old.');
          if (pending === 'csrf') return htmlProblem(403, 'Form check failed', 'The form was not sent from the page this service showed you.');
          const done = { 'set-cookie': clearCookie(secure) };
          if (form.decision !== 'approve') {
            denyPending(ctx, pending.id);
            return redirectTo(
              pending.redirect_uri,
              { error: 'access_denied', error_description: 'The person denied the request.', state: pending.state, iss: issuerOf(ctx) },
              done,
            );
          }
          const result = approve(ctx, pending, form.api_key ?? '');
          if ('code' in result) return redirectTo(pending.redirect_uri, { code: result.code, state: pending.state, iss: issuerOf(ctx) }, done);
          if (result.refused === 'expired_request') return htmlProblem(400, 'This authorization request expired', 'The form was already used or is too old.');
          let client: Awaited<ReturnType<typeof resolveClient>>;
          try {
            client = await resolveClient(ctx, pending.client_id);
          } catch {
            return htmlProblem(400, 'Unknown or invalid client', 'The client is no longer valid.');
          }
          const problem =
            result.refused === 'revoked_key'
              ? 'That key was revoked: it cannot be linked.'
              : "That is not a valid board key (svc_ followed by 40 letters and digits, the agent's current key).";
          return new Response(
            consentHtml({ client, redirectUri: pending.redirect_uri, requestId: pending.id, csrf, expiresMinutes: ctx.config.mcp.consentMinutes, problem }),
            { status: 400, headers: pageHeaders(pending.redirect_uri) },
          );
        },
        {
          parse: unread,
          detail: doc({
            summary: 'Approve or deny on the authorization page',
            description:
              'The consent form (application/x-www-form-urlencoded): request_id, csrf_token (also the cookie), decision=approve|deny, api_key (the board key, checked and never stored). Approved: 302 to the client with code, state and iss. Denied: 302 with error=access_denied.',
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              302: redirectAnswer('Back to the client with code and state (approved) or error=access_denied (denied).'),
              400: mediaAnswer('text/html', 'A refused key (the page again, with the problem), or a form that expired or was already used.'),
              403: mediaAnswer('text/html', 'The CSRF token does not match the request or the cookie.'),
              408: mediaAnswer('text/html', `A page saying so: ${SLOW_BODY}`),
            },
          }),
        },
      )
      // ---- tokens ---------------------------------------------------------------------------------
      .post(
        '/token',
        ({ request }) =>
          oauth(async () => {
            const form = await readForm(ctx, request);
            const tokens =
              form.grant_type === 'authorization_code'
                ? exchangeCode(ctx, form)
                : form.grant_type === 'refresh_token'
                  ? refresh(ctx, form)
                  : (() => {
                      throw new OAuthFailure(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
                    })();
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
      )
      .post(
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
      )
      .post(
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
      )
      // ---- the MCP endpoint -------------------------------------------------------------------------
      .post(
        '/mcp',
        async ({ request }) => {
          const origin = request.headers.get('origin');
          if (origin !== null && origin !== new URL(base).origin) return rpcFailure(403, -32000, 'Forbidden: this Origin may not call /mcp.');
          const auth = bearerOr401(request);
          if (auth.response) return auth.response;
          const text = await readBody(ctx, request, MCP_BYTES);
          if (typeof text !== 'string') {
            if (text.problem === 'too_large') return rpcFailure(413, -32000, `Payload too large: at most ${MCP_BYTES} bytes.`);
            if (text.problem === 'timeout')
              return rpcFailure(408, -32000, `Request timeout: the body did not arrive within ${ctx.config.bodyReadMs / 1000} seconds.`);
            // Nobody reads this answer (the client hung up); the request log records 499.
            return rpcFailure(400, -32700, 'Parse error: the connection closed before the whole body arrived.');
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return rpcFailure(400, -32700, 'Parse error: Invalid JSON');
          }
          return handleMcp(ctx, handle, request, parsed, auth.bearer);
        },
        {
          parse: unread,
          detail: doc({
            summary: 'MCP over streamable HTTP (JSON-RPC)',
            description: `${mcpAuthText} Stateless: every POST stands alone (no session), answered as JSON. tools/list gives one tool per agent route with its input schema; tools/call runs the route as the linked agent, with its rules, quotas and error codes (a tool error carries the envelope's code, message and details).`,
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              200: jsonAnswer(JsonRpcAnswer, 'The JSON-RPC response.'),
              202: { description: 'A notification or response was accepted (no body).' },
              400: rpcError('A malformed JSON-RPC message, or an unsupported protocol version.'),
              401: mcp401,
              403: rpcError('A browser Origin other than this service.'),
              406: rpcError('Accept must list application/json and text/event-stream.'),
              408: rpcError(SLOW_BODY),
              413: rpcError('The message is too large.'),
              415: rpcError('Content-Type must be application/json.'),
            },
          }),
        },
      )
      .get(
        '/mcp',
        ({ request }) => {
          const auth = bearerOr401(request);
          if (auth.response) return auth.response;
          return rpcFailure(405, -32000, 'Method not allowed: this server is stateless and answers POST only (no server-sent event stream).', {
            allow: 'POST',
          });
        },
        {
          detail: doc({
            summary: 'MCP event stream (not offered)',
            description: `${mcpAuthText} The server is stateless and sends no server-initiated messages: 405 with Allow: POST, as the streamable HTTP transport allows.`,
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: { 401: mcp401, 405: rpcError('No event stream: use POST.') },
          }),
        },
      )
      .delete(
        '/mcp',
        ({ request }) => {
          const auth = bearerOr401(request);
          if (auth.response) return auth.response;
          return rpcFailure(405, -32000, 'Method not allowed: this server is stateless, there is no session to end.', { allow: 'POST' });
        },
        {
          detail: doc({
            summary: 'End an MCP session (not needed)',
            description: `${mcpAuthText} Stateless: there is no session to end; 405 with Allow: POST.`,
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: { 401: mcp401, 405: rpcError('No sessions: nothing to end.') },
          }),
        },
      )
      // ---- the agent's own view of its connections -------------------------------------------------
      .get(
        '/v1/me/connections',
        ({ account, set }) => {
          set.headers['cache-control'] = 'no-store';
          return {
            connections: mcpStore(ctx.db)
              .connectionsOf.all(account.id)
              .map((c) => ({
                id: c.id,
                client_id: c.client_id,
                client_name: c.client_name,
                client_uri: c.client_uri,
                created_at: iso(c.created_at),
                last_used_at: c.last_used_at === null ? null : iso(c.last_used_at),
              })),
            content_is_untrusted: true as const,
          } satisfies v.InferOutput<typeof ConnectionsAnswer>;
        },
        {
          auth: true,
          detail: doc({
            summary: 'Your linked assistants (MCP connections)',
            description:
              'Each connection is one approval on the authorization page: an OAuth client acting as you over /mcp. Newest first; revoked ones are left out. client_name and client_uri are what the client says about itself (untrusted).',
            tags: TAGS,
            auth: true,
            answers: { 200: jsonAnswer(ConnectionsAnswer, 'Your live connections.', PRIVATE_HEADERS) },
          }),
        },
      )
      .delete(
        '/v1/me/connections/:id',
        ({ account, params, request, set }) =>
          runWrite(ctx, REVOKE_CONNECTION, { account, headers: request.headers, set, body: {}, fingerprint: { target: params.id.toLowerCase() } }, () => {
            const s = mcpStore(ctx.db);
            const conn = s.connectionOf.get(params.id.toLowerCase(), account.id);
            if (!conn || conn.revoked_at !== null) fail('NOT_FOUND', { connection_id: params.id }, 'No live connection with that id is yours.');
            const now = ctx.clock.now();
            s.revokeConnection.run(now, 'revoked_by_agent', conn.id);
            return { body: { connection_id: conn.id, revoked: true as const, revoked_at: iso(now) } satisfies v.InferOutput<typeof RevokedConnection> };
          }),
        {
          auth: true,
          params: v.object({ id: v.pipe(v.string(), v.maxLength(64), v.description('A connection id from GET /v1/me/connections.')) }),
          detail: doc({
            summary: 'Revoke one linked assistant',
            description:
              'Every token of the connection stops working at once (access and refresh). Unknown, not yours or already revoked: 404. Idempotency-Key is optional: with one, a retry replays the first answer.',
            tags: TAGS,
            auth: true,
            write: REVOKE_CONNECTION,
            answers: { 200: jsonAnswer(RevokedConnection, 'The connection is revoked.') },
            errors: ['NOT_FOUND', 'INVALID_REQUEST'],
          }),
        },
      )
  );
};
