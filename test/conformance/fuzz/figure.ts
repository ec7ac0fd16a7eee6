// What a schema-valid request earns: the fuzzer's figure. A request built only from what
// /openapi.json says must be accepted (2xx) or refused for the service's state or the caller's
// permission, never for its shape: a shape refusal means the description let through a body, a
// query or a header the server then refuses, so a client that follows the description fails.
//
// The classes are by error code, not by status (400 holds both shape codes and state codes such as
// NAME_TAKEN). A code the lists below do not know counts as a shape refusal until someone sorts it.
import type { Answer } from './check.ts';

/**
 * Refusals of the request's form: types, lengths, required and unknown members, patterns,
 * exclusive members, headers and the parameters' ranges. Each is a rule the description can say.
 */
export const SHAPE_CODES = new Set([
  'PROTOCOL_REQUIRED',
  'JSON_REQUIRED',
  'INVALID_JSON',
  'INVALID_REQUEST',
  'INVALID_LIMIT',
  'INVALID_CURSOR',
  'IDEMPOTENCY_KEY_REQUIRED',
  'INVALID_IDEMPOTENCY_KEY',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_NAME',
  'INVALID_TOPIC',
  'INVALID_TIMEOUT',
  'INVALID_WINDOW',
  'INVALID_SINCE',
  'INVALID_WORKING_STATE',
  'MOTIVE_REQUIRED',
  'EVIDENCE_REQUIRED',
  'LAB_TOO_LARGE',
  'LAB_BAD_PATH',
  'LAB_INVALID',
  'PUBS_KEY_REQUIRED',
  'PUBS_KEY_MISMATCH',
  'PUBS_SCHEMA_VERSION',
  'PUBS_INVALID_ENVELOPE',
  'PUBS_TOO_LARGE',
  'UPLOAD_TOO_LARGE',
  'UPLOAD_PART_TOO_LARGE',
  'UPLOAD_INVALID_DATA',
  'OUTREACH_INVALID_EMAIL',
  'OUTREACH_TEXT_INVALID',
  'USE_SHOW_LANE',
]);

/**
 * Refusals that read the meaning of free text (price talk, secrets, a topic's required lines, a
 * site's code, an address's provider): rules on content that no JSON Schema can state, applied to
 * text the generator wrote at random. Counted apart, never as accepted.
 */
export const CONTENT_CODES = new Set([
  'SECRET_LIKE',
  'PRICE_TALK',
  'SELF_PITCH',
  'INVALID_PUBLIC_STATUS',
  'EXPERIMENT_FIELDS_REQUIRED',
  'INVALID_CHANNEL',
  'TARGET_MUST_BE_EXTERNAL',
  'REQUEST_FIELDS_REQUIRED',
  'INVALID_RESOURCE',
  'PAYBACK_REQUIRED',
  'PAYBACK_BELOW_2',
  'DELIVERY_LINK_REQUIRED',
  'LAB_WALLET_CODE',
  'LAB_EXTERNAL_SCRIPT',
  'LAB_EXTERNAL_REDIRECT',
  'LAB_CREDIT_TAMPER',
  'LAB_PRICE_TALK',
  'LAB_SELF_PITCH',
  'LAB_BAD_TYPE',
  'SHOW_TITLE_REQUIRED',
  'SHOW_INVALID',
  'SHOW_TOKEN_RANKING',
  'PUBS_SVG_REFUSED',
  'OUTREACH_CONTENT_REFUSED',
  'OUTREACH_FREE_MAIL',
  'OUTREACH_BLOCKED_DOMAIN',
  'OUTREACH_ROLE_ADDRESS',
  'OUTREACH_SOURCE_DOMAIN',
  'OUTREACH_SOURCE_NOT_PUBLIC',
  'OUTREACH_SOURCE_UNREACHABLE',
  'OUTREACH_SOURCE_NO_ADDRESS',
  'OUTREACH_LINKS',
]);

/**
 * Refusals that depend on what exists or who asks: the key, the role, the object (absent, not
 * yours, in another state, gone), a name already taken, a limit reached, a feature not set up.
 * Besides these, every 401, 403, 404, 409, 410, 429 and 503 is one.
 */
export const STATE_CODES = new Set([
  'NAME_TAKEN',
  'INVALID_REPLY_TO',
  'NOT_EDITABLE',
  'NOT_A_ROOT',
  'EVIDENCE_NOT_FOUND',
  'RESULT_TOO_EARLY',
  'LABEL_OUT_OF_ORDER',
  'UPLOAD_BYTES_EXCEEDED',
  'UPLOAD_HASH_MISMATCH',
  'UPLOAD_ENVELOPE_INVALID',
  'GUEST_CHALLENGE_REQUIRED',
  'GUEST_CHALLENGE_INVALID',
  'GUEST_CHALLENGE_EXPIRED',
  'OUTREACH_NOT_YOUR_EXPERIMENT',
  'PASSKEY_CHALLENGE_SPENT',
]);
const STATE_STATUSES = new Set([401, 403, 404, 409, 410, 429, 503]);

