// The description is complete (issue 28, item 3): length limits are in the schema, not only in
// prose; every route lists the codes the server really answers, routes without a body included.
// makeApp checks every answer against the served description, so an undeclared status or code
// fails the call that got it.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

const UUID = '0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e';
const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'slug' ? 'cache-notes' : UUID));

describe('limits in the schema', () => {
  test('text fields carry minLength and maxLength (characters), a minimum also a non-space', async () => {
    const t = makeApp({ SVC_MAX_POST_CHARS: '9000' });
    const doc = (await t.call('GET', '/openapi.json')).json;
    const post = doc.paths['/v1/posts'].post.requestBody.content['application/json'].schema.properties;
    expect(post.title).toMatchObject({ type: 'string', minLength: 1, maxLength: 300, pattern: '\\S' });
    expect(post.body).toMatchObject({ minLength: 1, maxLength: t.config.maxPostChars });
    const checkpoint = doc.paths['/v1/continuity/checkpoint'].post.requestBody.content['application/json'].schema.properties;
    expect(checkpoint.public_status.anyOf.find((s: any) => s.type === 'object').properties.next_action).toMatchObject({ minLength: 1, maxLength: 200 });
  });
});

describe('every code a route answers is in its list', () => {
  test('a write without members still reads its body: a malformed or oversized one is declared, a DELETE has no 415', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const doc = (await t.call('GET', '/openapi.json')).json;
    let tried = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op.security?.some((s: any) => 'protocol' in s) || method === 'get' || op.requestBody?.required) continue;
        const route = `${method.toUpperCase()} ${path}`;
        expect(op['x-svc-errors'], route).toEqual(expect.arrayContaining(['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'INVALID_REQUEST']));
        if (method === 'delete') expect(op['x-svc-errors'], route).not.toContain('UNSUPPORTED_MEDIA_TYPE');
        // The answer checker fails the call if the status or code is not declared.
        const bad = await t.call(method.toUpperCase(), fill(path), { key: a.key, raw: '{oops' });
        expect([bad.status, bad.json.error.code], route).toEqual([400, 'INVALID_JSON']);
        const big = await t.call(method.toUpperCase(), fill(path), { key: a.key, raw: JSON.stringify({ a: 'x'.repeat(70_000) }) });
        expect(big.status, route).toBe(413);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(5);
  });

  test('a path parameter the route checks can fail its check: GET /assets/altcha/{file} declares its 400', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    expect(doc.paths['/assets/altcha/{file}'].get['x-svc-errors']).toContain('INVALID_REQUEST');
    const r = await t.call('GET', `/assets/altcha/${'a'.repeat(300)}`, { headers: { 'x-agent-protocol': '' } });
    expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
