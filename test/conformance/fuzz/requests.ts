// Requests for one operation of /openapi.json: valid ones built from its schemas (with the
// prerequisites a real caller has: a registered agent, an existing post, a lab page…) and invalid
// ones (wrong types, missing required members, unknown members, huge strings, Unicode tricks, bad
// ids, broken JSON, missing or wrong headers), as fast-check arbitraries.
import fc from 'fast-check';
import type { Operation } from './check.ts';
import { conforming, isSchema, membersOf, trickyString, valid, wrongTypeFor } from './schema-arb.ts';

/** What the fixtures created before fuzzing; placeholders starting with FRESH are made per request. */
export type World = {
  baseUrl: string;
  key: string;
  otherKey: string;
  name: string;
  postId: string;
  replyId: string;
  labSlug: string;
  pubsPostId: string | null;
  revisionId: string | null;
};

export const FRESH_AGENT = 'FRESH:agent';
export const FRESH_POST = 'FRESH:post';
export const FRESH_LAB = 'FRESH:lab';

export type Req = {
  kind: string;
  path: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body?: { json: unknown } | { raw: string };
};

const has = (o: Operation, scheme: string) => (o.op.security ?? []).some((s) => scheme in s);

function bodySchema(o: Operation): { media: string; schema: unknown; example: unknown } | null {
  const content = o.op.requestBody?.content;
  if (!content) return null;
  const media = 'application/json' in content ? 'application/json' : Object.keys(content)[0];
  if (!media) return null;
  return { media, schema: content[media]?.schema, example: content[media]?.example };
}

/** Path segments the fixtures know for an operation's parameter, beside random valid ones. */
function knownPathValues(o: Operation, param: string, w: World): string[] {
  const p = o.path;
  const m = o.method.toUpperCase();
  if (m === 'DELETE' && p === '/v1/posts/{id}') return [FRESH_POST];
  if (m === 'DELETE' && p === '/v1/lab/pages/{slug}') return [FRESH_LAB];
  if (param === 'id' && (p.startsWith('/v1/posts/') || p.startsWith('/api/thread/') || p.startsWith('/threads/'))) return [w.postId, w.replyId];
  if (param === 'id' && p.startsWith('/v1/show/')) return [w.postId];
  if (param === 'slug') return [w.labSlug];
  if (param === 'agent' || param === 'name') return [w.name];
  if (param === 'path') return ['index.html', ''];
  if (param === 'post_id' && w.pubsPostId) return [w.pubsPostId];
  if (param === 'revision_id' && w.revisionId) return [w.revisionId];
  if (param === 'file') return ['altcha.min.js', 'altcha.css', 'pbkdf2.js'];
  return [];
}

/** Body members a caller has from an earlier answer (an opaque cursor), beside random valid ones. */
function knownBodyValues(o: Operation, w: World): Record<string, string[]> {
  // Each inbox item id is its own cursor (GET /v1/inbox): the fixtures' reply mentions the fixtures' agent.
  if (o.method === 'POST' && o.path === '/v1/inbox/ack') return { cursor: [w.replyId] };
  return {};
}

/** Query values a caller would send on purpose (the long-poll's timeout is answered by moving the clock). */
function knownQueryValues(o: Operation, param: string): string[] {
  if (o.path === '/v1/continuity/wait' && param === 'timeout') return ['1'];
  return [];
}

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? '';
}

function queryValues(v: unknown): string[] {
  return Array.isArray(v) ? v.map(text) : [text(v)];
}

/** A path segment or query value as a client sends it (a lone surrogate becomes U+FFFD, as in fetch). */
export function encode(v: string): string {
  return encodeURIComponent(v.toWellFormed());
}

function segment(v: string): string {
  return v.startsWith('FRESH:') ? v : encode(v);
}

/**
 * A body as its media type travels: a form's members as name=value pairs (an array member
 * repeated, an object member as JSON text), anything else as JSON.
 */
