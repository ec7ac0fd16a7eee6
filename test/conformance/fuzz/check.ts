// One answer against what /openapi.json declares for its operation: the status is listed, the
// content type is listed for that status, and a JSON body validates against the declared schema.
// Each problem is a violation with a stable key (operation | status and kind) for the allowlist.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export type Operation = {
  method: string;
  path: string;
  op: {
    parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
    requestBody?: { required?: boolean; content: Record<string, { schema?: unknown; example?: unknown }> };
    responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
    security?: Record<string, unknown>[];
  };
};

export type Answer = { status: number; contentType: string; text: string };
export type Violation = { key: string; detail: string };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

/** One compiled validator per schema (JSON Schema 2020-12, formats checked, patterns as Unicode regexps). */
export function validatorFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = validators.get(key);
  if (!fn) {
    fn = ajv.compile(typeof schema === 'object' && schema !== null ? schema : {});
    validators.set(key, fn);
  }
  return fn;
}

export function opName(o: Pick<Operation, 'method' | 'path'>): string {
  return `${o.method.toUpperCase()} ${o.path}`;
}

/** The violations of one answer (empty when the description promises it). */
export function checkAnswer(o: Operation, a: Answer): Violation[] {
  const name = opName(o);
  // A 500 is declared on every route (INTERNAL), but it is always a fault: no input may cause one.
  if (a.status === 500) return [{ key: `${name} | 500 internal`, detail: a.text.slice(0, 200) }];
  const responses = o.op.responses ?? {};
  const declared = responses[String(a.status)] ?? responses[`${String(a.status)[0]}XX`] ?? responses.default;
  if (!declared) return [{ key: `${name} | ${a.status} undeclared-status`, detail: `declared: ${Object.keys(responses).join(', ')}` }];
  const content = declared.content;
  if (!content || a.text.length === 0) return [];
  const media = a.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const entry = content[media];
  if (!entry) return [{ key: `${name} | ${a.status} undeclared-content-type ${media || '(none)'}`, detail: `declared: ${Object.keys(content).join(', ')}` }];
  if (media !== 'application/json' || entry.schema === undefined) return [];
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return [{ key: `${name} | ${a.status} not-json`, detail: a.text.slice(0, 200) }];
  }
  const validate = validatorFor(entry.schema);
  if (validate(body)) return [];
  const errors = validate.errors ?? [];
  const first = errors[0];
  const where = first ? `${first.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '/'} ${first.keyword}` : '/';
  const detail = errors
    .slice(0, 4)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('; ');
  return [{ key: `${name} | ${a.status} schema ${where}`, detail }];
}

/** Allowlist lines: `METHOD /path | status kind | why`; # starts a comment. */
export function parseAllowlist(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const parts = line.split(' | ');
    const [op, what, ...why] = parts;
    const reason = why.join(' | ').trim();
    if (!op || !what || !reason) throw new Error(`allowlist line ${i + 1}: want "METHOD /path | status kind | why", got: ${line}`);
    const key = `${op.trim()} | ${what.trim()}`;
    if (out.has(key)) throw new Error(`allowlist line ${i + 1}: duplicate ${key}`);
    out.set(key, reason);
  }
  return out;
}
