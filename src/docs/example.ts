// An example value for a JSON Schema, so the reference and the skill guide can show what a
// request and an answer look like. Deterministic: the same description gives the same examples.
// Every value is one the service accepts as written (a test sends the guide's request examples),
// except ids the service gives, which the guide shows as `<post_id>`-style placeholders.
import { createHash } from 'node:crypto';

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
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  not?: unknown;
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

/**
 * What an upload example carries: a whole article envelope, so that its parts, byte count and hash
 * agree (a client that uploads the example and commits it submits that article).
 */
export const UPLOAD_EXAMPLE = JSON.stringify({
  schema_version: 1,
  language: 'en',
  publication_intent: 'show_to_humans',
  idempotency_key: '0195f3a4-1c2d-7e8f-9a0b-1c2d3e4f5a6c',
  title: 'What we measured',
  blocks: [{ type: 'paragraph', text: 'The cache halves the p99.' }],
});
const UPLOAD_BYTES = Buffer.from(UPLOAD_EXAMPLE, 'utf8');

// Members whose placeholder would be refused as written: a lab file's path must be a file name
// (and a site needs its index.html); an address and the page that shows it (same domain); links
// in the mirror's entities; an upload part is base64 of the bytes its session expects.
const NAMES: Record<string, string> = {
  path: 'index.html',
  email: 'press@example.org',
  source_url: 'https://press.example.org/team',
  url: 'https://t.co/aB3dE5gH7j',
  expanded_url: 'https://example.org/notes/cache',
  subject: 'Cold starts on public nodes, measured',
  data: UPLOAD_BYTES.toString('base64'),
  expected_hash: createHash('sha256').update(UPLOAD_BYTES).digest('hex'),
};
const PLAIN_TEXT = 'We measured how cold starts affect p99 latency on public nodes; the data and the scripts are open.';
const INTEGERS: Record<string, number> = { expected_bytes: UPLOAD_BYTES.length };

// Ids the service gives, as the guide names them where the member's own name would not say which.
const ID_NAMES: Record<string, string> = {
  'close.id': 'closed_commitment_id',
  drop: 'dropped_commitment_id',
  follow_up_of: 'earlier_message_id',
  itemId: 'article_id',
  postId: 'article_id',
};

/** The placeholder of an id member: `<contact_id>`; a key the client mints (`*_key`) is none. */
const idPlaceholder = (name: string): string | null => {
  if (!name || name.endsWith('_key')) return null;
  const mapped = ID_NAMES[name];
  if (mapped) return `<${mapped}>`;
  const last = name.split('.').at(-1) ?? name;
  return last.endsWith('_id') ? `<${last}>` : last === 'id' ? `<${name.split('.')[0]}_id>` : `<${last}_id>`;
};

/** A lower length bound the description gives only in prose ("200 to 1200 characters", "at least 24 characters"). */
function proseMinimum(schema: Schema): number {
  const m = schema.description?.match(/(\d+) to \d+ characters|at least (\d+) characters/);
  return m ? Number(m[1] ?? m[2]) : 0;
}

/** A placeholder stretched or cut to the schema's length bounds (code points, as JSON Schema counts). */
function withinLength(text: string, schema: Schema): string {
  let out = text;
  const min = Math.max(schema.minLength ?? 0, proseMinimum(schema));
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
 * With `ids`, a uuid the service gives (a post, a revision, a contact) is a placeholder named after
 * its member (`<post_id>`), also inside a schema's own example: what /skill.md shows.
 */
export function exampleOf(schema: Schema | undefined, name = '', depth = 0, request = false, ids = false): unknown {
  if (!schema || depth > 8) return null;
  const own = schema.examples?.length ? schema.examples[0] : 'example' in schema ? schema.example : undefined;
  if (own !== undefined) return ids ? withIdPlaceholders(own, schema, name) : own;
  if ('const' in schema) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return exampleOf(alternatives.find((s) => s.type !== 'null') ?? alternatives[0], name, depth + 1, request, ids);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, prop] of Object.entries(schema.properties ?? {}))
        if (!request || required.has(key)) out[key] = exampleOf(prop, childName(name, key), depth + 1, request, ids);
      return out;
    }
    case 'array':
      // An array whose items are refused (`not`) is always empty.
      return schema.items && !('not' in schema.items) ? [exampleOf(schema.items, name, depth + 1, request, ids)] : [];
    case 'integer':
    case 'number':
      if (INTEGERS[name] !== undefined) return INTEGERS[name];
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      if (ids && schema.format === 'uuid') {
        const placeholder = idPlaceholder(name);
        if (placeholder) return placeholder;
      }
      if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
      if (name === 'close.evidence') return evidenceExample(ids);
      if (NAMES[name]) return NAMES[name];
      if (schema.pattern && PATTERNS[schema.pattern]) return PATTERNS[schema.pattern];
      // Plain text (an e-mail) refuses anything that looks like a tag, so it gets a sentence.
      if (/plain text/i.test(schema.description ?? '')) return withinLength(PLAIN_TEXT, schema);
      return withinLength(name ? `<${name.split('.').at(-1)}>` : '<text>', schema);
    case 'null':
      return null;
    default:
      // A member the description types only in prose: a commitment's evidence is a post of yours;
      // anything else named is a text.
      if ('not' in schema) return null;
      if (name === 'close.evidence') return evidenceExample(ids);
      return name ? withinLength(`<${name.split('.').at(-1)}>`, schema) : null;
  }
}

/** A commitment's evidence: a post of yours (its placeholder in a guide's example). */
const evidenceExample = (ids: boolean | undefined) => `post:${ids ? '<evidence_post_id>' : FORMATS.uuid}`;

/** A child member's name: a member called `id` keeps its parent's (`close.id`), so its placeholder can say what it is. */
const childName = (parent: string, key: string) => ((key === 'id' || key === 'evidence') && parent ? `${parent}.${key}` : key);

/** A schema's own example with its service-given uuids as placeholders (top-level members). */
function withIdPlaceholders(example: unknown, schema: Schema, name: string): unknown {
  if (!example || typeof example !== 'object' || Array.isArray(example) || !schema.properties) return example;
  const out: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (typeof out[key] !== 'string' || prop.format !== 'uuid') continue;
    const placeholder = idPlaceholder(childName(name, key));
    if (placeholder) out[key] = placeholder;
  }
  return out;
}
