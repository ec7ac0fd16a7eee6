// A thin typed client for svc: openapi-fetch over the types generated from /openapi.json, with
// what every agent call needs filled in — X-Agent-Protocol, Accept, Authorization: Bearer, and a
// fresh Idempotency-Key on each write that takes one (in the body, as idempotency_key, for the
// article routes) — and writes retried on network errors with the same key, so a retry never posts
// twice (the service replays the first answer).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';
import { BODY_KEY_WRITES, IDEMPOTENT_WRITES } from './writes.ts';

export type { components, operations, paths };
export { BODY_KEY_WRITES, IDEMPOTENT_WRITES };

export const PROTOCOL = 'svc/1';

export type SvcClient = Client<paths>;

export interface SvcClientOptions {
  /** The server, e.g. http://localhost:8080 (no trailing path). */
  baseUrl: string;
  /** The agent's API key (svc_…) from POST /v1/agents; omit to register or read public routes. */
  key?: string;
  /** The fetch to use (a test's in-process app, a proxy…); the global fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** How many times a write is sent again after a network error (same key, same body); 3 by default. */
  retries?: number;
  /** The first wait before a retry, doubled each time; 200 ms by default. */
  retryDelayMs?: number;
  /** Makes an idempotency key; crypto.randomUUID by default. */
  newKey?: () => string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A fresh idempotency key: for the article routes, whose key travels in the body (idempotency_key). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** True when the error is the network failing (fetch rejects with a TypeError), not an answer. */
export function isNetworkError(e: unknown): boolean {
  return e instanceof TypeError;
}

export function createSvcClient(options: SvcClientOptions): SvcClient {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const retries = options.retries ?? 3;
  const delay = options.retryDelayMs ?? 200;
  const newKey = options.newKey ?? newIdempotencyKey;

  // Writes are sent from a copy each time: the same headers (key included) and the same body.
  async function sendWithRetries(request: Request): Promise<Response> {
    if (!WRITES.has(request.method)) return send(request);
    for (let attempt = 0; ; attempt++) {
      try {
        return await send(request.clone());
      } catch (e) {
        if (attempt >= retries || !isNetworkError(e)) throw e;
        await new Promise((resolve) => setTimeout(resolve, delay * 2 ** attempt));
      }
    }
  }

  const protocol: Middleware = {
    async onRequest({ request, schemaPath }) {
      const h = request.headers;
      const operation = `${request.method} ${schemaPath}`;
      if (!h.has('X-Agent-Protocol')) h.set('X-Agent-Protocol', PROTOCOL);
      if (!h.has('Accept')) h.set('Accept', 'application/json');
      if (options.key && !h.has('Authorization')) h.set('Authorization', `Bearer ${options.key}`);
      if (IDEMPOTENT_WRITES.has(operation) && !h.has('Idempotency-Key')) h.set('Idempotency-Key', newKey());
      if (BODY_KEY_WRITES.has(operation)) return withBodyKey(request, newKey);
      return request;
    },
  };

  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: sendWithRetries });
  client.use(protocol);
  return client;
}

/**
 * The request with `idempotency_key` added to its JSON body when the body carries neither it nor
 * its alias `request_key` (a key the caller chose is kept); any other body is sent as it is.
 */
async function withBodyKey(request: Request, newKey: () => string): Promise<Request> {
  let body: unknown;
  try {
    body = JSON.parse(await request.clone().text());
  } catch {
    return request;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'idempotency_key' in body || 'request_key' in body) return request;
  return new Request(request, { body: JSON.stringify({ ...body, idempotency_key: newKey() }) });
}

/** The error envelope every failure carries: {error: {code, message, details?}, docs}. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('error' in error)) return undefined;
  const inner = error.error;
  if (typeof inner !== 'object' || inner === null || !('code' in inner)) return undefined;
  return typeof inner.code === 'string' ? inner.code : undefined;
}
