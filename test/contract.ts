// Every answer the test suite receives is checked against what /openapi.json declares for its
// route and status: an error must be the envelope with a code the route documents, and on a route
// whose success answers are declared (x-svc-contract), an undeclared status fails and a JSON body
// must satisfy its schema. makeApp wraps app.handle with this, so no test can see an answer the
// description does not promise.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Op = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>; 'x-svc-contract'?: boolean };
type Spec = { paths: Record<string, Record<string, Op>> };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();
const specs = new Map<string, { spec: Spec; routes: { method: string; re: RegExp; params: number; op: Op; path: string }[] }>();

function validatorFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = validators.get(key);
  if (!fn) {
    fn = ajv.compile(schema as object);
    validators.set(key, fn);
  }
  return fn;
}

function indexSpec(spec: Spec) {
  const routes = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (path.match(/\{/g) ?? []).length;
      // A final {path} (a lab site's files) takes the rest of the address, slashes included, or nothing.
      const pattern = path
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{path\}$/, '\u0000')
        .replace(/\{[^}]+\}/g, '[^/]+')
        .replace('\u0000', '.*');
      const re = new RegExp(`^${pattern}$`);
      routes.push({ method: method.toUpperCase(), re, params, op, path });
    }
  }
  // A literal path wins over a templated one (/v1/me/revoke before /v1/me/{x}).
  return routes.sort((a, b) => a.params - b.params);
}

/** The described routes of an app, built once per configuration (every test app has the same routes). */
export async function describedRoutes(key: string, fetchSpec: () => Promise<Spec>) {
  let hit = specs.get(key);
  if (!hit) {
    const spec = await fetchSpec();
    hit = { spec, routes: indexSpec(spec) };
    specs.set(key, hit);
  }
  return hit;
}

export class ContractViolation extends Error {}

/** Checks one answer; throws a ContractViolation naming the route, the status and what is wrong. */
export function checkAnswer(
  routes: { method: string; re: RegExp; op: Op; path: string }[],
  method: string,
  pathname: string,
  status: number,
  contentType: string | null,
  text: string,
): void {
  const route = routes.find((r) => r.method === method && r.re.test(pathname));
  if (!route) return; // unknown routes answer 404/405 from the shared conventions, tested on their own
  const where = `${method} ${route.path} → ${status}`;
  const declared = route.op.responses?.[String(status)];
  const isError = status >= 400;
  if (!declared) {
    if (isError || route.op['x-svc-contract']) throw new ContractViolation(`${where}: status not in the description`);
    return;
  }
  const media = (contentType ?? '').split(';')[0]!.trim();
  const content = declared.content;
  if (!content) return;
  if (!content[media]) throw new ContractViolation(`${where}: content type ${media || '(none)'} not declared (declared: ${Object.keys(content).join(', ')})`);
  if (media !== 'application/json') return;
  if (!isError && !route.op['x-svc-contract']) return;
  const schema = content[media]?.schema;
  if (!schema) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ContractViolation(`${where}: body is not JSON`);
  }
  const validate = validatorFor(schema);
  if (!validate(body)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    throw new ContractViolation(`${where}: answer does not match the description: ${problems.join('; ')}\n${text.slice(0, 600)}`);
  }
}
