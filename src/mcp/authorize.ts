// The authorization endpoint: GET /authorize checks the request and shows the consent page, POST
// /authorize takes the person's decision from its form. The checks and the approval are consent.ts;
// the page is page.ts.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { clientAddress } from '../http/client.ts';
import { mediaAnswer, redirectAnswer } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { RateLimiter } from '../http/rate-limit.ts';
import { formBody, NO_STORE, queryParameters, SLOW_BODY, TAGS } from './answers.ts';
import { readForm, unread } from './bodies.ts';
import { type Client, resolveClient } from './clients.ts';
import { approve, checkAuthorizationRequest, choiceOf, createPending, denyPending, keyRefusal, offeredScopes, pendingFor } from './consent.ts';
import { baseOf, issuerOf, OAuthFailure } from './oauth.ts';
import { TOOLSETS } from './scopes.ts';
import { isTrusted, trustCookie } from './trust.ts';
import { CSRF_COOKIE, clearCsrfCookie, consentHtml, cookieValue, csrfCookie, pageHeaders, problemHtml } from './page.ts';

const htmlProblem = (status: number, title: string, message: string, extra: Record<string, string> = {}) =>
  new Response(problemHtml(title, message), { status, headers: pageHeaders(null, extra) });

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' as const } } };

function redirectTo(uri: string, params: Record<string, string | null | undefined>, cookies: string[] = []): Response {
  const u = new URL(uri);
  for (const [k, val] of Object.entries(params)) if (val !== null && val !== undefined) u.searchParams.set(k, val);
  const headers = new Headers({ location: u.toString(), ...NO_STORE, 'referrer-policy': 'no-referrer' });
  for (const c of cookies) headers.append('set-cookie', c);
  return new Response(null, { status: 302, headers });
}

