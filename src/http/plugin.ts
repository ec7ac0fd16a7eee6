// The HTTP conventions every route shares: route-family guards, CORS and edge limits before
// routing, the agent JSON body parser, and one error handler that answers every failure with the
// spec's envelope (validation, unknown routes, wrong methods and internal faults included).
import type { Server } from 'bun';
import { Elysia } from 'elysia';
import type { AppContext } from '../context.ts';
import { foreignCharset, readJsonObject } from './body.ts';
import { clientAddress } from './client.ts';
import { CORS_HEADERS, preflight } from './cors.ts';
import { ApiError, envelope, fail, retryError } from './errors.ts';
import { pathOf, routeFamily } from './families.ts';
import { guardAgentRequest, guardKeylessRead } from './guard.ts';
import { answeredIn, arrivalOf, requestAnswered, requestArrived } from './metrics.ts';
import { MethodIndex } from './methods.ts';
import { type DocumentCache, publicCache } from './public-cache.ts';
import { memberGuard } from './members.ts';
import { issuesToError } from './schema.ts';

function queryOf(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  const at = url.indexOf('?');
  if (at < 0) return query;
  for (const [key, value] of new URLSearchParams(url.slice(at + 1))) {
    const prior = query[key];
    query[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return query;
}

const LAB_PUBLISH_PATH = /^\/v1\/lab\/pages\/[^/]+$/;
export const LAB_PUBLISH_BYTES = 4 * 1024 * 1024;
// An article carries up to 8 svg sources of 64 KB besides 40,000 characters of text.
const PUBS_SUBMIT_PATH = /^\/v1\/pubs\/posts(\/[^/]+\/revisions)?$/;
/**
 * An article's serialized budget, from its own limits: every svg source at its maximum with each
 * byte JSON-escaped (2 bytes), every character of text written as a surrogate pair of \\uXXXX
 * escapes (12 bytes), and 64 KB for the rest of the envelope. A valid article always fits; the
 * route then enforces the decoded limits (PUBS_TOO_LARGE).
 */
export const pubsSubmitBytes = (p: { svgMaxPerArticle: number; svgMaxBytes: number; maxChars: number }): number =>
  p.svgMaxPerArticle * p.svgMaxBytes * 2 + p.maxChars * 12 + 64 * 1024;
const UPLOAD_PART_PATH = /^\/v1\/pubs\/uploads\/[^/]+\/parts$/;
// The mirror's ingest relays a page of the outside network as it comes (issue 36): 100 complete v2
// posts and their users are ~450 KB, so 64 KB would refuse an ordinary page. 2 MB leaves room for
// long posts (note_tweet) and members the network adds later.
const EXT_INGEST_PATH = '/v1/ext/ingest';
export const EXT_INGEST_BYTES = 2 * 1024 * 1024;
/** An upload part's serialized budget: its decoded limit as base64, plus room for the JSON around it. */
export const uploadPartRequestBytes = (partMaxBytes: number): number => Math.ceil(partMaxBytes / 3) * 4 + 1024;

// Every answer names its request: a caller quotes X-Request-Id, and the server's log lines carry it.
const requestIds = new WeakMap<Request, string>();
const CLIENT_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** The request's id: the caller's own X-Request-Id when it is a sane token, else a fresh uuid. */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    id = newRequestId(request);
    requestIds.set(request, id);
  }
  return id;
}

/** requestIdOf without remembering it: for an answer made at once, where nothing asks again. */
function newRequestId(request: Request, headers: Headers = request.headers): string {
  const sent = headers.get('x-request-id');
  return sent && CLIENT_ID.test(sent) ? sent : crypto.randomUUID();
}

// RFC 6750: a 401 names the scheme; with a key that was sent and refused, also invalid_token.
function wwwAuthenticate(err: ApiError): string {
  return err.details?.reason === 'missing_key' ? 'Bearer realm="svc"' : 'Bearer realm="svc", error="invalid_token"';
}

/**
 * INVALID_REQUEST always carries details.fields[] (docs/conventions.md), whichever check raised
 * it: a refusal that names one field and a reason gets that field as the list's one entry.
 */