/**
 * Two codes the spec gives both kinds of refusal (01 "Errors"): which one an answer is, its
 * details.reason says. A cursor is opaque (docs/decisions.md#paging-and-time): a token this feed
 * did not hand out (malformed to the service, another feed's, not a position in your inbox) is refused for what exists, like an
 * unknown id; only sending two cursors, or a cursor that is not a string, is a shape. A since that
 * is an id the feed never listed is state; a malformed time is a shape.
 */
function stateByReason(code: string, reason: unknown): boolean {
  const r = typeof reason === 'string' ? reason : '';
  if (code === 'INVALID_CURSOR') return !/never both|must be a cursor string/.test(r);
  if (code === 'INVALID_SINCE') return r === 'id_not_in_feed';
  return false;
}

/**
 * OAuth 2.1 errors (RFC 6749 §5.2, RFC 8707): the request's form (invalid_request,
 * unsupported_grant_type, unsupported_response_type, invalid_scope) or what exists
 * (invalid_grant, invalid_client, unauthorized_client, access_denied, invalid_target: a resource
 * this server does not serve).
 */
const OAUTH_SHAPE = new Set([
  'oauth:invalid_request',
  'oauth:unsupported_grant_type',
  'oauth:unsupported_response_type',
  'oauth:invalid_scope',
  'oauth:invalid_target',
]);

/**
 * The OAuth authorization server's endpoints (src/mcp): their refusals follow RFC 6749 (an HTML
 * page for /authorize, {error} for /token and /revoke), not the svc envelope, and what they take is
 * bound to a registered client and a grant in progress. Their figure is printed on its own line and
 * does not count toward the 99 %: they were changed in another branch this round (issue 36 §3),
 * and their description is that work's to complete.
 */
export const OAUTH_OPERATIONS = new Set(['GET /authorize', 'POST /authorize', 'POST /token', 'POST /revoke', 'POST /register']);

export type Outcome = 'accepted' | 'state' | 'content' | 'shape';

/** The error code of an answer, or the status when it carries none (an HTML page, an OAuth error). */
export function codeOf(a: Answer): { code: string; reason?: unknown } {
  try {
    const j = JSON.parse(a.text) as { error?: { code?: unknown; details?: { reason?: unknown } } | string };
    if (j && typeof j.error === 'object' && typeof j.error.code === 'string') return { code: j.error.code, reason: j.error.details?.reason };
    if (j && typeof j.error === 'string') return { code: `oauth:${j.error}` };
  } catch {}
  return { code: `status ${a.status}` };
}

export function classify(a: Answer): { outcome: Outcome; code: string } {
  if (a.status < 400) return { outcome: 'accepted', code: String(a.status) };
  const { code, reason } = codeOf(a);
  if (stateByReason(code, reason)) return { outcome: 'state', code };
  // A bearer challenge (RFC 6750 §3.1: 401 with error invalid_request when no token came) is permission.
  if (code.startsWith('oauth:')) return { outcome: OAUTH_SHAPE.has(code) && a.status === 400 ? 'shape' : 'state', code };
  if (SHAPE_CODES.has(code)) return { outcome: 'shape', code };
  if (CONTENT_CODES.has(code)) return { outcome: 'content', code };
  if (STATE_CODES.has(code) || STATE_STATUSES.has(a.status)) return { outcome: 'state', code };
  return { outcome: 'shape', code };
}

/** The tally over valid requests, with each shape refusal's operation and code for the print. */
export class Figure {
  counts: Record<Outcome, number> = { accepted: 0, state: 0, content: 0, shape: 0 };
  shapes = new Map<string, { n: number; example: string }>();
  add(op: string, a: Answer, request: string): void {
    const { outcome, code } = classify(a);
    this.counts[outcome]++;
    if (outcome !== 'shape') return;
    const key = `${op} → ${a.status} ${code}`;
    const seen = this.shapes.get(key);
    if (seen) seen.n++;
    else this.shapes.set(key, { n: 1, example: `${request}\n    answer: ${a.text.slice(0, 400)}` });
  }
  get generated(): number {
    return this.counts.accepted + this.counts.state + this.counts.content + this.counts.shape;
  }
  /** Share of valid requests not refused for their shape, in percent. */
  get percent(): number {
    return this.generated === 0 ? 100 : (100 * (this.generated - this.counts.shape)) / this.generated;
  }
  report(label = 'fuzz figure'): string {
    const c = this.counts;
    const head = `${label}: ${this.generated} schema-valid requests: ${c.accepted} accepted, ${c.state} refused by state/permission, ${c.content} refused by a content rule, ${c.shape} refused for shape → ${this.percent.toFixed(2)} % not refused for shape`;
    const lines = [...this.shapes].sort((a, b) => b[1].n - a[1].n).map(([k, v]) => `  ${v.n}× ${k}\n    e.g. ${v.example.replace(/\n/g, '\n    ')}`);
    return [head, ...lines].join('\n');
  }
}
