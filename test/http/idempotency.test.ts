// The reusable idempotency layer, driven through a small write route on the shared HTTP layer.
// (The board's routes use the same layer; their own tests cover posts end to end.)
import { describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { authPlugin } from '../../src/http/auth.ts';
import { fail } from '../../src/http/errors.ts';
import { canonicalJson, fingerprintOf, idempotencyKey, idempotentWrite, lookupPublication } from '../../src/http/idempotency.ts';
import { httpPlugin } from '../../src/http/plugin.ts';
import { AGENT_HEADERS, makeApp } from '../helpers.ts';

function harness() {
  const t = makeApp();
  t.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, account_id TEXT, text TEXT, deleted INTEGER DEFAULT 0)');
  // This context's parts, composed for the test: the service's publication kinds plus test notes.
  t.ctx.parts = {
    ...t.ctx.parts,
    publications: {
      ...t.ctx.parts.publications,
      test_note: (ctx, id) => {
        const row = ctx.db.query<{ id: number }, [string]>('SELECT id FROM notes WHERE id = ? AND deleted = 0').get(id);
        return row ? { id: String(row.id), seq: row.id, thread_id: String(row.id), url: `http://svc.test/notes/${row.id}` } : null;
      },
    },
  };
  const app: Elysia = new Elysia();
  const built = app
    .use(httpPlugin(t.ctx, () => app.routes))
    .use(authPlugin(t.ctx))
    .post(
      '/v1/notes',
      ({ body, account, request, set }) =>
        idempotentWrite(t.ctx, { accountId: account.id, key: idempotencyKey(request.headers), route: 'POST /v1/notes', body, set }, () => {
          if (body.text === 'refuse') fail('PRICE_TALK', { match: 'refuse', where: 'text' });
          const { id } = t.db
            .query<{ id: number }, [string, string]>('INSERT INTO notes (account_id, text) VALUES (?, ?) RETURNING id')
            .get(account.id, body.text)!;
          return { status: 201, body: { note: { id, text: body.text } }, publication: { kind: 'test_note', id: String(id) } };
        }),
      { auth: true, body: v.object({ text: v.string(), tags: v.optional(v.array(v.string())) }) },
    )
    .get('/v1/lookup', ({ account, request }) => lookupPublication(t.ctx, account.id, idempotencyKey(request.headers)), { auth: true });
  const send = async (key: string, method: string, path: string, idem?: string, body?: unknown) => {
    const headers: Record<string, string> = { ...AGENT_HEADERS, authorization: `Bearer ${key}` };
    if (idem !== undefined) headers['idempotency-key'] = idem;
    const res = await built.handle(new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    return { status: res.status, headers: res.headers, json: (await res.json()) as any };
  };
  const count = () => (t.db.query('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  return { t, send, count };
}

describe('Idempotency-Key', () => {
  test('missing or malformed keys are 400 with a clear code and an example', async () => {
    const { t, send, count } = harness();
    const a = await t.register('alice');
    const missing = await send(a.key, 'POST', '/v1/notes', undefined, { text: 'hi' });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const bad = await send(a.key, 'POST', '/v1/notes', 'not-a-uuid', { text: 'hi' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(bad.json.error.details.example).toMatch(/^[0-9a-f-]{36}$/);
    expect(count()).toBe(0);
  });

  test('the same key and body replays the first answer and writes nothing', async () => {
    const { t, send, count } = harness();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    const first = await send(a.key, 'POST', '/v1/notes', key, { text: 'hi', tags: ['x'] });
    expect(first.status).toBe(201);
    // Key order in the body does not make it a different request; key case neither.
    const again = await send(a.key, 'POST', '/v1/notes', key.toUpperCase(), { tags: ['x'], text: 'hi' });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(count()).toBe(1);
  });

  test('the same key with a different body is 409 IDEMPOTENCY_CONFLICT', async () => {
    const { t, send, count } = harness();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    await send(a.key, 'POST', '/v1/notes', key, { text: 'hi' });
    const res = await send(a.key, 'POST', '/v1/notes', key, { text: 'changed' });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    // It points to the lost-write lookup, which the accounts domain serves and names.
    expect(res.json.error.details).toMatchObject({ key, original_route: 'POST /v1/notes', lookup: '/v1/me/publications/lookup' });
    expect(count()).toBe(1);
  });

  test('two identical writes at once write once', async () => {
    const { t, send, count } = harness();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 8 }, () => send(a.key, 'POST', '/v1/notes', key, { text: 'racing' })));
    expect(new Set(results.map((r) => r.json.note.id)).size).toBe(1);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(count()).toBe(1);
  });

  test('keys are scoped to the account', async () => {
    const { t, send, count } = harness();
    const a = await t.register('alice');
    const b = await t.register('bob');
    const key = crypto.randomUUID();
    await send(a.key, 'POST', '/v1/notes', key, { text: 'hi' });
    const res = await send(b.key, 'POST', '/v1/notes', key, { text: 'other' });
    expect(res.status).toBe(201);
    expect(count()).toBe(2);
  });

  test('a refused write stores nothing and leaves the key free', async () => {
    const { t, send, count } = harness();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    expect((await send(a.key, 'POST', '/v1/notes', key, { text: 'refuse' })).status).toBe(422);
    expect(count()).toBe(0);
    expect((await send(a.key, 'POST', '/v1/notes', key, { text: 'fixed' })).status).toBe(201);
  });
});

describe('publication lookup', () => {
  test('finds a retained write by its key and never publishes', async () => {
    const { t, send, count } = harness();
    const a = await t.register('alice');
    const key = crypto.randomUUID();
    expect((await send(a.key, 'GET', '/v1/lookup', key)).json).toEqual({ found: false });
    const written = await send(a.key, 'POST', '/v1/notes', key, { text: 'hi' });
    const found = await send(a.key, 'GET', '/v1/lookup', key);
    expect(found.json).toEqual({
      found: true,
      id: String(written.json.note.id),
      seq: written.json.note.id,
      thread_id: String(written.json.note.id),
      url: `http://svc.test/notes/${written.json.note.id}`,
    });
    expect(count()).toBe(1);
    t.db.exec('UPDATE notes SET deleted = 1');
    expect((await send(a.key, 'GET', '/v1/lookup', key)).json).toEqual({ found: false });
  });

  test("another account's key is not found", async () => {
    const { t, send } = harness();
    const a = await t.register('alice');
    const b = await t.register('bob');
    const key = crypto.randomUUID();
    await send(a.key, 'POST', '/v1/notes', key, { text: 'hi' });
    expect((await send(b.key, 'GET', '/v1/lookup', key)).json).toEqual({ found: false });
  });

  test('the real lookup route needs the key in the header', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    // A key sent as a query parameter is an unknown parameter (the route takes none), named as such.
    const res = await t.call('GET', `/v1/me/publications/lookup?key=${crypto.randomUUID()}`, { key: a.key });
    expect([res.status, res.json.error.code, res.json.error.details.fields[0].field]).toEqual([400, 'INVALID_REQUEST', 'key']);
    const none = await t.call('GET', '/v1/me/publications/lookup', { key: a.key });
    expect(none.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const ok = await t.call('GET', '/v1/me/publications/lookup', { key: a.key, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(ok.json).toEqual({ found: false });
  });
});

describe('canonicalJson', () => {
  test('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});

describe('fingerprintOf', () => {
  // The definition, written the plain way: the fingerprints of keys stored before long strings
  // were hashed piece by piece must stay the same, or a replay across an upgrade would conflict.
  const reference = (value: unknown): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
  };
  const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex');
  const long = (tail: string, n = 70_000) => 'QUJD'.repeat(n / 4) + tail;

  test.each([
    ['a small body', { target_id: '01JB8Z', value: 1 }],
    [
      'long strings that need no escape (a lab publish)',
      {
        slug: 'tides',
        files: [
          { path: 'a.png', content: long(''), encoding: 'base64' },
          { path: 'b', content: long('==') },
        ],
      },
    ],
    ['just under and at the long-string length', { a: 'x'.repeat(4095), b: 'y'.repeat(4096) }],
    ['long strings with a quote, a backslash, a newline, a control', { q: long('"'), b: long('\\'), n: long('\n'), c: long('\u0001') }],
    ['long strings beyond ASCII: accents, U+2028, emoji, a lone surrogate', { e: long('é\u2028😀'), s: long('\ud800') }],
    ['arrays with holes and undefined members', { list: [1, undefined, long('')], gone: undefined, nested: { z: [long('')], a: null } }],
  ])('%s: the sha256 of the route and the canonical JSON', (_name, body) => {
    expect(fingerprintOf('PUT /v1/lab/pages/{slug}', body)).toBe(sha256(`PUT /v1/lab/pages/{slug}\n${reference(body)}`));
    expect(canonicalJson(body)).toBe(reference(body));
  });
});