function detailsOf(err: ApiError): Record<string, unknown> | undefined {
  const d = err.details;
  if (err.code !== 'INVALID_REQUEST' || Array.isArray(d?.fields)) return d;
  const field = typeof d?.field === 'string' ? d.field : 'request';
  const message = typeof d?.reason === 'string' ? d.reason : err.message;
  return { ...d, fields: [{ field, in: typeof d?.in === 'string' ? d.in : 'request', problem: 'invalid', message }] };
}

/** A browser asking for a page (GET, HTML accepted) outside the JSON families. */
const wantsPage = (request: Request, family: string): boolean =>
  (family === 'page' || family === 'other') &&
  (request.method === 'GET' || request.method === 'HEAD') &&
  /\btext\/html\b/i.test(request.headers.get('accept') ?? '');

function errorResponse(ctx: AppContext, err: ApiError, family: string, request: Request): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': requestIdOf(request),
    ...err.headers,
  };
  if (err.code === 'UNAUTHORIZED') headers['www-authenticate'] = wwwAuthenticate(err);
  if (family === 'public' || family === 'guest' || family === 'oauth') Object.assign(headers, CORS_HEADERS);
  return new Response(JSON.stringify(envelope(ctx.config.baseUrl, err.code, err.message, detailsOf(err))), { status: err.status, headers });
}

/** Re-runs a failed standard schema to read its issues with their real paths. */
function validationError(error: unknown): ApiError {
  const e = error as { type?: string; value?: unknown; validator?: { schema?: { '~standard'?: { validate(v: unknown): unknown } } } };
  const where = e.type ?? 'request';
  const std = e.validator?.schema?.['~standard'];
  const result = std?.validate(e.value) as { issues?: { message: string }[] } | undefined;
  if (result && !(result instanceof Promise) && result.issues?.length) return issuesToError(where, result.issues);
  return new ApiError('INVALID_REQUEST', { in: where });
}

