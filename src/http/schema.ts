// Shared valibot pieces. A schema action can name the error code its failure produces (`coded`),
// so one schema both validates and picks the precise code (INVALID_LIMIT, INVALID_NAME, 413 …)
// that tells the caller how to fix the call.
import * as v from 'valibot';
import { ApiError, type Details, type ErrorCode } from './errors.ts';
import { withoutInvisible } from '../content/normalize.ts';
import { charCount } from './body.ts';

const TAG = '\u0000svc:';
const tagged = new Map<string, { code: ErrorCode; details: Details; say?: ((field: string) => string) | undefined }>();

/**
 * A valibot message that makes a failing action answer with `code` and `details`; `say`, when
 * given, words the answer's message for the field that failed (else the code's own message).
 */
export function coded(code: ErrorCode, details: Details = {}, say?: (field: string) => string): string {
  const tag = `${TAG}${tagged.size}`;
  tagged.set(tag, { code, details, say });
  return tag;
}

const SERIALIZED_BUDGET = 64 * 1024;

/**
 * A text field counted in characters (code points); over budget is a 413 with both budgets. The
 * description carries both bounds as minLength/maxLength (JSON Schema counts code points too); a
 * minimum also needs that many characters once the spaces around them are trimmed (pattern \S).
 */
export function text(opts: { max: number; min?: number; field?: string }) {
  const tooLong = coded('PAYLOAD_TOO_LARGE', { max_request_bytes: SERIALIZED_BUDGET, max_text_chars: opts.max });
  return v.pipe(
    v.string(),
    v.metadata<string, Record<string, unknown>>({ maxLength: opts.max, ...(opts.min ? { minLength: opts.min, pattern: '\\S' } : {}) }),
    // Both bounds count characters (code points) the same way: 23 emoji are 23 characters, not 46.
    // Characters a reader sees: spaces around the text and characters that render as nothing
    // (zero-width, bidi controls) do not count towards the minimum.
    ...(opts.min ? [v.check((s: string) => charCount(withoutInvisible(s).trim()) >= opts.min!, `must hold at least ${opts.min} visible characters`)] : []),
    v.check((s: string) => charCount(s) <= opts.max, tooLong),
  );
}

/**
 * How a parameter reads in the description when its valibot form (text checked and transformed)
 * says less than the truth: the description generator uses this JSON Schema as it is.
 */
export const describedAs = <T>(jsonSchema: Record<string, unknown>) => v.metadata<T, { openapi: Record<string, unknown> }>({ openapi: jsonSchema });

/** A whole-number query parameter within min..max, `def` when absent; anything else answers `code`. */
export function integerQuery(opts: { min: number; max: number; def: number; code: ErrorCode; example: number }) {
  // One message for every way it fails (not a number, a fraction, a sign, a repeat, too small or
  // too large): what the parameter takes.
  const msg = coded(
    opts.code,
    { min: opts.min, max: opts.max, default: opts.def, example: opts.example },
    (field) => `${field} must be a whole number from ${opts.min} to ${opts.max} (${opts.def} when omitted).`,
  );
  return v.optional(
    v.pipe(
      v.string(msg),
      describedAs<string>({ type: 'integer', minimum: opts.min, maximum: opts.max, default: opts.def }),
      v.regex(/^\d{1,9}$/, msg),
      v.transform(Number),
      v.minValue(opts.min, msg),
      v.maxValue(opts.max, msg),
    ),
    String(opts.def),
  );
}

/** `limit` query parameter: a whole number within min..max, `def` when absent. */
export function limitQuery(opts: { min?: number; max: number; def: number }) {
  const min = opts.min ?? 1;
  return integerQuery({ min, max: opts.max, def: opts.def, code: 'INVALID_LIMIT', example: Math.min(opts.max, Math.max(min, Math.round(opts.def / 2))) });
}

/** A uuid, any version, any case: the one pattern every id check uses. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * At most `max` characters (code points), as the description's maxLength counts them (valibot's
 * maxLength counts UTF-16 units: an emoji would count twice). Spread into a pipe after v.string().
 */
export const maxChars = (max: number, message?: string) =>
  [v.check((s: string) => charCount(s) <= max, message), v.metadata<string, Record<string, unknown>>({ maxLength: max })] as const;

