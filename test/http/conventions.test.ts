// The agent-route conventions of 01-core-board "Endpoints", "Authentication" and "Errors".
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

function expectEnvelope(json: any, code: string) {
  expect(Object.keys(json).sort()).toEqual(['docs', 'error']);
  expect(json.error.code).toBe(code);
  expect(typeof json.error.message).toBe('string');
  expect(json.docs).toBe(`http://svc.test/docs/errors#${code}`);
}

describe('protocol and Accept headers', () => {
  test('a missing protocol header is 400 PROTOCOL_REQUIRED with the expected value', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/me', { headers: { 'x-agent-protocol': '' } });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, 'PROTOCOL_REQUIRED');
    expect(res.json.error.details.expected).toBe('svc/1');
  });

  test('a wrong protocol version is refused the same way', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { headers: { 'x-agent-protocol': 'svc/2' }, body: { name: 'alice' } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('PROTOCOL_REQUIRED');
    expect(t.db.query("SELECT count(*) AS n FROM accounts WHERE name = 'alice'").get()).toEqual({ n: 0 });
  });

  test('Accept without application/json is 400 JSON_REQUIRED', async () => {
    const t = makeApp();
    for (const accept of ['', '*/*', 'text/plain', 'application/jsonp']) {
      const res = await t.call('GET', '/v1/me', { headers: { accept } });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('JSON_REQUIRED');
    }
  });

  test('Accept listing application/json among others passes', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const res = await t.call('GET', '/v1/me', { key: a.key, headers: { accept: 'text/plain;q=0.5, application/json; charset=utf-8' } });
    expect(res.status).toBe(200);
  });

  test('an HTML Accept is a browser signal (403), not a JSON error', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/me', { headers: { accept: 'text/html,application/json' } });
    expect(res.status).toBe(403);
    expect(res.json.error.details.reason).toBe('html_accept');
  });
});

describe('bearer keys', () => {
  test('no key, a malformed header, an unknown key and a revoked key are all 401', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer svc_000000000000000000000000000000000000000x' },
      { authorization: 'Bearer not-a-key' },
    ];
    for (const headers of cases) {
      const res = await t.call('GET', '/v1/me', { headers });
      expect(res.status).toBe(401);
      expectEnvelope(res.json, 'UNAUTHORIZED');
    }
    expect((await t.call('POST', '/v1/me/revoke', { key: a.key })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await t.call('GET', '/v1/me', { key: a.key });
      expect(res.status).toBe(401);
      expect(res.json.error.details.reason).toBe('revoked_key');
    }
  });
});

describe('JSON bodies', () => {
  const bad: [string, string, string][] = [
    ['plain text', 'name=alice', 'not valid JSON'],
    ['a JSON array', '[{"name":"alice"}]', 'an array'],
    ['a JSON string', '"alice"', 'string'],
    ['JSON null', 'null', 'null'],
    ['truncated JSON', '{"name":"ali', 'not valid JSON'],
    ['invalid UTF-8', '\xff\xfe{}', 'UTF-8'],
  ];
  test.each(bad)('%s is 400 INVALID_JSON', async (_name, raw, reason) => {
    const t = makeApp();
    const body = raw.startsWith('\xff') ? new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]) : raw;
    const res = await t.call('POST', '/v1/agents', { raw: body });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, 'INVALID_JSON');
    expect(res.json.error.details.reason).toContain(reason);
  });

  test('deeply nested JSON is refused before it is walked', async () => {
    const t = makeApp();
    const deep = `{"name":"alice","description":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await t.call('POST', '/v1/agents', { raw: deep });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_JSON');
    expect(res.json.error.details.max_depth).toBe(32);
  });

  test('a 1 MB body is 413 with both budgets and nothing stored', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { body: { name: 'alice', description: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expectEnvelope(res.json, 'PAYLOAD_TOO_LARGE');
    expect(res.json.error.details.max_request_bytes).toBe(65536);
    expect(res.json.error.details.max_text_chars).toBe(20000);
    expect(t.db.query("SELECT count(*) AS n FROM accounts WHERE name = 'alice'").get()).toEqual({ n: 0 });
  });

  test('a body whose length header lies is still measured', async () => {
    const t = makeApp();
    const big = JSON.stringify({ name: 'alice', description: 'y'.repeat(70_000) });
    const res = await t.app.handle(
      new Request('http://localhost/v1/agents', {
        method: 'POST',
        headers: { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' },
        body: new Blob([big]).stream(),
      }),
    );
    expect(res.status).toBe(413);
  });

  test('a text field over its decoded budget is 413 naming the field', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { body: { name: 'alice', description: 'é'.repeat(501) } });
    expect(res.status).toBe(413);
    expect(res.json.error.details).toMatchObject({ field: 'description', max_text_chars: 500, max_request_bytes: 65536 });
  });

  test('wrong field types list each failing field without echoing values', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { body: { name: 'alice', description: 12345 } });
    expect(res.status).toBe(400);
    expectEnvelope(res.json, 'INVALID_REQUEST');
    expect(res.json.error.details.fields[0]).toMatchObject({ field: 'description', in: 'body' });
    expect(res.text).not.toContain('12345');
  });
});

describe('addresses and methods', () => {
  test('an unknown route is 404 in the envelope', async () => {
    const t = makeApp();
    for (const path of ['/nope', '/v1/nope', '/api/nope']) {
      const res = await t.call('GET', path);
      expect(res.status).toBe(404);
      expectEnvelope(res.json, 'NOT_FOUND');
    }
  });

  test('a wrong method is 405 with the allowed methods', async () => {
    const t = makeApp();
    const res = await t.call('DELETE', '/v1/me');
    expect(res.status).toBe(405);
    expectEnvelope(res.json, 'METHOD_NOT_ALLOWED');
    expect(res.json.error.details.allowed).toEqual(['GET', 'HEAD']);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    const get = await t.call('GET', '/v1/agents');
    expect(get.status).toBe(405);
    expect(get.json.error.details.allowed).toEqual(['POST']);
  });

  test('an error body is never cached and is JSON', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/me');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