/** The Content-Type's media type, lower-cased, without parameters ('' when absent). */
const mediaTypeOf = (request: Request): string => (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** A JSON body declared in a charset other than UTF-8 is 415, never read as UTF-8 (body.ts). */
function refuseForeignCharset(request: Request): void {
  const charset = foreignCharset(request.headers.get('content-type'));
  if (charset !== null) {
    fail('UNSUPPORTED_MEDIA_TYPE', {
      expected: 'application/json; charset=utf-8',
      got: request.headers.get('content-type'),
      reason: `the body is declared as ${charset}: svc reads JSON in UTF-8 only (RFC 8259)`,
    });
  }
}

/** Whether the request carries a body (a declared zero length is none). */
const carriesBody = (request: Request): boolean => request.body !== null && request.headers.get('content-length') !== '0';

/**
 * One JSON line per refused request (and per answered one with SVC_LOG_REQUESTS=all). A client that
 * hung up before its answer is logged as 499 CLIENT_CLOSED_REQUEST (the common proxy convention):
 * whatever answer was made, nobody received it, and it was no fault of the service. `client` is the
 * address the limits counted (the socket's, or a trusted proxy's last X-Forwarded-For hop), left out
 * with SVC_LOG_ADDRESSES=0; `duration_ms` runs from the request's arrival to the log line.
 */
export function logRequest(request: Request, status: number, code?: string, seen: { client?: string; at?: number } = {}): void {
  if (request.signal.aborted) {
    status = 499;
    code = 'CLIENT_CLOSED_REQUEST';
  }
  const at = seen.at ?? arrivalOf(request);
  console.log(
    JSON.stringify({
      event: 'request',
      request_id: requestIdOf(request),
      method: request.method,
      path: pathOf(request.url),
      status,
      ...(code ? { code } : {}),
      ...(seen.client !== undefined ? { client: seen.client } : {}),
      ...(at !== undefined ? { duration_ms: Math.round((performance.now() - at) * 10) / 10 } : {}),
    }),
  );
}

export const httpPlugin = (ctx: AppContext, routes: () => readonly { method: string; path: string }[]) => {
  const methods = new MethodIndex(routes);
  const refuseUnknownMembers = memberGuard(routes);
  // Requests answered by onError: logged there once, with their real status.
  const answeredByError = new WeakSet<Request>();
  let documents: DocumentCache | undefined; // the public document cache, opened on first use
  // Bun's server, for the client address (server.requestIP): the hot path runs before Elysia's
  // context exists, so it keeps the one the first routed request saw (none under app.handle).
  let server: Server<unknown> | null = null;
  // Requests the hot path already counted against the read limit before it stepped aside.
  const limitCounted = new WeakSet<Request>();
  const limits = ctx.limiters.publicReads;
  const trustProxy = ctx.config.trustProxy;
  const logAll = ctx.config.logRequests === 'all';

  /**
   * A cached public document a route already served at this address, still fresh: answered here,
   * before Elysia makes a context or routes (hot-reads.ts), with what the route path does for it:
   * the read limit (and its 429), the request id, CORS and the route's headers, Age/ETag/304, the
   * request metrics and the request log. Anything else (undefined) takes the ordinary path.
   */
  const answerHot = (request: Request): Response | undefined => {
    // Each of Request's getters (method, url, headers) is a call into Bun: each is read once here,
    // and the headers only at an address a route served (test/http/hot-reads.test.ts counts them).
    if (documents === undefined || request.method !== 'GET') return;
    const hot = documents.hot;
    const slot = hot.at(request.url);
    if (slot === undefined) return;
    const headers = request.headers;
    const serving = hot.pick(slot, headers);
    if (serving === null) return;
    const at = performance.now();
    const now = ctx.clock.now();
    const family = serving.family;
    if (limits.limit > 0 && family !== 'other') {
      const retryAt = limits.take(clientOf(request), now);
      if (retryAt !== null) return refuseHere(request, limitError(retryAt, now), family, at);
    }
    const doc = hot.document(serving, now);
    if (doc === null) {
      limitCounted.add(request); // the route answers it, and must not count it twice
      return;
    }
    const answer = hot.respond(serving, doc, headers, now, logAll ? requestIdOf(request) : newRequestId(request, headers));
    answeredIn(family, answer.status, at);
    if (logAll) log(request, answer.status, undefined, at);
    return answer;
  };

  /** The socket's address, from Bun (a getpeername system call each time: the hot path's largest fixed cost). */
  const socketAddress = (request: Request): string => server?.requestIP(request)?.address ?? 'local';

  /** The client's address for the read limit: the socket's, from Bun, unless a trusted proxy's X-Forwarded-For names it. */
  const clientOf = (request: Request): string => (trustProxy ? clientAddress(request, () => socketAddress(request), true) : socketAddress(request));

  /** logRequest with the client's address as the limits see it (unless SVC_LOG_ADDRESSES=0). */
  const log = (request: Request, status: number, code?: string, at?: number): void =>
    logRequest(request, status, code, { client: ctx.config.logAddresses ? clientOf(request) : undefined, at });

  const limitError = (retryAt: number, now: number): ApiError => retryError('EDGE_RATE_LIMIT', retryAt, now, { limit: limits.limit, window_seconds: 60 });

  /** An error answered before Elysia saw the request: logged and counted as onError does. */
  const refuseHere = (request: Request, err: ApiError, family: string, at: number): Response => {
    if (ctx.config.logRequests !== 'off') log(request, err.status, err.code, at);
    answeredIn(family, err.status, at);
    return errorResponse(ctx, err, family, request);
  };

  // Strict-Transport-Security on every answer, whichever path made it (a route, an error, a hot
  // read); an immutable Response (a redirect) keeps its headers.
  const hsts = ctx.config.hsts;
  const stamp = (r: unknown) => {
    if (r instanceof Response && hsts !== null) {
      try {
        r.headers.set('strict-transport-security', hsts);
      } catch {}
    }
    return r;
  };
  const stampHsts = (r: unknown) => (r instanceof Promise ? r.then(stamp) : stamp(r));

  // Elysia calls hoc(handler, request)(request) for every request, routed by Bun or by Elysia.
  const hotFirst = (handler: (request: Request) => unknown, request: Request) => {
    const answer = answerHot(request);
    const served = answer === undefined ? handler : () => answer;
    return hsts === null ? served : (req: Request) => stampHsts(served(req));
  };

  return (
    new Elysia({ name: 'svc-http', seed: ctx })
      .wrap(hotFirst as never)
      // Hooks name the context's members they read (never the whole context): Elysia reads a
      // hook's parameters to decide what to prepare for every request, and a context passed whole
      // makes it parse the cookies and copy the headers of each one.
      .onRequest(({ request, set, server: listening }) => {
        server ??= listening;
        requestArrived(request);
        const path = pathOf(request.url);
        const family = routeFamily(request.method, path);
        if (family === 'agent') {
          guardAgentRequest(request.headers);
          return;
        }
        if (family === 'agent-read') guardKeylessRead(request.headers);
        if (family === 'oauth') {
          if (request.method === 'OPTIONS') return preflight(request, 'GET, POST, OPTIONS');
          Object.assign(set.headers, CORS_HEADERS);
          return;
        }
        // An /api/* route sends CORS `*` (01). `*` never lets a browser send or read a cookie across
        // origins, and the guest routes check the cookie, the CSRF token and the exact Origin.
        const cors = family === 'public' || family === 'guest';
        if (cors && request.method === 'OPTIONS') return preflight(request, family === 'guest' ? 'GET, POST, OPTIONS' : undefined);
        // With the limit off (0) the client address is not even looked up.
        if ((cors || family === 'health' || family === 'page' || family === 'agent-read') && limits.limit > 0 && !limitCounted.has(request)) {
          const verdict = limits.hit(clientOf(request));
          if (!verdict.ok) throw limitError(verdict.retryAt, ctx.clock.now());
        }
        // The hot path (answerHot, before Elysia) answers a document a route served here before.
        if ((family === 'public' || family === 'page' || family === 'other') && request.method === 'GET') documents ??= publicCache(ctx);
        if (cors) Object.assign(set.headers, CORS_HEADERS);
      })
      .onParse({ as: 'global' }, ({ request }) => {
        const path = pathOf(request.url);
        const family = routeFamily(request.method, path);
        if (family === 'guest') {
          // A guest write is JSON only: a form post (x-www-form-urlencoded, multipart, text/plain),
          // the kind a foreign page can send without CORS, is refused before anything is read.
          const type = mediaTypeOf(request);
          if (type !== 'application/json') fail('UNSUPPORTED_MEDIA_TYPE', { expected: 'application/json', got: type || null });
          refuseForeignCharset(request);
          return readJsonObject(request, { maxRequestBytes: ctx.config.maxRequestBytes, maxTextChars: ctx.config.maxPostChars }, ctx.config.bodyReadMs);
        }
        if (family !== 'agent') return;
        // A write's body is JSON only (01: Content-Type: application/json on calls with a body): a
        // text/plain or form body is refused unread, even when it looks like JSON. DELETE routes
        // take no body and are left as they were.
        const type = mediaTypeOf(request);
        if (request.method !== 'DELETE' && carriesBody(request)) {
          if (type !== 'application/json') fail('UNSUPPORTED_MEDIA_TYPE', { expected: 'application/json', got: type || null });
          refuseForeignCharset(request);
        }
        // A lab publish carries a whole site (2 MB of decoded files, base64 inflates it): it has a
        // larger serialized budget, and the lab route enforces its own file limits (LAB_TOO_LARGE).
        const pubsSubmit = request.method === 'POST' && PUBS_SUBMIT_PATH.test(path);
        const maxRequestBytes =
          request.method === 'PUT' && LAB_PUBLISH_PATH.test(path)
            ? LAB_PUBLISH_BYTES
            : pubsSubmit
              ? pubsSubmitBytes(ctx.config.pubs)
              : request.method === 'POST' && UPLOAD_PART_PATH.test(path)
                ? uploadPartRequestBytes(ctx.config.pubs.uploadPartMaxBytes)
                : request.method === 'POST' && path === EXT_INGEST_PATH
                  ? EXT_INGEST_BYTES
                  : ctx.config.maxRequestBytes;
        // The text budget a 413 reports is the route's own: an article's is the publication limit.
        const maxTextChars = pubsSubmit ? ctx.config.pubs.maxChars : ctx.config.maxPostChars;
        return readJsonObject(request, { maxRequestBytes, maxTextChars }, ctx.config.bodyReadMs);
      })
      // The query as sent: Elysia's parser for standard schemas splits a value at every comma and
      // parses one that looks like JSON ("q=a, b" arrived as ["a", " b"]). Each parameter keeps its
      // text; only a repeated one becomes a list, which a string schema then refuses by name.
      .onAfterHandle({ as: 'global' }, ({ request, response, set }) => {
        if (!(response instanceof Response)) set.headers['x-request-id'] = requestIdOf(request);
        else if (!response.headers.has('x-request-id')) {
          try {
            response.headers.set('x-request-id', requestIdOf(request));
          } catch {} // an immutable Response (a redirect) keeps its headers
        }
      })
      .onAfterResponse({ as: 'global' }, ({ request, responseValue, set }) => {
        // An error answer was logged where it was made (onError); set.status does not know it.
        if (answeredByError.has(request)) return;
        // A route's own Response (the OAuth endpoints, /mcp's 401, a page's 400) carries its status.
        const status = responseValue instanceof Response ? responseValue.status : typeof set.status === 'number' ? set.status : 200;
        const refused = status >= 400 || request.signal.aborted;
        if (refused ? ctx.config.logRequests !== 'off' : ctx.config.logRequests === 'all') log(request, status);
        requestAnswered(request, status);
      })
      .onTransform({ as: 'global' }, (c) => {
        const url = c.request.url;
        const query = queryOf(url);
        (c as { query: unknown }).query = query;
        refuseUnknownMembers({ request: c.request, route: c.route, body: c.body, query }, routeFamily(c.request.method, pathOf(url)));
      })
      .onError({ as: 'global' }, ({ code, error, request }) => {
        answeredByError.add(request);
        const path = pathOf(request.url);
        const family = routeFamily(request.method, path);
        let err: ApiError;
        // Errors thrown by the body parser arrive wrapped in Elysia's ParseError.
        const cause = (error as { cause?: unknown })?.cause;
        if (error instanceof ApiError) err = error;
        else if (cause instanceof ApiError) err = cause;
        else if (code === 'VALIDATION') err = validationError(error);
        else if (code === 'PARSE') err = new ApiError('INVALID_JSON', { reason: 'body could not be parsed' });
        else if (code === 'NOT_FOUND') {
          const allowed = methods.allowed(path);
          if (allowed.length && !allowed.includes(request.method)) {
            err = new ApiError('METHOD_NOT_ALLOWED', { method: request.method, allowed });
            err.headers.allow = allowed.join(', ');
          } else if (wantsPage(request, family)) {
            // A person's browser on an address with no page gets a page saying so, not JSON.
            if (ctx.config.logRequests !== 'off') log(request, 404, 'NOT_FOUND');
            requestAnswered(request, 404);
            const page = ctx.parts.notFoundPage();
            page.headers.set('x-request-id', requestIdOf(request));
            return page;
          } else err = new ApiError('NOT_FOUND', { path });
        } else {
          // An internal fault: logged in full for the operator, never shown to the caller.
          console.error(
            JSON.stringify({
              event: 'internal_error',
              request_id: requestIdOf(request),
              method: request.method,
              path,
              code,
              error: String((error as Error)?.stack ?? error),
            }),
          );
          err = new ApiError('INTERNAL');
        }
        if (ctx.config.logRequests !== 'off') log(request, err.status, err.code);
        requestAnswered(request, err.status);
        return errorResponse(ctx, err, family, request);
      })
  );
};

declare module '../context.ts' {
  interface Parts {
    /** The HTML page a browser gets for an address with no page (the pages domain draws it). */
    notFoundPage(): Response;
  }
}
