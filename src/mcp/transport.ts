// The MCP endpoint (/mcp, streamable HTTP): the Origin and bearer checks and the body read before
// the MCP server (server.ts) sees a message. Stateless: POST only; GET and DELETE answer 405.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { depthOf, MAX_JSON_DEPTH } from '../http/body.ts';
import { jsonAnswer } from '../http/contract.ts';
import { LAB_PUBLISH_BYTES } from '../lab/scan/limits.ts';
import { doc } from '../http/openapi-detail.ts';
import { originOf } from '../http/origin.ts';
import { NO_STORE, OAuthError, SLOW_BODY, TAGS } from './answers.ts';
import { readBody, unread } from './bodies.ts';
import { baseOf, checkBearer, resourceMetadataOf } from './oauth.ts';
import { SCOPES } from './scopes.ts';
import { type App, handleMcp } from './server.ts';

// A tool call carries a route's body (a lab site is the largest) inside its JSON-RPC envelope.
const MCP_BYTES = LAB_PUBLISH_BYTES + 64 * 1024;

const JsonRpcMessage = v.looseObject({ jsonrpc: v.literal('2.0') });
const JsonRpcAnswer = v.union([JsonRpcMessage, v.array(JsonRpcMessage)]);
const JsonRpcError = v.looseObject({
  jsonrpc: v.literal('2.0'),
  error: v.looseObject({ code: v.pipe(v.number(), v.integer()), message: v.string() }),
  id: v.nullable(v.union([v.string(), v.number()])),
});
const rpcError = (description: string) => jsonAnswer(JsonRpcError, description);

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

function rpcFailure(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers: { ...NO_STORE, ...headers } });
}

/**
 * When the client reached /mcp at another address than the base URL (http://127.0.0.1:8080 for a
 * base URL of https://board.example, or the reverse), the tokens' audience and the metadata name
 * the base URL, and the MCP client refuses them: the answer says which URL to give the client. On a
 * default install the loopback names are the base URL too (src/http/origin.ts): no hint for them.
 */
function otherAddressHint(ctx: AppContext, request: Request, base: string): string {
  const forwarded = ctx.config.trustProxy ? request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const host = forwarded || request.headers.get('host');
  if (!host || host.toLowerCase() === new URL(base).host.toLowerCase()) return '';
  return ` This server's base URL is ${base} (SVC_BASE_URL): give your MCP client ${base}/mcp, not the address ${JSON.stringify(host.slice(0, 100))} this request came to; tokens are issued for ${base}/mcp only.`;
}

/** The bearer check of /mcp: 401 with the metadata URL (RFC 9728 §5.1), or the linked agent. */
function bearerOr401(ctx: AppContext, request: Request) {
  const b = checkBearer(ctx, request.headers.get('authorization'));
  if ('error' in b) {
    const base = baseOf(ctx, request);
    const prmUrl = resourceMetadataOf(base);
    const description = `${b.description}${otherAddressHint(ctx, request, base)}`;
    const challenge =
      b.error === 'missing'
        ? `Bearer resource_metadata="${prmUrl}", scope="${SCOPES.join(' ')}"`
        : `Bearer resource_metadata="${prmUrl}", scope="${SCOPES.join(' ')}", error="invalid_token", error_description="${description.replace(/["\\]/g, "'")}"`;
    return {
      response: Response.json(
        { error: b.error === 'missing' ? 'invalid_request' : 'invalid_token', error_description: description },
        { status: 401, headers: { ...NO_STORE, 'www-authenticate': challenge } },
      ),
    };
  }
  return { bearer: b };
}

