// INVALID_REQUEST has one shape, whatever check raised it: details.fields[] with each field, where
// it was, and a plain message that never echoes the value sent (docs/conventions.md).
import { describe, expect, test } from 'bun:test';
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
