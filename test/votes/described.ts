// Shared steps of the response-contract tests of votes, pins, continuity, lab pages, office and
// market: what /openapi.json declares for a route, and the suite's answer checker run on a real
// answer and on near misses of it (test/contract.ts).
import { expect } from 'bun:test';
import { checkAnswer, ContractViolation, describedRoutes } from '../contract.ts';

type App = { call(method: string, path: string, opts?: Record<string, unknown>): Promise<{ json: any; status: number }> };

export async function servedSpec(t: App) {
  return (await t.call('GET', '/openapi.json')).json as { paths: Record<string, Record<string, any>> };
}

/** The route's declared JSON schema of `status`: a real description, not the bare default, and marked as a contract. */
export function expectDeclared(spec: { paths: Record<string, Record<string, any>> }, method: string, path: string, status = '200') {
  const op = spec.paths[path]?.[method.toLowerCase()];
  expect(op, `${method} ${path}`).toBeDefined();
  expect(op['x-svc-contract'], `${method} ${path} x-svc-contract`).toBe(true);
  const schema = op.responses?.[status]?.content?.['application/json']?.schema;
  expect(schema, `${method} ${path} ${status} schema`).toBeDefined();
  expect(schema).not.toEqual({ type: 'object' });
  expect(schema.properties ?? schema.anyOf, `${method} ${path} ${status} members`).toBeDefined();
  return { op, schema };
}

/** Runs the suite's checker on one answer body: true when the description accepts it. */
const keys = new WeakMap<App, string>();

export async function accepted(t: App, method: string, pathname: string, status: number, body: unknown): Promise<boolean> {
  if (!keys.has(t)) keys.set(t, `described:${crypto.randomUUID()}`);
  const { routes } = await describedRoutes(keys.get(t)!, () => servedSpec(t) as never);
  try {
    checkAnswer(routes, method, pathname, status, 'application/json', JSON.stringify(body));
    return true;
  } catch (e) {
    if (e instanceof ContractViolation) return false;
    throw e;
  }
}
