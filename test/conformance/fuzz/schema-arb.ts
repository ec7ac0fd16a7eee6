// JSON Schema (the subset /openapi.json uses) → fast-check arbitraries: values a schema accepts,
// and the hostile values a fuzzer sends instead (wrong types, tricky Unicode, huge strings).
import fc from 'fast-check';
import { validatorFor } from './check.ts';

export type Schema = { [k: string]: unknown };

function isSchema(x: unknown): x is Schema {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function num(x: unknown): number | undefined {
  return typeof x === 'number' ? x : undefined;
}

/** Strings a server meets from hostile or careless clients: controls, bidi, lone surrogates, combining marks. */
export const TRICKY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202eevil\u202c',
  '\u200b',
  '\ufeff',
  '\ud800',
  'x\udfffy',
  'e\u0301\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦',
  'İıſK',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00%ff',
  '{{7*7}}<%= 7*7 %>',
  "' OR 1=1 --",
  '\r\nX-Injected: 1',
  'ａｄｍｉｎ',
  '\\u0000',
  'null',
  '-1',
  '1e309',
  '9'.repeat(40),
];

export const trickyString = fc.oneof(
  fc.constantFrom(...TRICKY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

/** Values of any JSON type but the one(s) a schema names. */
export function wrongTypeFor(schema: Schema): fc.Arbitrary<unknown> {
  const t = schema.type;
  const types = new Set(Array.isArray(t) ? t : typeof t === 'string' ? [t] : []);
  const all: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.constantFrom('', 'x', '12', 'true')],
    ['integer', fc.constantFrom(0, -1, 1.5, 2 ** 53 + 2, 1e300)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.constantFrom([], [1], [[]], ['a'])],
    ['object', fc.constantFrom({}, { a: 1 }, { __proto__: null, constructor: 1 })],
  ];
  const picks = all.filter(([name]) => !types.has(name) && !(name === 'integer' && types.has('number'))).map(([, a]) => a);
  return picks.length > 0 ? fc.oneof(...picks) : fc.constant(Symbol.for('none'));
}

const MAX_STRING = 40;

// Building an arbitrary for a pattern with Unicode classes (\\P{Cc}) takes a while: once per pattern.
const byPattern = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: string): fc.Arbitrary<string> {
  let arb = byPattern.get(pattern);
  if (!arb) {
    arb = fc.stringMatching(new RegExp(pattern, 'u'));
    byPattern.set(pattern, arb);
  }
  return arb;
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const minLength = num(s.minLength) ?? 0;
  const maxLength = Math.max(minLength, Math.min(num(s.maxLength) ?? MAX_STRING, minLength + MAX_STRING));
  // Lengths are fixed by mapping, never by filtering (a filter that rarely passes never ends).
  const fit = (v: string) => {
    const points = [...v];
    while (points.length < minLength) points.push('a');
    return points.slice(0, num(s.maxLength) ?? points.length).join('');
  };
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'date-time')
    return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'uri') return fc.webUrl({ validSchemes: ['https'] });
  const free = fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }).map(fit) },
    { weight: 1, arbitrary: fc.lorem({ maxCount: 6 }).map(fit) },
  );
  if (typeof s.pattern === 'string') {
    const pattern = s.pattern;
    if (pattern === '^https://') return fc.webUrl({ validSchemes: ['https'] });
    // JSON Schema patterns are ECMA-262 regular expressions with Unicode semantics (\\p{L}, code points).
    const re = new RegExp(pattern, 'u');
    // An anchored pattern describes the whole string; an unanchored one (\S) is a test on free text.
    if (pattern.startsWith('^') && pattern.endsWith('$'))
      return matching(pattern)
        .map(fit)
        .filter((v) => re.test(v));
    return free.map((v) => (re.test(v) ? v : fit(`x${v}`)));
  }
  return free;
}

