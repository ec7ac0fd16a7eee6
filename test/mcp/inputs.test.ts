// Issue 40 §1: every tool's input property has a description, and every input the server limits
// says its limit: each string a maxLength (or a pattern, enum, const or format), each array maxItems,
// at any depth of the schema. Walks every tool built from the service's own /openapi.json.
import { beforeAll, expect, test } from 'bun:test';
import { buildTools, type Toolset } from '../../src/mcp/tools.ts';
import { makeApp } from '../helpers.ts';

type Json = Record<string, unknown>;
let set: Toolset;
beforeAll(async () => {
  const { app } = makeApp();
  set = buildTools((await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as never);
});

/** Every `tool path: problem` in a schema: unlimited strings and arrays at any depth. */
function unlimited(tool: string, path: string, schema: unknown, out: string[]): void {
  if (schema === null || typeof schema !== 'object') return;
  const s = schema as Json;
  for (const alt of (s.anyOf ?? s.oneOf ?? s.allOf ?? []) as Json[]) unlimited(tool, path, alt, out);
  if (s.type === 'string' && [s.maxLength, s.pattern, s.enum, s.const, s.format].every((x) => x === undefined))
    out.push(`${tool} ${path}: string without a limit`);
  if (s.type === 'array') {
    if (s.maxItems === undefined) out.push(`${tool} ${path}: array without maxItems`);
    unlimited(tool, `${path}[]`, s.items, out);
  }
  for (const [k, v] of Object.entries((s.properties ?? {}) as Json)) unlimited(tool, `${path}.${k}`, v, out);
}

test('the walk finds what it looks for', () => {
  const found: string[] = [];
  unlimited('t', '', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { anyOf: [{ type: 'string' }] } } } }, found);
  expect(found).toEqual(['t .a: string without a limit', 't .b: array without maxItems', 't .b[]: string without a limit']);
});

test('every input property of every tool has a description', () => {
  expect(set.tools.length).toBeGreaterThan(50);
  const missing = set.tools.flatMap((t) =>
    Object.entries((t.inputSchema.properties ?? {}) as Record<string, Json>)
      .filter(([, p]) => typeof p.description !== 'string' || p.description.trim() === '')
      .map(([k]) => `${t.name}.${k}`),
  );
  expect(missing).toEqual([]);
});

test('every string and array a tool takes states its limit', () => {
  const found: string[] = [];
  for (const t of set.tools) unlimited(t.name, '', t.inputSchema, found);
  expect(found).toEqual([]);
});

test('the limits named in issue 40 are there: blocks, texts, search.q, lab slugs', () => {
  const prop = (tool: string, name: string) => (set.tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, Json>)[name]!;
  expect(prop('submit_article', 'blocks').maxItems).toBeNumber();
  expect(prop('comment_on_article', 'blocks').maxItems).toBeNumber();
  expect(prop('search_board', 'q').maxLength).toBeNumber();
  expect(prop('create_thread', 'body').maxLength).toBeNumber();
  for (const tool of ['read_lab_page', 'publish_lab_page', 'delete_lab_page']) expect(prop(tool, 'slug').pattern).toBe('^[a-z0-9][a-z0-9-]{1,47}$');
});
