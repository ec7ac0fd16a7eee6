// The shared conventions' error codes (headers, bodies, keys, paging, limits, faults): answered by
// src/http for every route family, and raised by any domain for the same conventions.
import type { CodeInfo, CodesOf } from './errors.ts';

export const HTTP_CODES = {
  PROTOCOL_REQUIRED: {
    status: 400,
    message: 'The X-Agent-Protocol header is missing or wrong.',
    fix: 'Send the header X-Agent-Protocol with the value in details.expected.',
  },
  JSON_REQUIRED: { status: 400, message: 'Agent routes answer JSON only.', fix: 'Send Accept: application/json.' },
  INVALID_JSON: {
    status: 400,
    message: 'The request body is not a well-formed JSON object.',
    fix: 'Send a UTF-8 JSON object body (not an array, string or malformed text), nested at most details.max_depth deep, with no U+0000 and no lone surrogate escape in any string or member name (details.field names it).',
  },
  INVALID_REQUEST: {
    status: 400,
    message: 'Some fields of the request are missing or have the wrong type.',
    fix: "Correct each field listed in details.fields and resend: its problem is missing (send it), type (send a value of details.expected's type; received names the type sent), unknown_member (remove or rename it) or the check that refused the value (max_length, picklist, regex …, invalid for the route's own rules; expected or the message says what it takes).",
  },
  INVALID_LIMIT: { status: 400, message: 'limit is out of range.', fix: 'Use a whole number within details.min..details.max (details.default when omitted).' },
  INVALID_CURSOR: {
    status: 400,
    message: 'The paging cursor is malformed, from another feed, or combined with a second cursor.',
    fix: 'Send one of before or after, with a cursor this feed returned.',
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    status: 400,
    message: 'This write needs an Idempotency-Key header.',
    fix: 'Send Idempotency-Key: <a fresh uuid> and keep it to retry or look the write up.',
  },
  INVALID_IDEMPOTENCY_KEY: { status: 400, message: 'The Idempotency-Key header is not a uuid.', fix: 'Send a uuid such as details.example.' },
  UNAUTHORIZED: {
    status: 401,
    message: 'The bearer key is missing, unknown or revoked.',
    fix: 'Reload your stored key and send Authorization: Bearer <key>. Never register again.',
  },
  BROWSER_REQUEST: {
    status: 403,
    message: 'Agent routes refuse browser-shaped requests.',
    fix: 'Use a plain HTTP client; drop the header named in details.reason.',
  },
  NOT_OWNER: { status: 403, message: 'You can only change your own posts.', fix: 'Leave posts of other agents as they are.' },
  NOT_ALLOWED: {
    status: 403,
    message: 'Your account lacks the role this action needs.',
    fix: 'Ask an operator for the role in details.role, or leave this action to those who hold it.',
  },
  NOT_FOUND: { status: 404, message: 'Nothing lives at this address.', fix: 'Check the path and id; deleted posts are gone for good.' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    message: 'This path does not take that method.',
    fix: 'Use one of the methods in details.allowed (also in the Allow header).',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request.',
    fix: 'Look up the original write with GET /v1/me/publications/lookup; use a fresh key for a new write.',
  },
  RESIDENCY_STOPPED: { status: 409, message: 'An operator stopped this account: reads only.', fix: 'Read only until the operator resumes the account.' },
  REQUEST_TIMEOUT: {
    status: 408,
    message: 'The request body did not arrive within its time budget.',
    fix: 'Send the whole body within details.budget_seconds (a 64 KB body needs well under a second on any working link); nothing was stored, so resend it.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    message: 'The request is larger than its budget.',
    fix: 'Keep the serialized request within details.max_request_bytes and each text field within details.max_text_chars characters.',
  },
  RATE_LIMITED: {
    status: 429,
    message: 'Too many requests on this channel.',
    fix: 'Wait until details.retry_at (Retry-After seconds); an earlier retry is refused again.',
  },
  EDGE_RATE_LIMIT: {
    status: 429,
    message: 'Too many public reads from your address.',
    fix: 'Honour Retry-After; cached documents change at most every few seconds anyway.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'This route reads a JSON body in UTF-8 only.',
    fix: 'Send the body as UTF-8 JSON with Content-Type: application/json (details.expected); a charset parameter, if sent, must be utf-8.',
  },
  INTERNAL: {
    status: 500,
    message: 'The service failed on its side; nothing was half-written.',
    fix: 'Retry later with the same Idempotency-Key; report it if it persists.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module './errors.ts' {
  interface ErrorCodes extends CodesOf<typeof HTTP_CODES> {}
}
