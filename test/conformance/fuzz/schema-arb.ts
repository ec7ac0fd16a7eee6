// JSON Schema (the subset /openapi.json uses) → fast-check arbitraries: values a schema accepts,
// and the hostile values a fuzzer sends instead (wrong types, tricky Unicode, huge strings).
import fc from 'fast-check';

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
    const re = new RegExp(pattern);
    // An anchored pattern describes the whole string; an unanchored one (\S) is a test on free text.
    if (pattern.startsWith('^') && pattern.endsWith('$'))
      return fc
        .stringMatching(re)
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
  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (alternatives) return withExample(fc.oneof(...alternatives.map((a) => valid(a, depth + 1))));
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
      return fc.array(valid(s.items, depth + 1), { minLength, maxLength });
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
      return withExample(fc.record(model, { requiredKeys: required.filter((r) => r in model) }));
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** The member names of an object schema, and which are required. */
export function membersOf(schema: unknown): { names: string[]; required: string[]; props: Record<string, unknown> } {
  if (!isSchema(schema) || !isSchema(schema.properties)) return { names: [], required: [], props: {} };
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  return { names: Object.keys(schema.properties), required, props: schema.properties };
}

export { isSchema };
