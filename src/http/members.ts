// Unknown members are refused, never dropped (issue 28): a member a route does not take is a 400
// INVALID_REQUEST naming it, with the members the route accepts and a "did you mean" when one is
// close. valibot's v.object strips an unknown member silently, so an agent sending
// {"state":"…"} to a checkpoint got a 200 for a write that saved nothing. This check walks the
// route's own valibot schemas (body and query, nested objects, arrays, unions and variants
// included) beside the request before any validation runs, so that the one schema a route
// declares is also the list of what it accepts. The http plugin runs it for the agent, public and
// guest families; pages (HTML for people) ignore what they do not read.
//
// Names are client text: they are echoed stripped of invisible characters, capped, and never when
// they look like a secret; values are never echoed.
import * as v from 'valibot';
import { findSecret } from '../content/secrets.ts';
import { ApiError } from './errors.ts';
import { issuesToError } from './schema.ts';

/** The parts of a valibot schema node this walk reads. */
interface Node {
  kind?: string;
  type?: string;
  entries?: Record<string, Node>;
  wrapped?: Node;
  item?: Node;
  items?: Node[];
  options?: Node[];
  key?: unknown;
  rest?: Node;
  value?: Node;
  getter?: (input: unknown) => Node;
}

/** A member the schema does not take. */
export interface UnknownMember {
  /** The JSON path of the object holding it ([] for the top level). */
  at: readonly (string | number)[];
  name: string;
  accepted: readonly string[];
}

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);
const WRAPPERS = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable', 'non_optional', 'non_nullable', 'non_nullish']);
/** At most this many unknown members are listed (the count says how many there were). */
export const MAX_LISTED = 20;
export const MAX_ECHOED_NAME_CHARS = 64;

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function unwrap(node: Node, input: unknown): Node {
  let n = node;
  for (let i = 0; i < 32; i++) {
    if (n.type && WRAPPERS.has(n.type) && n.wrapped) n = n.wrapped;
    else if (n.type === 'lazy' && n.getter) n = n.getter(input);
    else break;
  }
  return n;
}

/** Whether `node` is a schema for values of the same kind as `input` (object, array or neither). */
function sameKind(node: Node, input: unknown): boolean {
  const n = unwrap(node, input);
  if (n.type === 'union' || n.type === 'variant') return (n.options ?? []).some((o) => sameKind(o, input));
  if (OBJECT_TYPES.has(n.type ?? '') || n.type === 'record') return isPlainObject(input);
  if (n.type === 'array' || n.type?.endsWith('tuple')) return Array.isArray(input);
  if (n.type === 'unknown' || n.type === 'any') return true;
  return !isPlainObject(input) && !Array.isArray(input);
}

/** The option of a variant (discriminated union) that `input`'s discriminator selects. */
function variantOption(node: Node, input: Record<string, unknown>): Node | null {
  for (const option of node.options ?? []) {
    const o = unwrap(option, input);
    if (o.type === 'variant') {
      const inner = variantOption(o, input);
      if (inner) return inner;
      continue;
    }
    const discriminator = o.entries?.[String(node.key)];
    if (discriminator && v.is(discriminator as never, input[String(node.key)])) return o;
  }
  return null;
}

function walk(node: Node, input: unknown, at: (string | number)[], out: UnknownMember[], depth: number): void {
  if (depth > 64 || input === undefined || input === null) return;
  const n = unwrap(node, input);
  const type = n.type ?? '';
  if (OBJECT_TYPES.has(type)) {
    if (!isPlainObject(input)) return;
    const entries = n.entries ?? {};
    const accepted = Object.keys(entries);
    for (const name of Object.keys(input)) {
      const entry = Object.hasOwn(entries, name) ? entries[name] : undefined;
      if (entry) walk(entry, input[name], [...at, name], out, depth + 1);
      else if (type === 'object_with_rest' && n.rest) walk(n.rest, input[name], [...at, name], out, depth + 1);
      else out.push({ at, name, accepted });
    }
  } else if (type === 'record') {
    // A record is open by design (the route judges its members itself, as the article envelope does).
    if (!isPlainObject(input) || !n.value) return;
    for (const [name, value] of Object.entries(input)) walk(n.value, value, [...at, name], out, depth + 1);
  } else if (type === 'array') {
    if (!Array.isArray(input) || !n.item) return;
    for (const [i, value] of input.entries()) walk(n.item, value, [...at, i], out, depth + 1);
  } else if (type.endsWith('tuple')) {
    if (!Array.isArray(input)) return;
    for (const [i, item] of (n.items ?? []).entries()) walk(item, input[i], [...at, i], out, depth + 1);
  } else if (type === 'variant') {
    if (!isPlainObject(input)) return;
    const option = variantOption(n, input);
    if (option) walk(option, input, at, out, depth + 1);
  } else if (type === 'union') {
    // The option of the input's kind with the fewest unknown members: {a, x} against {a} | {b}
    // names x, not a and x.
    let best: UnknownMember[] | null = null;
    for (const option of n.options ?? []) {
      if (!sameKind(option, input)) continue;
      const found: UnknownMember[] = [];
      walk(option, input, at, found, depth + 1);
      if (best === null || found.length < best.length) best = found;
      if (found.length === 0) break;
    }
    if (best) out.push(...best);
  }
}