export function serializeBody(json: unknown, contentType: string | undefined): string {
  if (!/^application\/x-www-form-urlencoded/i.test(contentType ?? '') || typeof json !== 'object' || json === null || Array.isArray(json))
    return JSON.stringify(json);
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(json)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, text(one).toWellFormed());
  return form.toString();
}

/** Header values travel as visible ASCII (fetch refuses anything else before sending). */
function headerValue(v: string): string {
  return v.replace(/[^\x20-\x7e]/g, '').trim();
}

// URL parsers resolve . and .. (and %2e) before sending: such a segment addresses another route.
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

const CURSORS = /^(pubs_)?(before|after|cursor)$/;

/** Valid requests: every required parameter, some optional ones, a body the schema accepts. */
export function validRequest(o: Operation, w: World): fc.Arbitrary<Req> {
  const params = o.op.parameters ?? [];
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of params.filter((p) => p.in === 'path')) {
    const known = knownPathValues(o, p.name, w);
    // An empty segment is another operation's address (/v1/posts/ is not /v1/posts/{id}), except a lab site's {path}.
    const random = conforming(p.schema, `${o.method} ${o.path} path ${p.name}`)
      .map((v) => segment(text(v)))
      .filter((v) => (v !== '' || p.name === 'path') && !DOT_SEGMENT.test(v));
    const chosen = known.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known.map(segment)) }, { weight: 1, arbitrary: random }) : random;
    pathArbs[p.name] = known.includes(FRESH_POST) || known.includes(FRESH_LAB) ? fc.constantFrom(...known) : chosen;
  }
  const queryArbs = params
    .filter((p) => p.in === 'query')
    .map((p) => {
      const known = knownQueryValues(o, p.name);
      const value =
        known.length > 0 ? fc.constantFrom(...known).map((v) => [v]) : conforming(p.schema, `${o.method} ${o.path} query ${p.name}`).map(queryValues);
      const pair = value.map((vs) => vs.map((v): [string, string] => [p.name, v]));
      // A cursor is an opaque token the service handed out: a random one is invalid data, not valid.
      if (!p.required && CURSORS.test(p.name)) return fc.constant([]);
      return p.required ? pair : fc.option(pair, { nil: [] });
    });
  const headerArbs = params
    .filter((p) => p.in === 'header' || p.in === 'cookie')
    .map((p) => {
      let value: fc.Arbitrary<string> = conforming(p.schema, `${o.method} ${o.path} ${p.in} ${p.name}`).map(text);
      if (p.name.toLowerCase() === 'idempotency-key') value = fc.uuid();
      if (p.name.toLowerCase() === 'origin') value = fc.constant(new URL(w.baseUrl).origin);
      const pair = value.map((v): [string, string, string] => [p.in, p.name, v]);
      return p.required
        ? pair.map((x) => [x])
        : fc.option(
            pair.map((x) => [x]),
            { nil: [] },
          );
    });
  const b = bodySchema(o);
  const known = Object.entries(knownBodyValues(o, w));
  const bodyArb: fc.Arbitrary<Req['body']> = b
    ? fc
        .tuple(conforming(b.schema, `${o.method} ${o.path} body`, b.example), fc.array(fc.nat(), { minLength: known.length, maxLength: known.length }))
        // A known value in 3 of 4 bodies (the random one, valid by the schema, in the others).
        .map(([json, picks]) => {
          if (known.length === 0 || typeof json !== 'object' || json === null) return { json };
          const out: Record<string, unknown> = { ...json };
          known.forEach(([member, values], i) => {
            const n = picks[i] ?? 0;
            if (n % 4 !== 0) out[member] = values[n % values.length];
          });
          return { json: out };
        })
    : fc.constant(undefined);
  return fc.record({ path: fc.record(pathArbs), query: fc.tuple(...queryArbs), headers: fc.tuple(...headerArbs), body: bodyArb }).map((r) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (has(o, 'protocol')) headers['x-agent-protocol'] = 'svc/1';
    // Revoking, and deleting a lab page made for the purpose, use an agent made for the request.
    const freshAgent = o.path === '/v1/me/revoke' || (o.method === 'DELETE' && o.path === '/v1/lab/pages/{slug}');
    if (has(o, 'bearer')) headers.authorization = freshAgent ? `Bearer ${FRESH_AGENT}` : `Bearer ${w.key}`;
    const cookies: string[] = [];
    for (const [where, name, value] of r.headers.flat()) {
      if (where === 'cookie') cookies.push(`${name}=${encodeURIComponent(value)}`);
      else headers[name.toLowerCase()] = headerValue(value);
    }
    if (cookies.length > 0) headers.cookie = cookies.join('; ');
    if (r.body !== undefined && b) headers['content-type'] = b.media;
    const req: Req = { kind: 'valid', path: r.path, query: r.query.flat(), headers };
    if (r.body !== undefined) req.body = r.body;
    return req;
  });
}

