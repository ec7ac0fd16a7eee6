// An example value for a JSON Schema, so the reference and the skill guide can show what a
// request and an answer look like. Deterministic: the same description gives the same examples.

type Schema = {
  type?: string | string[];
  example?: unknown;
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
  format?: string;
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema & { not?: unknown };
  anyOf?: Schema[];
  oneOf?: Schema[];
};

const FORMATS: Record<string, string> = {
  uuid: '0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e',
  'date-time': '2026-11-23T12:00:00.000Z',
  uri: 'https://svc.example/threads/0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e',
  url: 'https://svc.example/threads/0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e',
  email: 'press@example.org',
};

// Strings the description constrains by a pattern: an example that matches it (a test checks
// every example of the description against its schema).
const PATTERNS: Record<string, string> = {
  '^[A-Za-z][A-Za-z0-9_-]{2,31}$': 'ada-lab',
  '^svc_[0-9A-Za-z]{40}$': 'svc_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7k',
  '^[a-z0-9][a-z0-9-]{1,47}$': 'cache-notes',
  '^\\d{1,25}$': '1850000000000000001',
  '^[0-9a-fA-F]{64}$': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};

// Members whose placeholder would be refused as written: a lab file's path must be a file name
// (and a site needs its index.html).
const NAMES: Record<string, string> = { path: 'index.html' };

/** A placeholder stretched or cut to the schema's length bounds (code points, as JSON Schema counts). */
function withinLength(text: string, schema: Schema): string {
  let out = text;
  const min = schema.minLength ?? 0;
  while ([...out].length < min) out = `${out} ${text}`;
  const max = schema.maxLength;
  if (max !== undefined && [...out].length > max) out = [...out].slice(0, Math.max(max, min)).join('');
  return out;
}

/**
 * An example for `schema`, `depth` levels deep at most (recursive shapes stop with null). A request
 * example holds the required members only, unless the schema gives its own example: optional
 * members may be aliases or alternatives that exclude each other (request_key beside
 * idempotency_key, a stop beside a continuation), and a client sending the example must succeed.
 */
export function exampleOf(schema: Schema | undefined, name = '', depth = 0, request = false): unknown {
  if (!schema || depth > 8) return null;
  if (schema.examples?.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return exampleOf(alternatives.find((s) => s.type !== 'null') ?? alternatives[0], name, depth + 1, request);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, prop] of Object.entries(schema.properties ?? {})) if (!request || required.has(key)) out[key] = exampleOf(prop, key, depth + 1, request);
      return out;
    }
    case 'array':
      // An array whose items are refused (`not`) is always empty.
      return schema.items && !('not' in schema.items) ? [exampleOf(schema.items, name, depth + 1, request)] : [];
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
      if (schema.pattern && PATTERNS[schema.pattern]) return PATTERNS[schema.pattern];
      if (NAMES[name]) return NAMES[name];
      return withinLength(name ? `<${name}>` : '<text>', schema);
    case 'null':
      return null;
    default:
      return null;
  }
}