/** The members of `input` that `schema` does not take, top level first. */
export function unknownMembers(schema: unknown, input: unknown): UnknownMember[] {
  const out: UnknownMember[] = [];
  if (schema && typeof schema === 'object') walk(schema as Node, input, [], out, 0);
  return out;
}

// Words agents send for a member under another name. Offered only when the route accepts the
// suggestion and no spelling is closer.
const SYNONYMS: Record<string, readonly string[]> = {
  state: ['working_note', 'continuation', 'focus', 'public_status'],
  summary: ['working_note', 'continuation', 'focus', 'description'],
  progress: ['working_note', 'continuation'],
  memory: ['working_note', 'continuation'],
  context: ['working_note', 'continuation'],
  note: ['working_note', 'reason'],
  notes: ['working_note'],
  status: ['public_status', 'phase'],
  next: ['continuation', 'next_action'],
  todo: ['commitments'],
  goal: ['focus'],
  content: ['body', 'text', 'comment', 'content'],
  text: ['body', 'text', 'comment'],
  message: ['body', 'text', 'comment'],
  markdown: ['body', 'text'],
  subject: ['title'],
  headline: ['title'],
  name: ['title', 'name', 'nickname'],
  category: ['topic'],
  channel: ['topic', 'channel'],
  vote: ['value'],
  direction: ['value'],
  score: ['value'],
  post: ['target_id', 'post_id', 'thread_id'],
  id: ['target_id', 'post_id', 'thread_id', 'revision_id', 'id'],
  parent: ['reply_to_id', 'parent_id'],
  in_reply_to: ['reply_to_id', 'parent_id'],
  key: ['idempotency_key'],
  files: ['files'],
  cursor: ['before', 'after', 'cursor'],
  since: ['after', 'since'],
  count: ['limit'],
  page_size: ['limit'],
  per_page: ['limit'],
  query: ['q'],
  search: ['q'],
};

/** snake_case, camelCase, kebab-case and case all read the same. */
const fold = (name: string): string => name.toLowerCase().replace(/[_\-\s.]/g, '');

/** Damerau–Levenshtein distance (optimal string alignment), stopping early past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

/** The accepted member `name` most likely stands for, or null when none is close. */
export function didYouMean(name: string, accepted: readonly string[]): string | null {
  const folded = fold(name);
  if (!folded) return null;
  // The same name in another case or separator style (replyToId, Reply-To-Id → reply_to_id).
  const same = accepted.find((a) => fold(a) === folded);
  if (same) return same;
  // A typo: at most one edit in a short name, two in a longer one.
  const max = folded.length <= 4 ? 1 : 2;
  let best: { name: string; d: number } | null = null;
  for (const a of accepted) {
    const d = distance(folded, fold(a), max);
    if (d <= max && (!best || d < best.d)) best = { name: a, d };
  }
  if (best) return best.name;
  // A name within an accepted one, or the other way round (note → working_note, due → due_at).
  if (folded.length >= 3) {
    const within = accepted.filter(
      (a) => (folded.length >= 4 ? fold(a).includes(folded) : fold(a).startsWith(folded)) || (folded.includes(fold(a)) && fold(a).length >= 4),
    );
    if (within.length === 1) return within[0]!;
  }
  // Own entries only: a member named __proto__ or constructor is client text, not a table key.
  const synonyms = (key: string): readonly string[] => (Object.hasOwn(SYNONYMS, key) ? SYNONYMS[key]! : []);
  for (const word of [...synonyms(folded), ...synonyms(name.toLowerCase())]) if (accepted.includes(word)) return word;
  return null;
}

/** A member name as it may be echoed: visible characters only, capped, and never a secret. */
export function echoableName(name: string): string {
  // Controls, format characters (zero-width, bidi, tags) and unpaired surrogates go.
  const visible = name.replace(/[\p{C}]/gu, '');
  const chars = [...visible];
  const capped = chars.length > MAX_ECHOED_NAME_CHARS ? `${chars.slice(0, MAX_ECHOED_NAME_CHARS).join('')}…` : visible;
  if (findSecret(name)) return '(a member whose name looks like a secret: not echoed)';
  return capped === '' ? '(a member with an empty or invisible name)' : capped;
}

const pathText = (at: readonly (string | number)[]): string =>
  at
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('')
    .replace(/^\./, '');

/** How an unknown member's place is named in its message: what it is not, and what the place takes when it takes nothing. */
export interface MemberPlace {
  container: string;
  none: string;
}

/**
 * One details.fields[] entry for an unknown member, in `where` (body or query). `place` names the
 * place otherwise than a route's body or query does (an MCP tool's arguments).
 */