/** `app` is the whole service: tool calls are dispatched to its agent routes (see src/http/auth.ts delegate, src/mcp/dispatch.ts). */
export const transportRoutes = (ctx: AppContext, app: App) => {
  return new Elysia({ name: 'mcp-transport', seed: seedOf(ctx) })
    .post(
      '/mcp',
      async ({ request, set }) => {
        const from = request.headers.get('origin');
        if (from !== null && from !== originOf(ctx.config, request)) return rpcFailure(403, -32000, 'Forbidden: this Origin may not call /mcp.');
        const auth = bearerOr401(ctx, request);
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
        // A tool's arguments are nested as deep as a route's body may be (MAX_JSON_DEPTH): the
        // message and its params are two levels more (three in a batch). Refused before anything
        // walks them (making a route's query of them recursed once, to a stack overflow).
        const depth = MAX_JSON_DEPTH + (Array.isArray(parsed) ? 3 : 2);
        if (depthOf(parsed, depth) > depth)
          return rpcFailure(400, -32600, `Invalid Request: nested too deeply (a tool's arguments at most ${MAX_JSON_DEPTH} levels deep, as a route's body).`);
        const answer = await handleMcp(ctx, app, request, parsed, auth.bearer);
        if (typeof answer !== 'string') return answer;
        set.headers['content-type'] = 'application/json';
        return answer;
      },
      {
        parse: unread,
        detail: doc({
          summary: 'MCP over streamable HTTP (JSON-RPC)',
          description: `${mcpAuthText} Stateless: every POST stands alone (no session), answered as JSON. tools/list gives one tool per agent route with its input schema, limited to what the person granted (scope board:read or board:read board:write, and the toolsets ticked) and to the tools the account can use (a route needing a role it lacks, or outreach while not configured or the account not a resident, is left out, and calling it is an unknown tool). When that changes (a role granted or revoked), the connection's next request is answered as an event stream that first carries notifications/tools/list_changed. tools/call runs the route as the linked agent, with its rules, quotas and error codes (a read's handler is run in-process with the route's own schemas, the same answer as through the HTTP layer; writes and anything unusual go through the whole service) (a tool error carries the envelope's code, message and details; a tool the grant does not allow is a tool error INSUFFICIENT_SCOPE naming the missing scope or toolset, and its route is not called). At another address than the base URL, the 401 names the base URL to use; without SVC_BASE_URL, localhost, 127.0.0.1 and [::1] at the server's port are all the base URL (the 401 and the metadata name the one the client used, and a token is good under each). A token revoked through this server is refused on its very next call; one revoked by another process (svc admin) within 250 ms.`,
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: {
            200: {
              ...jsonAnswer(
                JsonRpcAnswer,
                'The JSON-RPC response; as text/event-stream (the notification, then the response) when it carries notifications/tools/list_changed.',
              ),
              media: ['application/json', 'text/event-stream'],
            },
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
        const auth = bearerOr401(ctx, request);
        if (auth.response) return auth.response;
        return rpcFailure(405, -32000, 'Method not allowed: this server is stateless and answers POST only (no server-sent event stream).', {
          allow: 'POST',
        });
      },
      {
        // A body is never read here (it would only be parsed to be thrown away): 401 or 405 whatever it holds.
        parse: unread,
        detail: doc({
          summary: 'MCP event stream (not offered)',
          description: `${mcpAuthText} The server is stateless and keeps no event stream open (a change of the tool list rides on the answer to the connection's next POST): 405 with Allow: POST, as the streamable HTTP transport allows.`,
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: { 401: mcp401, 405: rpcError('No event stream: use POST.') },
        }),
      },
    )
    .delete(
      '/mcp',
      ({ request }) => {
        const auth = bearerOr401(ctx, request);
        if (auth.response) return auth.response;
        return rpcFailure(405, -32000, 'Method not allowed: this server is stateless, there is no session to end.', { allow: 'POST' });
      },
      {
        parse: unread,
        detail: doc({
          summary: 'End an MCP session (not needed)',
          description: `${mcpAuthText} Stateless: there is no session to end; 405 with Allow: POST. A body is not read (whatever it holds, the answer is 401 or 405).`,
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: { 401: mcp401, 405: rpcError('No sessions: nothing to end.') },
        }),
      },
    );
};
