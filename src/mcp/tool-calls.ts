// A tool call: its arguments made into the route's request, marked as made by the linked agent
// (src/http/auth.ts delegate), and the route's answer made into the tool result. A write without a
// key gets one derived from the call, so a retried call replays instead of writing twice.
import type { Account } from '../accounts/accounts.ts';
import { delegate } from '../http/auth.ts';
import { PROTOCOL } from '../http/families.ts';
import { canonicalJson } from '../http/idempotency.ts';
import { MAX_LISTED, unknownMemberEntry } from '../http/members.ts';
import { KEY_MEMBER, type ToolRoute } from './tools.ts';

type Json = Record<string, unknown>;

const scalar = (v: unknown): string => (Array.isArray(v) ? v.map(String).join(',') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/** A uuid-shaped key from sha256(seed, operation, canonical arguments). */
function derivedKey(seed: string, route: ToolRoute, args: Json): string {
  const h = new Bun.CryptoHasher('sha256').update(`${seed}\n${route.method} ${route.path}\n${canonicalJson(args)}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A tool call whose arguments cannot make the route's request: answered as a tool error (400) with the route's code, never dispatched. */
export class ToolArgumentError extends Error {
  constructor(
    readonly code: 'INVALID_REQUEST' | 'INVALID_IDEMPOTENCY_KEY',
    message: string,
    readonly details: Json,
  ) {
    super(message);
  }
}

/**
 * Arguments a tool does not take, when nothing would carry them to the route: a tool without a
 * body (its arguments are the route's path and query) or with its body in one member. Over HTTP
 * the route refuses an unknown query parameter; the tool refuses the argument the same way, with
 * `in: "query"` as the route would, instead of dropping it (a misspelt `limit` would read the default).
 */
function unknownArguments(names: string[], accepted: string[]): ToolArgumentError {
  const place = { container: 'an argument of this tool', none: 'it takes no argument' };
  const fields = names.slice(0, MAX_LISTED).map((name) => unknownMemberEntry('query', { at: [], name, accepted }, false, place));
  const message =
    names.length === 1
      ? `Unknown argument ${fields[0]!.field}: this tool does not take it.`
      : `${names.length} unknown arguments: this tool does not take them.`;
  return new ToolArgumentError('INVALID_REQUEST', message, { in: 'query', fields, ...(names.length > MAX_LISTED ? { unknown_count: names.length } : {}) });
}

const badPathArgument = (field: string, message: string) =>
  new ToolArgumentError('INVALID_REQUEST', message, { in: 'path', fields: [{ field, in: 'path', problem: 'invalid', message }] });

// The key travels as the Idempotency-Key header: printable ASCII, spaces and tabs (trimmed at the
// ends, as HTTP does for a REST client). A line break there is trimmed off the ends without a word
// or breaks the request, and a control or non-ASCII character breaks it too: the route would not
// see the key as sent. No such key is a uuid, so it is refused with the REST routes' code for one.
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

// An empty path parameter, or one that is a dot segment ('.', '..', or either with %2e: URLs resolve
// them), would address another route than the tool's (GET /v1/posts/{id} with id '.' is the feed;
// '..' climbs to routes an assistant is not given): refused before dispatch.
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The route's Request for a tool call (made on first use), marked as made by `account`, with the path, path parameters
 * and query it was made of (as the route will read them: src/mcp/dispatch.ts runs a read's handler with them).
 */
export function toolRequest(
  baseUrl: string,
  route: ToolRoute,
  args: Json,
  account: Account,
  keySeed: string,
): { request: Request; generatedKey: string | null; path: string; params: Record<string, string>; query: Record<string, string> } {
  const rest: Json = { ...args };
  // Without a key from the client, the key is derived from the connection, the tool and its exact
  // arguments: a retried call (the same call sent again after a lost answer) is the same write and
  // replays; a call with other arguments is another write.
  // (Computed from the arguments as the tool received them, before the path and query are taken out; reads need none.)
  const derived = route.headerKey === 'lookup' || (!route.headerKey && !route.bodyKey) ? '' : derivedKey(keySeed, route, args);
  let path = route.path;
  const params: Record<string, string> = {};
  for (const p of route.pathParams) {
    const v = rest[p];
    delete rest[p];
    const value = v === undefined || v === null ? '' : scalar(v);
    if (value.trim() === '') throw badPathArgument(p, `${p} is required: it names the object in the route's path.`);
    const segment = encodeURIComponent(value);
    if (DOT_SEGMENT.test(segment)) throw badPathArgument(p, `${p} may not be '.' or '..': send the id of the object.`);
    path = path.replace(`{${p}}`, segment);
    params[p] = value;
  }
  let query: URLSearchParams | undefined;
  const queryValues: Record<string, string> = {};
  for (const q of route.queryParams) {
    const v = rest[q];
    delete rest[q];
    if (v === undefined || v === null) continue;
    query ??= new URLSearchParams();
    const value = scalar(v);
    query.set(q, value);
    queryValues[q] = value;
  }
  const headers: Record<string, string> = { 'x-agent-protocol': PROTOCOL, accept: 'application/json', 'content-type': 'application/json' };
  let generatedKey: string | null = null;
  if (route.headerKey) {
    const given = rest[KEY_MEMBER];
    delete rest[KEY_MEMBER];
    if (given !== undefined && given !== null) {
      const key = scalar(given);
      if (!HEADER_SAFE.test(key)) {
        throw new ToolArgumentError(
          'INVALID_IDEMPOTENCY_KEY',
          `${KEY_MEMBER} is not a uuid: it holds a line break, a control character or a non-ASCII character.`,
          {
            field: KEY_MEMBER,
            example: crypto.randomUUID(),
          },
        );
      }
      headers['idempotency-key'] = key;
    } else if (route.headerKey !== 'lookup') {
      generatedKey = derived;
      headers['idempotency-key'] = generatedKey;
    }
  }
  // What is left is the body's members; without a body (or with it in one member) it is nothing.
  if (!route.hasBody || route.nestedBody) {
    const left = Object.keys(rest).filter((k) => k !== route.nestedBody);
    if (left.length) {
      const accepted = [...route.pathParams, ...route.queryParams, ...(route.headerKey ? [KEY_MEMBER] : []), ...(route.nestedBody ? [route.nestedBody] : [])];
      throw unknownArguments(left, accepted);
    }
  }
  let body: Json | undefined;
  if (route.hasBody) {
    body = route.nestedBody ? ((rest[route.nestedBody] as Json | undefined) ?? {}) : rest;
    if (route.bodyKey && (body[KEY_MEMBER] === undefined || body[KEY_MEMBER] === null)) {
      generatedKey = derived;
      body = { ...body, [KEY_MEMBER]: generatedKey };
    }
  }
  const qs = query?.toString();
  const url = `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  const init: RequestInit = { method: route.method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
  // Made when first asked for: a read run in-process (dispatch.ts) whose handler never reads its
  // request does without it. The body is serialized now, so a bad argument fails the call here.
  let request: Request | undefined;
  return {
    get request() {
      request ??= delegate(new Request(url, init), account);
      return request;
    },
    generatedKey,
    path,
    params,
    query: queryValues,
  };
}

const isJsonType = (type: string | null) => (type ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';

/** A refused call as a tool result (JSON text): the envelope's code, message and details, and the HTTP status. */
export function toolErrorJson(status: number, error: { code: string; message: string; details?: unknown }, meta?: Json): string {
  const structured = { error, status };
  return JSON.stringify({
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(meta ? { _meta: meta } : {}),
  });
}

/**
 * A route's answer as a tool result, as JSON text: its JSON (structured and as text), or a tool
 * error with the envelope's code, message and details. A JSON object answer is spliced in as the
 * route wrote it (structuredContent) and once as an escaped string (the text block MCP asks for
 * beside it): it is never parsed and serialized again.
 */
export async function toolResultJson(response: Response, generatedKey: string | null): Promise<string> {
  return toolResultOf(
    {
      status: response.status,
      text: await response.text(),
      contentType: response.headers.get('content-type'),
      replayed: response.headers.get('idempotent-replayed') === 'true',
    },
    generatedKey,
  );
}

/** What a route answered, as a tool result reads it. */
export interface RouteAnswer {
  status: number;
  text: string;
  contentType: string | null;
  /** The answer is an idempotent replay (Idempotent-Replayed: true). */
  replayed: boolean;
}

/** toolResultJson of an answer already read (a route's Response, or a read's handler run in-process). */
export function toolResultOf(answer: RouteAnswer, generatedKey: string | null): string {
  const { status, text } = answer;
  const meta: Json = { status, ...(generatedKey ? { idempotency_key: generatedKey } : {}) };
  if (answer.replayed) meta.replayed = true;
  if (status >= 400) {
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {}
    const error = (json as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    return toolErrorJson(
      status,
      {
        code: error?.code ?? 'HTTP_ERROR',
        message: error?.message ?? text.slice(0, 500),
        ...(error?.details !== undefined ? { details: error.details } : {}),
      },
      meta,
    );
  }
  // The service's JSON routes write their answers with JSON.stringify: an object answer is valid JSON as it stands.
  const structured = isJsonType(answer.contentType) && /^\s*\{/.test(text) ? `"structuredContent":${text},` : '';
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],${structured}"_meta":${JSON.stringify(meta)}}`;
}