/**
 * A JSON Schema if/then/else (a rule on one member that depends on another's value), for a
 * schema's metadata. Built from entries: an object literal with a `then` member reads as a thenable.
 */
export const ifThen = (cond: Record<string, unknown>, then: Record<string, unknown>, otherwise?: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries([['if', cond], ['then', then], ...(otherwise ? [['else', otherwise]] : [])]);

/** A uuid as a piece of a description's pattern (JSON Schema patterns take no flag: both cases spelled out). */
export const UUID_PIECE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** How a comma-separated list of 1..max uuids (a query parameter) reads in the description. */
export const uuidListPattern = (max: number) => `^${UUID_PIECE}(?:,${UUID_PIECE}){0,${max - 1}}$`;

/** A uuid field: checked by the one pattern, described as format uuid. */
export const uuidField = (message: string = 'must be a uuid') =>
  v.pipe(v.string(), describedAs<string>({ type: 'string', format: 'uuid' }), v.regex(UUID_PATTERN, message));

export const uuidString = uuidField();

interface Issue {
  message: string;
  type?: string;
  expected?: string | null;
  received?: string;
  input?: unknown;
  path?: readonly { key: unknown }[];
}

const fieldName = (issue: Issue): string =>
  (issue.path ?? [])
    .map((p) => (typeof p.key === 'number' ? `[${p.key}]` : String(p.key)))
    .join('.')
    .replace(/\.\[/g, '[');

/** A missing member of any object schema (object, loose, strict): valibot's issue is the object's, its expected the quoted key. */
const isMissing = (issue: Issue): boolean =>
  issue.received === 'undefined' && (issue.type?.endsWith('object') ?? false) && (issue.expected?.startsWith('"') ?? false);

/** A strict object's own word on a member it does not list. */
const isUnknownKey = (issue: Issue): boolean => issue.type === 'strict_object' && issue.expected === 'never';

/** The JSON types a schema of that name takes: an issue of one of them, about a value that was sent, is a value of another type. */
const JSON_TYPES = new Set(['string', 'number', 'boolean', 'array', 'object', 'strict_object', 'loose_object', 'null']);

/** A type as valibot names it, as JSON does: its Array and Object are array and object. */
const jsonTypeName = (t: string): string => t.replace(/\bArray\b/g, 'array').replace(/\bObject\b/g, 'object');

/** The JSON type of a value sent (never the value itself). */
const jsonType = (x: unknown): string => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x === 'object' ? 'object' : typeof x);

/** The same in words for a message: "a number", "an array", "null", "nothing". */
const kindOf = (x: unknown): string => {
  if (x === undefined) return 'nothing';
  const t = jsonType(x);
  return t === 'null' ? t : `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`;
};

/**
 * One details.fields[] entry's `problem` (docs/conventions.md, "Errors"): `missing` (a required
 * member was not sent), `type` (a value of another JSON type: `expected` names the type taken,
 * `received` the type sent), or the name of the check that refused the value (`max_length`,
 * `picklist`, `regex`, `min_value` …, with `expected` saying what it takes).
 */
function problemOf(issue: Issue): { problem: string; expected?: string; received?: string } {
  if (isMissing(issue)) return { problem: 'missing' };
  // src/http/members.ts answers unknown members first, with more.
  if (isUnknownKey(issue)) return { problem: 'unknown_member' };
  if (issue.type && JSON_TYPES.has(issue.type) && issue.input !== undefined)
    return { problem: 'type', ...(issue.expected ? { expected: jsonTypeName(issue.expected) } : {}), received: jsonType(issue.input) };
  // A check of the route's own (v.check) has no name of its use: `invalid`, its message says what it takes.
  const problem = !issue.type || issue.type === 'check' ? 'invalid' : issue.type;
  return { problem, ...(issue.expected ? { expected: issue.expected } : {}) };
}

/** A validation message in plain words ("cursor is required", "limit must be string"), never the input. */
function plainMessage(field: string, issue: Issue): string {
  if (isMissing(issue)) return `${field} is required`;
  if (isUnknownKey(issue)) return `${field} is not a known member: remove it`;
  const typed = /^Invalid type: Expected (.+?) but received/s.exec(issue.message);
  if (typed) return `${field} must be ${jsonTypeName(typed[1]!)} (got ${kindOf(issue.input)})`;
  if (issue.message.startsWith('Invalid key:')) return `${field} is not a known member: remove it`;
  // valibot's own wording of a check given no message ("Invalid value: Expected >=1 but received
  // 0", "Invalid integer: Received 1.5"): said of the field, without the value.
  const expected = /^Invalid [\w ]+: Expected (.+?)(?: but received .*)?$/s.exec(issue.message);
  if (expected) return `${field} must be ${expected[1]!}`;
  const what = /^Invalid ([\w ]+): Received /s.exec(issue.message);
  if (what) return `${field} must be ${/^[aeiou]/.test(what[1]!) ? 'an' : 'a'} ${what[1]!}`;
  return issue.message.replace(/ but received .*$/s, '');
}

/** A valibot schema as walked here: its kind, and where its parts are. */
type SchemaNode = { type?: string; wrapped?: SchemaNode; entries?: Record<string, SchemaNode>; item?: SchemaNode };

/**
 * Whether the member at `path` of `schema` takes null (a nullable or nullish schema, under any
 * optional wrapper): valibot reports a wrong type there from the inner schema ("string"), though
 * null is taken too. False where the path leads nowhere known (a union, a record).
 */
function takesNull(schema: unknown, path: readonly { key: unknown }[]): boolean {
  let node = schema as SchemaNode | undefined;
  for (const { key } of path) {
    while (node?.wrapped) node = node.wrapped;
    if (typeof key === 'string' && node?.entries) node = node.entries[key];
    else if (typeof key === 'number' && node?.item) node = node.item;
    else return false;
  }
  for (let n = node; n; n = n.wrapped) if (n.type === 'nullable' || n.type === 'nullish') return true;
  return false;
}

/**
 * Turns the issues of a failed validation into one ApiError: the first issue that names a code
 * wins; otherwise INVALID_REQUEST lists every failing field. Input values are never echoed.
 * `schema` (the one that failed), when given, lets a wrong type say that null is taken too.
 */
export function issuesToError(where: string, issues: readonly Issue[], schema?: unknown): ApiError {
  for (const issue of issues) {
    const hit = tagged.get(issue.message);
    if (!hit) continue;
    const field = fieldName(issue) || where;
    // INVALID_REQUEST has one shape however it arose: details.fields[] (conventions.md), plus
    // the precise members of the check that refused.
    if (hit.code === 'INVALID_REQUEST') {
      // The message in words: the check's own (say), a reason that is a sentence, or the reason's
      // token (details.reason, for a program) spelled out after the field.
      const reason = typeof hit.details.reason === 'string' ? hit.details.reason : null;
      const message = hit.say?.(field) ?? (reason && /\s/.test(reason) ? reason : `${field} is not valid${reason ? `: ${reason.replace(/_/g, ' ')}` : ''}`);
      return new ApiError('INVALID_REQUEST', { in: where, fields: [{ field, in: where, problem: 'invalid', message }], ...hit.details, field });
    }
    return new ApiError(hit.code, { ...hit.details, field }, hit.say?.(field));
  }
  const fields = issues.map((i) => {
    const field = fieldName(i) || where;
    const problem = problemOf(i);
    if (problem.problem === 'type' && problem.expected && schema !== undefined && takesNull(schema, i.path ?? [])) {
      const expected = `${problem.expected} | null`;
      return { field, in: where, ...problem, expected, message: `${field} must be ${problem.expected} or null (got ${kindOf(i.input)})` };
    }
    return { field, in: where, ...problem, message: plainMessage(field, i) };
  });
  return new ApiError('INVALID_REQUEST', { in: where, fields });
}

/**
 * Whether an ISO 8601 date-time's date is one of the calendar (its pattern takes days 01-31 in
 * every month, and Date would roll 2026-02-30 over to March 2nd: a value stored as another).
 */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const DATE_TIME_MESSAGE = 'must be an ISO 8601 date-time such as 2026-11-23T12:00:00Z, on a day the month has';

/** An ISO 8601 date-time with a zone ("2026-11-23T12:00:00Z") on a real calendar day; OpenAPI format date-time. */
export const dateTimeString = v.pipe(v.string(), v.isoTimestamp(DATE_TIME_MESSAGE), v.check(isCalendarDate, DATE_TIME_MESSAGE));
