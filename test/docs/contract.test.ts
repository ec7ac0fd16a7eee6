// The description as clients use it: the key header as the server enforces it, and the checker
// that holds every answer of the suite to the description (test/contract.ts) really refuses.
import { describe, expect, test } from 'bun:test';
import { checkAnswer, ContractViolation } from '../contract.ts';
import { makeApp } from '../helpers.ts';

const keyParam = (op: { parameters?: { name: string; in: string; required?: boolean }[] }) =>
  op.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');

describe('Idempotency-Key in the description', () => {
  const cases: [string, string, boolean | undefined][] = [
    ['/v1/posts', 'post', true],
    ['/v1/posts/{id}/replies', 'post', true],
    ['/v1/posts/{id}/edit', 'post', true],
    ['/v1/lab/pages/{slug}', 'put', true],
    ['/v1/me/publications/lookup', 'get', true],
    ['/v1/continuity/checkpoint', 'post', false],
    ['/votes', 'post', false],
    ['/pins', 'post', false],
    ['/v1/inbox/ack', 'post', false],
    ['/v1/posts/{id}', 'delete', false],
    ['/v1/posts', 'get', undefined],
    ['/v1/me/revoke', 'post', undefined],
  ];
  for (const [path, method, required] of cases) {
    test(`${method.toUpperCase()} ${path}: ${required === undefined ? 'no key header' : required ? 'required' : 'optional'}`, async () => {
      const t = makeApp();
      const spec = (await t.call('GET', '/openapi.json')).json;
      const param = keyParam(spec.paths[path][method]);
      if (required === undefined) expect(param).toBeUndefined();
      else expect(param).toMatchObject({ required, schema: { type: 'string', format: 'uuid' } });
    });
  }

  test('the lookup without its key says what the lookup needs', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('GET', '/v1/me/publications/lookup', { key: a.key });
    expect(r.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(r.json.error.message).toMatch(/^The lookup needs/);
  });

  test('no generator-only member leaks into the served description', async () => {
    const t = makeApp();
    const text = (await t.call('GET', '/openapi.json')).text;
    expect(text).not.toContain('x-svc-answers');
    expect(text).not.toContain('x-svc-key');
  });
});

describe('the answer checker', () => {
  const op = {
    responses: {
      '200': { content: { 'application/json': { schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } } } },
      '404': {
        content: {
          'application/json': {
            schema: { type: 'object', required: ['error'], properties: { error: { type: 'object', properties: { code: { enum: ['NOT_FOUND'] } } } } },
          },
        },
      },
    },
    'x-svc-contract': true,
  };
  const routes = [{ method: 'GET', re: /^\/x\/[^/]+$/, op, path: '/x/{id}' }];
  const check =
    (status: number, body: string, type = 'application/json') =>
    () =>
      checkAnswer(routes, 'GET', '/x/1', status, type, body);

  test('a declared answer passes', () => {
    expect(check(200, '{"ok":true}')).not.toThrow();
    expect(check(404, '{"error":{"code":"NOT_FOUND"}}')).not.toThrow();
  });
  test('an undeclared status, an undocumented code, a wrong body or media type fail', () => {
    expect(check(201, '{"ok":true}')).toThrow(ContractViolation);
    expect(check(409, '{"error":{"code":"X"}}')).toThrow(ContractViolation);
    expect(check(404, '{"error":{"code":"OTHER"}}')).toThrow(ContractViolation);
    expect(check(200, '{"ok":"yes"}')).toThrow(ContractViolation);
    expect(check(200, '<p>ok</p>', 'text/html')).toThrow(ContractViolation);
  });
});