const AUTHORIZE_QUERY = queryParameters([
  { name: 'response_type', required: true, description: 'code (the only one).', schema: { enum: ['code'] } },
  {
    name: 'client_id',
    required: true,
    description: 'A client_id from /register, or the https URL of a Client ID Metadata Document.',
    schema: { minLength: 1 },
  },
  {
    name: 'redirect_uri',
    description:
      'One of the URIs the client registered, exactly; for http on 127.0.0.1, [::1] or localhost the port may differ (RFC 8252 §7.3). May be left out when the client registered one.',
    schema: { format: 'uri' },
  },
  {
    name: 'code_challenge',
    required: true,
    description: 'PKCE (RFC 7636): base64url(sha256(code_verifier)), 43 characters.',
    schema: { minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$' },
  },
  { name: 'code_challenge_method', required: true, description: 'S256 (plain is refused).', schema: { enum: ['S256'] } },
  { name: 'resource', required: true, description: "This service's /mcp (RFC 8707).", schema: { format: 'uri' } },
  { name: 'state', description: 'Returned unchanged with the code or the error.' },
  {
    name: 'scope',
    description:
      'Space-separated: board:read, board:write. Narrows what the page offers: board:read alone offers read-only access only; board:write, or no known scope, offers the choice between read-only (the default) and read and write. Unknown scopes are ignored.',
  },
]);

const AUTHORIZE_FORM = formBody('The consent form, as the page sends it (never typed by hand).', [
  { name: 'request_id', required: true, description: 'The pending request the page was shown for.' },
  { name: 'csrf_token', required: true, description: 'The form token; the same value must come as the svc_oauth_csrf cookie.' },
  { name: 'decision', required: true, description: 'approve or deny.', schema: { enum: ['approve', 'deny'] } },
  { name: 'api_key', description: "approve: the agent's board key, checked and never stored." },
  {
    name: 'access',
    description:
      'read (scope board:read; chosen at first unless the client asked for board:write) or write (board:read board:write, when the request allowed it).',
    schema: { enum: ['read', 'write'] },
  },
  ...TOOLSETS.map((t) => ({
    name: `toolset_${t}`,
    description: `on: the assistant sees the ${t} tools. At least one toolset is needed.`,
    schema: { enum: ['on'] },
  })),
]);

export const authorizeRoutes = (ctx: AppContext) => {
  const secure = ctx.config.baseUrl.startsWith('https://');
  // Each page opened stores a pending request and may fetch a metadata document: counted per client address.
  const opened = new RateLimiter(ctx.clock, ctx.config.mcp.authorizePerHour, 3_600_000);
  return new Elysia({ name: 'mcp-authorize', seed: seedOf(ctx) })
    .get(
      '/authorize',
      async ({ request, server }) => {
        const retryAt = opened.take(clientAddress(request, () => server?.requestIP(request)?.address, ctx.config.trustProxy));
        if (retryAt !== null) {
          const limit = ctx.config.mcp.authorizePerHour;
          return htmlProblem(
            429,
            'Too many authorization requests',
            `At most ${limit} authorization pages are opened per hour from one address, and this address reached that: finish the connection on a page already open, or wait a while.`,
            { 'retry-after': String(Math.max(1, Math.ceil((retryAt - ctx.clock.now()) / 1000))) },
          );
        }
        const cookies = request.headers.get('cookie');
        const base = baseOf(ctx, request);
        const checked = await checkAuthorizationRequest(ctx, new URL(request.url).searchParams, base, (id, uri) => isTrusted(ctx, cookies, id, uri));
        if ('shown' in checked) {
          const { title, message, status, retryAfterSeconds } = checked.shown;
          return htmlProblem(status ?? 400, title, message, retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {});
        }
        if ('redirected' in checked) {
          const { redirectUri, error, description, state } = checked.redirected;
          return redirectTo(redirectUri, { error, error_description: description, state, iss: issuerOf(base) });
        }
        const { client, ask } = checked;
        const { id, csrf } = await createPending(ctx, ask);
        const minutes = ctx.config.mcp.consentMinutes;
        const page = consentHtml({
          client,
          redirectUri: ask.redirect_uri,
          requestId: id,
          csrf,
          expiresMinutes: minutes,
          offered: offeredScopes(ask.scope),
          requested: ask.scope,
        });
        return new Response(page, {
          headers: pageHeaders(ask.redirect_uri, { 'set-cookie': csrfCookie(csrf, secure, minutes * 60) }),
        });
      },
      {
        detail: {
          parameters: AUTHORIZE_QUERY,
          ...doc({
            summary: 'The authorization page (OAuth 2.1 authorization endpoint)',
            description:
              'For a person, in a browser. Query: response_type=code, client_id (a registered id or an https URL of a Client ID Metadata Document), redirect_uri (as registered: exactly, but for the port of http on 127.0.0.1, [::1] or localhost, which may be any (RFC 8252 §7.3)), code_challenge with code_challenge_method=S256 (plain is refused), resource = this /mcp (RFC 8707, required), state, scope (optional: narrows what the page offers). ' +
              "Shows the client (untrusted text) and a form where the person chooses read-only (board:read, the default) or read and write (board:read board:write), ticks the toolsets the assistant sees (board, pubs, continuity, lab, outreach, show; board and continuity ticked at first, and read and write chosen at first when the client's scope asked for board:write), and pastes the agent's board key once. " +
              'A problem with the client or its redirect URI (a duplicated parameter, an unknown client_id or an unusable metadata document, a redirect_uri missing, malformed or not registered) is shown on a page (400) and never redirected. ' +
              'At most SVC_MCP_AUTHORIZE_PER_HOUR (60) requests per client address per hour (429 page beyond); a metadata document that could not be fetched or used is answered from memory for 60 s, and at most 8 are fetched at once (503 page beyond). ' +
              "Any other problem (response_type, PKCE, resource) is redirected to the registered URI with error, error_description, state and iss (RFC 6749 §4.1.2.1) only when the redirect URI is trusted: this browser approved this client with this redirect URI before (approving sets an HttpOnly cookie svc_oauth_ok_…, Path=/authorize, 180 days, signed by this service). Registration alone never makes a URI trusted, nor does another person's approval; an untrusted one gets the problem on a 400 page with no Location (RFC 9700 §4.11.2), so this endpoint is no open redirector.",
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              200: mediaAnswer('text/html', 'The consent page (strict CSP, no script; its form is bound to this request by a CSRF token).'),
              302: redirectAnswer(
                'Back to a trusted redirect URI with error, error_description, state and iss (a refused request the client may learn about).',
              ),
              400: mediaAnswer(
                'text/html',
                'An unknown or invalid client, a redirect URI it did not register (or one that is not https or loopback http), or any problem while the redirect URI is not trusted by this browser: shown, not redirected.',
              ),
              429: mediaAnswer(
                'text/html',
                'Too many authorization requests from this address this hour (SVC_MCP_AUTHORIZE_PER_HOUR): a page, never a redirect.',
                RETRY_AFTER,
              ),
              503: mediaAnswer(
                'text/html',
                "Too many applications' metadata documents being fetched at this moment: a page, never a redirect; try again in a few seconds.",
                RETRY_AFTER,
              ),
            },
          }),
        },
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
        const done = [clearCsrfCookie(secure)];
        if (form.decision !== 'approve') {
          await denyPending(ctx, pending.id);
          return redirectTo(
            pending.redirect_uri,
            { error: 'access_denied', error_description: 'The person denied the request.', state: pending.state, iss: issuerOf(baseOf(ctx, request)) },
            done,
          );
        }
        const choice = choiceOf(form, pending.scope);
        const result = await approve(ctx, pending, form.api_key ?? '', choice);
        if ('code' in result) {
          // From now on this browser trusts this client's redirect URI: a later problem goes back to it (trust.ts).
          const trust = trustCookie(ctx, pending.client_id, pending.redirect_uri, secure);
          return redirectTo(pending.redirect_uri, { code: result.code, state: pending.state, iss: issuerOf(baseOf(ctx, request)) }, [...done, trust]);
        }
        if (result.refused === 'expired_request') return htmlProblem(400, 'This authorization request expired', 'The form was already used or is too old.');
        let client: Client;
        try {
          client = await resolveClient(ctx, pending.client_id);
        } catch {
          return htmlProblem(400, 'Unknown or invalid client', 'The client is no longer valid.');
        }
        const problem = keyRefusal(result.refused);
        return new Response(
          consentHtml({
            client,
            redirectUri: pending.redirect_uri,
            requestId: pending.id,
            csrf,
            expiresMinutes: ctx.config.mcp.consentMinutes,
            offered: offeredScopes(pending.scope),
            requested: pending.scope,
            chosen: choice,
            problem,
          }),
          { status: 400, headers: pageHeaders(pending.redirect_uri) },
        );
      },
      {
        parse: unread,
        detail: {
          requestBody: AUTHORIZE_FORM,
          ...doc({
            summary: 'Approve or deny on the authorization page',
            description:
              "The consent form (application/x-www-form-urlencoded): request_id, csrf_token (also the cookie), decision=approve|deny, api_key (the board key, checked and never stored), access=read|write (read when left out), toolset_<name>=on per toolset. Approved: 302 to the client with code, state and iss, and a cookie by which this browser trusts that client's redirect URI from then on (see GET /authorize). Denied: 302 with error=access_denied (the person chose it on the page that showed where it goes).",
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              302: redirectAnswer('Back to the client with code and state (approved) or error=access_denied (denied).'),
              400: mediaAnswer(
                'text/html',
                'A refused key or no toolset ticked (the page again, with the problem), a form that is not form-encoded or too large, or one that expired or was already used.',
              ),
              403: mediaAnswer('text/html', 'The CSRF token does not match the request or the cookie.'),
              408: mediaAnswer('text/html', `A page saying so: ${SLOW_BODY}`),
            },
          }),
        },
      },
    );
};