type Mutation = fc.Arbitrary<(r: Req) => Req>;

const BAD_SEGMENTS = [
  'x',
  '0',
  '-1',
  'null',
  '%00',
  '%ff',
  '%C0%AF',
  '..%2F..%2Fetc',
  '%E2%80%AE',
  'a'.repeat(3000),
  '00000000-0000-0000-0000-000000000000',
  'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
  '%F0%9F%98%80',
  '%20',
  'svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
];
const BAD_JSON = [
  '{',
  '',
  'null',
  '[]',
  '"text"',
  '1e999',
  '{"a":1,"a":2}',
  '{"__proto__":{"x":1}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '\ufeff{}',
  '{"a":"\\ud800"}',
  'true',
];
const HUGE = [5_000, 70_000];

function withBody(r: Req, json: unknown, kind: string): Req {
  return { ...r, kind, body: { json } };
}

function objectBody(r: Req): Record<string, unknown> | null {
  if (!r.body || !('json' in r.body)) return null;
  const j = r.body.json;
  return typeof j === 'object' && j !== null && !Array.isArray(j) ? { ...j } : null;
}

/** The ways a request can go wrong that apply to this operation. */
function mutations(o: Operation, w: World): Mutation[] {
  const out: Mutation[] = [];
  const params = o.op.parameters ?? [];
  const b = bodySchema(o);
  const { names, required, props } = membersOf(b?.schema);
  // Headers: the handshake, the key, the idempotency key, what the client accepts.
  out.push(
    fc.constantFrom('x-agent-protocol', 'authorization', 'accept', 'content-type', 'idempotency-key').map((h) => (r: Req) => {
      const headers = { ...r.headers };
      delete headers[h];
      return { ...r, kind: `drop header ${h}`, headers };
    }),
  );
  out.push(
    fc
      .constantFrom<[string, string]>(
        ['authorization', 'Bearer svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
        ['authorization', 'Bearer '],
        ['authorization', 'Basic YTpi'],
        ['authorization', `Bearer ${w.otherKey}x`],
        ['x-agent-protocol', 'svc/2'],
        ['x-agent-protocol', ''],
        ['accept', 'text/html'],
        ['idempotency-key', 'not-a-uuid'],
        ['idempotency-key', ''],
        ['idempotency-key', 'a'.repeat(400)],
        ['content-type', 'text/plain'],
        ['content-type', 'application/x-www-form-urlencoded'],
        ['content-type', 'application/json; charset=latin1'],
        ['origin', 'https://evil.example'],
      )
      .map(([h, v]) => (r: Req) => ({ ...r, kind: `header ${h}: ${v.slice(0, 40)}`, headers: { ...r.headers, [h]: v } })),
  );
  // Path parameters: ids that are not ids.
  const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
  if (pathParams.length > 0) {
    out.push(
      fc
        .tuple(
          fc.constantFrom(...pathParams),
          fc.oneof(
            fc.constantFrom(...BAD_SEGMENTS),
            trickyString.map(encode).filter((v) => v !== '' && !DOT_SEGMENT.test(v)),
          ),
        )
        .map(([name, v]) => (r: Req) => ({
          ...r,
          kind: `bad path ${name}`,
          path: { ...r.path, [name]: v },
        })),
    );
  }
  // Query: unknown parameters, wrong types, duplicates, huge values.
  const queryParams = params.filter((p) => p.in === 'query');
  out.push(
    fc.tuple(fc.constantFrom('foo', 'limit_', 'Limit', 'callback', '__proto__'), fc.constantFrom('1', '', 'x')).map(([k, v]) => (r: Req) => ({
      ...r,
      kind: `unknown query ${k}`,
      query: [...r.query, [k, v]],
    })),
  );
  if (queryParams.length > 0) {
    out.push(
      fc
        .tuple(
          fc.constantFrom(...queryParams.map((p) => p.name)),
          fc.oneof(fc.constantFrom('-1', '0', '1.5', 'abc', '', '1e10', '99999999999999999999', 'true', '[]', 'x'.repeat(5000)), trickyString),
        )
        .map(([k, v]) => (r: Req) => ({ ...r, kind: `bad query ${k}`, query: [...r.query.filter(([q]) => q !== k), [k, v]] })),
    );
    out.push(
      fc
        .constantFrom(...queryParams.map((p) => p.name))
        .map((k) => (r: Req) => ({ ...r, kind: `duplicate query ${k}`, query: [...r.query, [k, '1'], [k, '2']] })),
    );
  }
  // Bodies.
  out.push(
    fc
      .constantFrom(...BAD_JSON)
      .map((raw) => (r: Req) => ({ ...r, kind: 'broken JSON', body: { raw }, headers: { 'content-type': 'application/json', ...r.headers } })),
  );
  if (!b) {
    out.push(
      valid({ type: 'object' }).map((json) => (r: Req) => ({
        ...withBody(r, json, 'body on a route without one'),
        headers: { 'content-type': 'application/json', ...r.headers },
      })),
    );
    return out;
  }
  out.push(fc.constantFrom<unknown>([], 'text', 1, null, true, [{}]).map((json) => (r: Req) => withBody(r, json, 'body of the wrong type')));
  out.push(
    fc.tuple(fc.constantFrom('foo', 'state', 'extra', 'Title', '__proto__', 'constructor'), fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => (r: Req) => {
      const o = objectBody(r) ?? {};
      o[k] = v;
      return withBody(r, o, `unknown member ${k}`);
    }),
  );
  if (required.length > 0) {
    out.push(
      fc.constantFrom(...required).map((k) => (r: Req) => {
        const o = objectBody(r) ?? {};
        delete o[k];
        return withBody(r, o, `missing required ${k}`);
      }),
    );
  }
  if (names.length > 0) {
    out.push(
      fc
        .constantFrom(...names)
        .chain((k) => fc.tuple(fc.constant(k), wrongTypeFor(isSchema(props[k]) ? props[k] : {})))
        .map(([k, v]) => (r: Req) => {
          const o = objectBody(r) ?? {};
          o[k] = typeof v === 'symbol' ? { nested: [1] } : v;
          return withBody(r, o, `wrong type ${k}`);
        }),
    );
    out.push(
      fc
        .tuple(
          fc.constantFrom(...names),
          fc.oneof(
            trickyString,
            fc.constantFrom(...HUGE).map((n) => 'x'.repeat(n)),
          ),
        )
        .map(([k, v]) => (r: Req) => {
          const o = objectBody(r) ?? {};
          o[k] = v;
          return withBody(r, o, `odd string in ${k}`);
        }),
    );
  }
  return out;
}

/** Invalid requests: a valid one, then one thing wrong with it. */
export function invalidRequest(o: Operation, w: World): fc.Arbitrary<Req> {
  return fc.tuple(validRequest(o, w), fc.oneof(...mutations(o, w))).map(([r, m]) => m(r));
}
