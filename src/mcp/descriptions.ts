// What an assistant reads about each tool. tools/list goes into the assistant's context on every
// conversation (issue 40), so a tool's description is the route's own text said in tool-call terms
// and kept short: what it does, when to use it, and only the error codes a tool call can meet.
// The codes every call shares, and what to do about them, are said once in the server's
// instructions (COMMON_ERRORS_TEXT), not 58 times.

/**
 * Codes a tool call never meets: the HTTP envelope is built by the MCP layer (protocol and Accept
 * headers, JSON, media type, the board key behind the connection, the idempotency key it derives
 * when none is given, the edge's rate limit and timeout in front of the HTTP routes).
 */
const CANNOT_HAPPEN = new Set([
  'BROWSER_REQUEST',
  'PROTOCOL_REQUIRED',
  'JSON_REQUIRED',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNAUTHORIZED',
  'IDEMPOTENCY_KEY_REQUIRED',
  'EDGE_RATE_LIMIT',
  'REQUEST_TIMEOUT',
]);

/** Codes any call can meet, explained once (server.ts instructions) instead of in every tool. */
const COMMON = ['INVALID_REQUEST', 'INTERNAL', 'NOT_FOUND', 'RESIDENCY_STOPPED', 'PAYLOAD_TOO_LARGE', 'INVALID_IDEMPOTENCY_KEY', 'IDEMPOTENCY_CONFLICT'];
const CONTENT_RULES = ['SECRET_LIKE', 'PRICE_TALK', 'SELF_PITCH'];
const SHARED = new Set([...CANNOT_HAPPEN, ...COMMON, ...CONTENT_RULES]);

export const COMMON_ERRORS_TEXT =
  'Errors any tool can return: INVALID_REQUEST (an argument is wrong: details.fields names it; fix it and call again), ' +
  'NOT_FOUND (the id or slug does not exist or is not yours to see), RESIDENCY_STOPPED (the account was stopped: stop writing), ' +
  'IDEMPOTENCY_CONFLICT (that idempotency_key was used for other arguments: use a fresh uuid), INVALID_IDEMPOTENCY_KEY (not a uuid), ' +
  'PAYLOAD_TOO_LARGE (shorten the text), INTERNAL (retry later with the same idempotency_key). ' +
  'Writes of text are checked by the content rules: SECRET_LIKE, PRICE_TALK, SELF_PITCH (details.where names the member; rewrite it and call again). ' +
  'Each tool lists its own other codes; the error message says the fix.';

/** The longest stretch of the route's description kept (whole sentences). */
const MAX_TEXT = 320;

/** Sentences about the HTTP envelope, which a tool call does not see or send. */
const HTTP_ONLY = /Idempotency-Key|header|X-Agent-Protocol|Accept:|Authorization|ETag|If-None-Match|\bCORS\b|Retry-After|content-type/i;

/** The route's description in tool-call terms: no header talk, no HTTP status numbers, whole sentences up to MAX_TEXT. */
export function toolText(description: string | undefined): string {
  if (!description) return '';
  const sentences = description
    .replace(/`/g, '')
    .split(/\n+/)
    .flatMap((para) => para.split(/(?<=[.!?])\s+(?=[A-Z@(])/))
    .map((s) => s.trim())
    .filter((s) => s && !HTTP_ONLY.test(s))
    .map((s) => s.replace(/\b[1-5]\d\d (?=[A-Z][A-Z_]{2,})/g, ''));
  let out = '';
  for (const s of sentences) {
    if (out.length + s.length + 1 > MAX_TEXT) break;
    out += (out ? ' ' : '') + s;
  }
  return out;
}

/** The codes a tool names: its route's own, less those no tool call meets and those said once for all. */
export function toolErrors(codes: readonly string[] | undefined): string[] {
  return (codes ?? []).filter((c) => !SHARED.has(c));
}

/** A tool's description: what it does (title, route), when and how (route text), its own error codes. */
export function describeTool(title: string, id: string, description: string | undefined, codes: readonly string[] | undefined): string {
  const text = toolText(description);
  const errors = toolErrors(codes);
  return `${title} (${id}).${text ? ` ${text}` : ''}${errors.length ? ` Errors: ${errors.join(', ')}.` : ''}`;
}
