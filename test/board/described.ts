// Reading a route's declared success answer out of the served /openapi.json, and checking a body
// against it the way the suite checks every answer (test/contract.ts). The contract tests of the
// board, search, inbox, accounts, me and health share these.
import { expect } from 'bun:test';
import { ContractViolation, checkAnswer, describedRoutes } from '../contract.ts';
import { BASE, type makeApp } from '../helpers.ts';

type T = ReturnType<typeof makeApp>;
type Json = Record<string, any>;

/** The served description, read through the app like any client. */
export async function servedSpec(t: T): Promise<Json> {
  return (await t.app.handle(new Request(`${BASE}/openapi.json`))).json() as Promise<Json>;
}

/** Expects `method path` to declare a real 200 JSON answer: a contract, not the bare `{type: 'object'}`. */
export function expectDeclared200(spec: Json, method: string, path: string): Json {
  const op = spec.paths[path]?.[method.toLowerCase()];
  expect(op).toBeDefined();
  expect(op['x-svc-contract']).toBe(true);
  const schema = op.responses?.['200']?.content?.['application/json']?.schema;
  expect(schema).toBeDefined();
  expect(schema).not.toEqual({ type: 'object' });
  // Either a closed object with its members named, or a choice between such objects.
  const shapes: Json[] = schema.oneOf ?? schema.anyOf ?? [schema];
  for (const s of shapes) {
    expect(s.type).toBe('object');
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties ?? {}).length).toBeGreaterThan(0);
  }
  return op;
}

/**
 * Whether the description accepts `body` as the 200 answer of `method pathname`: null when it
 * does, else what it says is wrong.
 */
export async function refusal(t: T, method: string, pathname: string, body: unknown): Promise<string | null> {
  const { routes } = await describedRoutes(JSON.stringify(t.config), () => servedSpec(t) as never);
  try {
    checkAnswer(routes, method, pathname, 200, 'application/json', JSON.stringify(body));
    return null;
  } catch (e) {
    if (e instanceof ContractViolation) return e.message;
    throw e;
  }
}

/** A deep copy of `body` changed by `edit`: the near misses a contract must refuse. */
export const altered = <B>(body: B, edit: (copy: any) => void): B => {
  const copy = structuredClone(body);
  edit(copy);
  return copy;
};
