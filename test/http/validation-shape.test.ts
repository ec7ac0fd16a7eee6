// INVALID_REQUEST has one shape, whatever check raised it: details.fields[] with each field, where
// it was, and a plain message that never echoes the value sent (docs/conventions.md).
import { describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { issuesToError } from '../../src/http/schema.ts';
import { makeApp } from '../helpers.ts';

type Call = [string, string, string, { body?: unknown; auth?: boolean }];
const cases: Call[] = [
  ['a body member of the wrong type', 'POST', '/v1/agents', { body: { name: 'alice2', description: 12345 } }],
  ['a missing body member', 'POST', '/votes', { body: { value: 1 }, auth: true }],
  ['a query parameter sent twice', 'GET', '/v1/search?q=a&q=b', { auth: true }],
  ['an empty q', 'GET', '/v1/search?q=', { auth: true }],
  ['neither target_ids nor agent', 'GET', '/votes', {}],
  ['targets that are not post ids', 'GET', '/v1/voting?targets=nope', { auth: true }],
  ['an unknown pin action', 'POST', '/pins', { body: { thread_id: '0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e', action: 'stick' }, auth: true }],
];

describe('INVALID_REQUEST details', () => {
  for (const [name, method, path, opts] of cases) {
    test(`${name}: details.fields[] names the field with a plain message`, async () => {
      const t = makeApp();
      const a = await t.register('alice');
      const r = await t.call(method, path, { ...(opts.auth ? { key: a.key } : {}), ...(opts.body !== undefined ? { body: opts.body } : {}) });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_REQUEST');
      const fields = r.json.error.details.fields;
      expect(Array.isArray(fields)).toBe(true);
      expect(fields.length).toBeGreaterThan(0);
      for (const f of fields) {
        expect(typeof f.field).toBe('string');
        expect(typeof f.message).toBe('string');
        expect(f.message).not.toMatch(/Invalid (type|key): Expected/);
        expect(r.text).not.toContain('12345');
      }
    });
  }

  test('a missing member reads "<field> is required"', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/v1/inbox/ack', { key: a.key, body: {} });
    expect(r.json.error.details.fields).toContainEqual(expect.objectContaining({ field: 'cursor', message: 'cursor is required' }));
  });
});

describe('details.fields[].problem says what is wrong with the member, in a few words a program can branch on', () => {
  test('missing: a required member not sent (no expected, nothing received)', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/v1/inbox/ack', { key: a.key, body: {} });
    expect(r.json.error.details.fields).toEqual([{ field: 'cursor', in: 'body', problem: 'missing', message: 'cursor is required' }]);
  });

  test('type: a value of another JSON type, with the type taken and the type sent, never the value', async () => {
    const t = makeApp();
    for (const [sent, received] of [
      [12345, 'number'],
      [true, 'boolean'],
      [['x'], 'array'],
      [{ x: 1 }, 'object'],
    ] as const) {
      const r = await t.call('POST', '/v1/agents', { body: { name: 'carol', description: sent } });
      expect(r.status).toBe(400);
      expect(r.json.error.details.fields).toEqual([
        // The description takes null too (sent as null it is taken): the answer says so.
        {
          field: 'description',
          in: 'body',
          problem: 'type',
          expected: 'string | null',
          received,
          message: `description must be string or null (got ${received === 'array' || received === 'object' ? 'an' : 'a'} ${received})`,
        },
      ]);
      expect(r.text).not.toContain('12345');
    }
  });

  test('a check that refused a value of the right type is named by the check, with what it takes', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/pins', { key: a.key, body: { thread_id: '0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e', action: 'stick' } });
    expect(r.status).toBe(400);
    const f = r.json.error.details.fields.find((x: { field: string }) => x.field === 'action');
    expect(f.problem).toBe('picklist');
    expect(f.expected).toContain('"pin"');
    expect(r.text).not.toContain('stick');
  });

  test('several at once: each member with its own problem', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', { key: a.key, body: { title: 123, body: 'x' }, headers: { 'Idempotency-Key': crypto.randomUUID() } });
    expect(r.status).toBe(400);
    const byField = Object.fromEntries(r.json.error.details.fields.map((f: { field: string; problem: string }) => [f.field, f.problem]));
    expect(byField).toEqual({ topic: 'missing', title: 'type' });
  });
});

describe('the types named as JSON names them', () => {
  test('an array or an object expected is "array" or "object", in expected and in the message', () => {
    const r = v.safeParse(v.strictObject({ a: v.array(v.string()), b: v.object({ c: v.string() }) }), { a: 'x', b: 3 });
    expect(r.success).toBe(false);
    const fields = (issuesToError('body', r.issues as never).details as { fields: Record<string, unknown>[] }).fields;
    expect(fields).toEqual([
      { field: 'a', in: 'body', problem: 'type', expected: 'array', received: 'string', message: 'a must be array (got a string)' },
      { field: 'b', in: 'body', problem: 'type', expected: 'object', received: 'number', message: 'b must be object (got a number)' },
    ]);
  });
});

describe('a member that takes null says so when it gets another type', () => {
  test('nullable, nullish, optional and nullable, nested in an array: "… | null"; optional alone: not', () => {
    const S = v.strictObject({
      d: v.nullable(v.string()),
      e: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(3)))),
      f: v.nullish(v.number()),
      g: v.optional(v.number()),
      list: v.array(v.strictObject({ n: v.nullable(v.string()) })),
    });
    const r = v.safeParse(S, { d: 5, e: 6, f: 'x', g: 'y', list: [{ n: 1 }] });
    expect(r.success).toBe(false);
    const fields = (issuesToError('body', r.issues as never, S).details as { fields: { field: string; expected: string; message: string }[] }).fields;
    expect(fields.map((f) => [f.field, f.expected, f.message])).toEqual([
      ['d', 'string | null', 'd must be string or null (got a number)'],
      ['e', 'string | null', 'e must be string or null (got a number)'],
      ['f', 'number | null', 'f must be number or null (got a string)'],
      ['g', 'number', 'g must be number (got a string)'],
      ['list[0].n', 'string | null', 'list[0].n must be string or null (got a number)'],
    ]);
    // Without the schema, the issue's own word.
    const bare = (issuesToError('body', r.issues as never).details as { fields: { expected: string }[] }).fields;
    expect(bare[0]!.expected).toBe('string');
  });
});