/** Values the schema accepts (as far as a schema says: semantic rules are the fixtures' job). */
export function valid(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (!isSchema(schema)) return fc.jsonValue({ maxDepth: 1 });
  const s = schema;
  const withExample = (a: fc.Arbitrary<unknown>) =>
    s.example !== undefined ? fc.oneof({ weight: 1, arbitrary: fc.constant(s.example) }, { weight: 3, arbitrary: a }) : a;
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...s.enum);
  // Combinators are built from the schema around them merged with each branch (a oneOf of
  // `required` lists, an if/then on a member's value); what a merge cannot promise (`not`, exactly
  // one branch, a condition's other side) is settled by the validator in `conforming`.
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    return valid((allOf as unknown[]).filter(isSchema).reduce<Schema>(merge, rest), depth);
  }
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (alternatives) {
    const { anyOf: _any, oneOf: _one, example: _example, ...rest } = s;
    return withExample(fc.oneof(...alternatives.filter(isSchema).map((a) => valid(merge(rest, a), depth + 1))));
  }
  if (isSchema(s.if)) {
    const { if: cond, then: yes, else: no, ...rest } = s;
    const branches = [merge(merge(rest, cond), isSchema(yes) ? yes : {}), isSchema(no) ? merge(rest, no) : rest];
    return fc.oneof(...branches.map((b) => valid(b, depth)));
  }
  const t = s.type;
  if (Array.isArray(t)) return fc.oneof(...t.map((one) => valid({ ...s, type: one }, depth)));
  switch (t) {
    case 'string':
      return withExample(stringArb(s));
    case 'integer':
      return fc.integer({ min: num(s.minimum) ?? -1000, max: num(s.maximum) ?? Math.max(1000, (num(s.minimum) ?? 0) + 1000) });
    case 'number':
      return fc.double({ min: num(s.minimum) ?? -1000, max: num(s.maximum) ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(s.minItems) ?? 0;
      const maxLength = Math.max(minLength, Math.min(num(s.maxItems) ?? 4, minLength + 3));
      const items = fc.array(valid(s.items, depth + 1), { minLength, maxLength });
      if (!isSchema(s.contains)) return items;
      // `contains`: one item that also matches it, put among the others (within maxItems).
      const one = valid(isSchema(s.items) ? merge(s.items as Schema, s.contains) : s.contains, depth + 1);
      return fc.tuple(items, one, fc.nat()).map(([xs, x, at]) => {
        const out = xs.slice(0, Math.max(0, (num(s.maxItems) ?? xs.length + 1) - 1));
        out.splice(at % (out.length + 1), 0, x);
        return out;
      });
    }
    case 'object':
    case undefined: {
      const props = isSchema(s.properties) ? s.properties : null;
      if (!props) {
        if (t === undefined) return fc.jsonValue({ maxDepth: 1 });
        return s.additionalProperties === false ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      }
      const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = valid(v, depth + 1);
      for (const r of required) if (!(r in model)) model[r] = fc.jsonValue({ maxDepth: 1 });
      const record = fc.record(model, { requiredKeys: required });
      const dependent = isSchema(s.dependentRequired) ? (s.dependentRequired as Record<string, unknown>) : null;
      // dependentRequired: a member present without the members it needs is dropped again.
      const closed = dependent
        ? record.map((o) => {
            const out: Record<string, unknown> = { ...o };
            for (const [k, needs] of Object.entries(dependent)) {
              if (k in out && Array.isArray(needs) && needs.some((n) => !(String(n) in out))) delete out[k];
            }
            return out;
          })
        : record;
      return withExample(closed);
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** Two schemas as one: members and required lists joined (a member in both merged too), the rest from `b`. */
export function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (isSchema(a.properties) || isSchema(b.properties)) {
    const pa = isSchema(a.properties) ? a.properties : {};
    const pb = isSchema(b.properties) ? b.properties : {};
    const props: Schema = { ...pa };
    for (const [k, v] of Object.entries(pb)) props[k] = isSchema(pa[k]) && isSchema(v) ? merge(pa[k] as Schema, v) : v;
    out.properties = props;
  }
  const req = [...(Array.isArray(a.required) ? a.required : []), ...(Array.isArray(b.required) ? b.required : [])];
  if (req.length > 0) out.required = [...new Set(req)];
  if (a.type === undefined && b.type === undefined && out.properties) out.type = 'object';
  return out;
}

/** Candidates that the structural generator drew and the schema's own validator refused, by place. */
export const redrawn = new Map<string, number>();

/**
 * Values the schema accepts by its validator's word, not only by this generator's reading of it:
 * a candidate the validator refuses is drawn again (and counted in `redrawn`, printed with the figure).
 */
export function conforming(schema: unknown, where: string, example?: unknown): fc.Arbitrary<unknown> {
  const validate = validatorFor(schema ?? {});
  const drawn = example === undefined ? valid(schema) : fc.oneof({ weight: 1, arbitrary: fc.constant(example) }, { weight: 3, arbitrary: valid(schema) });
  return drawn.filter((v) => {
    if (validate(v)) return true;
    redrawn.set(where, (redrawn.get(where) ?? 0) + 1);
    return false;
  });
}

/** The member names of an object schema, and which are required. */
export function membersOf(schema: unknown): { names: string[]; required: string[]; props: Record<string, unknown> } {
  if (!isSchema(schema) || !isSchema(schema.properties)) return { names: [], required: [], props: {} };
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  return { names: Object.keys(schema.properties), required, props: schema.properties };
}

export { isSchema };