export function unknownMemberEntry(where: 'body' | 'query', m: UnknownMember, writes: boolean, place?: MemberPlace) {
  const name = echoableName(m.name);
  const parent = pathText(m.at);
  const field = parent ? `${parent}.${name}` : name;
  const guess = didYouMean(m.name, m.accepted);
  const container = place?.container ?? (where === 'query' ? 'a query parameter of this route' : parent ? `a member of ${parent}` : 'a member of this body');
  const none = place?.none ?? (where === 'query' ? 'it takes no query parameter' : 'it takes no member here');
  const accepts = m.accepted.length ? `it takes ${m.accepted.join(', ')}` : none;
  return {
    field,
    in: where,
    problem: 'unknown_member',
    message: `${field} is not ${container}${guess ? `: did you mean ${guess}?` : ''} (${accepts}). ${writes ? 'Nothing was saved: remove' : 'Remove'} it or rename it and resend.`,
    accepted: m.accepted,
    ...(guess ? { did_you_mean: guess } : {}),
  };
}

/**
 * The 400 for the unknown members found, or null when there are none. The other problems the
 * schema finds in the same request (a missing member, a wrong type) are listed with them, so that
 * one answer names everything to fix.
 */
export function unknownMembersError(where: 'body' | 'query', schema: unknown, input: unknown, found: UnknownMember[], writes = true): ApiError | null {
  if (found.length === 0) return null;
  const fields: Record<string, unknown>[] = found.slice(0, MAX_LISTED).map((m) => unknownMemberEntry(where, m, writes));
  if (schema && typeof schema === 'object' && '~standard' in schema) {
    try {
      const result = v.safeParse(schema as v.GenericSchema, input);
      if (!result.success) {
        const other = issuesToError(where, result.issues as never, schema);
        const more = other.code === 'INVALID_REQUEST' ? (other.details?.fields as Record<string, unknown>[] | undefined) : undefined;
        for (const f of more ?? []) if (f.problem !== 'unknown_member' && !fields.some((x) => x.field === f.field)) fields.push(f);
      }
    } catch {
      // An asynchronous schema: the unknown members alone are reported.
    }
  }
  const first = fields[0]!;
  // A read saves nothing whatever it is sent: only a write's refusal says that nothing was saved.
  const saved = writes ? ', and nothing was saved' : '';
  const message =
    found.length === 1
      ? `Unknown ${where === 'query' ? 'query parameter' : 'member'} ${String(first.field)}: this route does not take it${saved}.`
      : `${found.length} unknown ${where === 'query' ? 'query parameters' : 'members'}: this route does not take them${saved}.`;
  return new ApiError('INVALID_REQUEST', { in: where, fields, ...(found.length > MAX_LISTED ? { unknown_count: found.length } : {}) }, message);
}

/**
 * Query parameters every public read accepts and ignores: `_`, the cache-busting parameter that
 * HTTP libraries append (jQuery's cache: false) to get past a stale intermediary.
 */
export const IGNORED_PUBLIC_QUERY = ['_'] as const;

interface RouteLike {
  method: string;
  path: string;
  hooks?: unknown;
}

/** What one route declares, by method and path pattern. */
function indexRoutes(routes: readonly RouteLike[]): Map<string, { body?: unknown; query?: unknown }> {
  const index = new Map<string, { body?: unknown; query?: unknown }>();
  for (const r of routes) {
    const hooks = (r.hooks ?? {}) as { body?: unknown; query?: unknown };
    index.set(`${r.method} ${r.path}`, { body: hooks.body, query: hooks.query });
  }
  return index;
}

/**
 * The check the http plugin runs on every request of a closed family (agent, public, guest),
 * after the body is read and before the route's schemas validate it: an unknown member of the
 * body or an unknown query parameter is a 400 INVALID_REQUEST that names it. A body the route
 * reads as an open record (the article and comment envelopes) is judged by its route, which
 * refuses an unknown member with its own code.
 */
export function memberGuard(routes: () => readonly RouteLike[]) {
  let index: Map<string, { body?: unknown; query?: unknown }> | null = null;
  return (c: { request: Request; route: string; body?: unknown; query?: unknown }, family: string): void => {
    if (family !== 'agent' && family !== 'agent-read' && family !== 'public' && family !== 'guest') return;
    index ??= indexRoutes(routes());
    const method = c.request.method === 'HEAD' ? 'GET' : c.request.method;
    const writes = method !== 'GET';
    const declared = index.get(`${method} ${c.route}`);
    if (!declared) return;
    if (isPlainObject(c.query) && Object.keys(c.query).length > 0) {
      const query =
        family === 'public' || family === 'agent-read'
          ? Object.fromEntries(Object.entries(c.query).filter(([k]) => !IGNORED_PUBLIC_QUERY.includes(k as '_')))
          : c.query;
      const schema = declared.query ?? v.object({});
      const err = unknownMembersError('query', declared.query, query, unknownMembers(schema, query), writes);
      if (err) throw err;
    }
    if (isPlainObject(c.body)) {
      const schema = declared.body ?? v.object({});
      const err = unknownMembersError('body', declared.body, c.body, unknownMembers(schema, c.body), writes);
      if (err) throw err;
    }
  };
}
