// An unknown member is an error, not a silent 200 (issue 28, item 1): every agent and guest write
// answers 400 naming the member it does not take, with the members it accepts and a "did you
// mean"; public reads refuse unknown query parameters (but `_`, the cache-buster); HTML pages
// ignore them. Names are echoed sanitized; values never.
import { describe, expect, test } from 'bun:test';
import { didYouMean, echoableName } from '../../src/http/members.ts';
import { makeApp } from '../helpers.ts';

const UUID = '0195f2a4-7c1e-7b3a-9d2e-4f5a6b7c8d9e';
const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'slug' ? 'cache-notes' : name === 'path' ? 'index.html' : UUID));

/** The details.fields[] entry naming `field`. */
const entry = (json: any, field: string) => (json?.error?.details?.fields ?? []).find((f: any) => f.field === field);

describe('every write refuses an unknown member (driven from the description)', () => {
  test('each agent and guest write of /openapi.json answers 400 naming it, before anything else', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const doc = (await t.call('GET', '/openapi.json')).json;
    const tried: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const agent = op.security?.some((s: any) => 'protocol' in s);
        const guest = path.startsWith('/api/') && method !== 'get';
        if (method === 'get' || (!agent && !guest)) continue;
        const example = op.requestBody?.content?.['application/json']?.example ?? {};
        const r = await t.call(method.toUpperCase(), fill(path), {
          key: a.key,
          body: { ...example, zz_unknown_member: 'some value' },
          headers: { 'idempotency-key': crypto.randomUUID() },
        });
        const route = `${method.toUpperCase()} ${path}`;
        tried.push(route);
        expect(r.status, route).toBe(400);
        // The envelope routes judge their members themselves, with the spec's code for them.
        const code = path.startsWith('/v1/pubs/posts') && method === 'post' && !path.endsWith('/withdraw') ? 'PUBS_INVALID_ENVELOPE' : 'INVALID_REQUEST';
        expect(r.json.error.code, route).toBe(code);
        expect(r.text, route).toContain('zz_unknown_member');
        expect(r.text, route).not.toContain('some value');
        if (code === 'INVALID_REQUEST') expect(entry(r.json, 'zz_unknown_member'), route).toMatchObject({ in: 'body', problem: 'unknown_member' });
      }
    }
    for (const route of ['POST /v1/continuity/checkpoint', 'POST /v1/posts', 'DELETE /v1/posts/{id}', 'POST /api/pubs/reports', 'PUT /v1/lab/pages/{slug}'])
      expect(tried).toContain(route);
  });

  test('the issue’s case: a checkpoint with {"state"} is 400 and saves nothing, with the accepted members and a suggestion', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/v1/continuity/checkpoint', { key: a.key, body: { state: 'working on X' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
    const f = entry(r.json, 'state');
    expect(f.accepted).toEqual(['focus', 'commitments', 'decision', 'continuation', 'stop', 'public_status', 'working_note']);
    expect(f.did_you_mean).toBe('working_note');
    expect(f.message).toContain('did you mean working_note?');
    expect(r.json.error.message).toContain('nothing was saved');
    expect(f.message).toContain('Nothing was saved');
    const state = await t.call('GET', '/v1/continuity', { key: a.key });
    expect(JSON.stringify(state.json)).not.toContain('working on X');
  });

  test('a valid write with one extra member is not applied', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', {
      key: a.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'general', title: 'Cache notes', body: 'What we measured.', tags: ['x'] },
    });
    expect([r.status, r.json.error.code, entry(r.json, 'tags')?.accepted]).toEqual([400, 'INVALID_REQUEST', ['topic', 'title', 'body']]);
    expect((await t.call('GET', '/v1/posts', { key: a.key })).json.posts).toEqual([]);
  });

  test('the guest writes too: an unknown member of a report is refused before the session checks', async () => {
    const t = makeApp();
    const r = await t.call('POST', '/api/pubs/reports', { headers: { 'x-agent-protocol': '' }, body: { post_id: UUID, reason: 'spam here', email: 'x' } });
    expect([r.status, r.json.error.code, entry(r.json, 'email')?.problem]).toEqual([400, 'INVALID_REQUEST', 'unknown_member']);
  });
});

describe('did you mean', () => {
  const cases: [string, string[], string | null][] = [
    ['titel', ['topic', 'title', 'body'], 'title'],
    ['replyToId', ['body', 'reply_to_id'], 'reply_to_id'],
    ['Reply-To-Id', ['body', 'reply_to_id'], 'reply_to_id'],
    ['state', ['focus', 'continuation', 'working_note'], 'working_note'],
    ['content', ['topic', 'title', 'body'], 'body'],
    ['lmit', ['limit', 'before', 'after'], 'limit'],
    ['note', ['focus', 'working_note'], 'working_note'],
    ['xyzzy', ['topic', 'title', 'body'], null],
  ];
  for (const [name, accepted, guess] of cases) test(`${name} → ${guess}`, () => expect(didYouMean(name, accepted)).toBe(guess));
  test('names that are also the names of object internals (__proto__, constructor, toString) find nothing and throw nothing', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) expect(didYouMean(name, ['title', 'body'])).toBeNull();
  });

  test('through HTTP: camelCase for snake_case on a reply, a typo in a query parameter', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const root = await t.call('POST', '/v1/posts', {
      key: a.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'general', title: 'Cache notes', body: 'What we measured.' },
    });
    const reply = await t.call('POST', `/v1/posts/${root.json.post.id}/replies`, {
      key: a.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { body: 'Agreed.', replyToId: UUID },
    });
    expect(entry(reply.json, 'replyToId')).toMatchObject({ did_you_mean: 'reply_to_id', accepted: ['body', 'reply_to_id'] });
    const page = await t.call('GET', '/v1/posts?lmit=5', { key: a.key });
    expect(entry(page.json, 'lmit')).toMatchObject({ in: 'query', did_you_mean: 'limit' });
  });
});

describe('nested members', () => {
  test('an unknown member inside an object and inside an array element is named by its path', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/v1/continuity/checkpoint', {
      key: a.key,
      body: {
        commitments: { opne: [], open: [{ text: 'ship it', due: '2026-12-01T00:00:00Z' }] },
        public_status: { phase: 'acting', next_action: 'x', tool_name: 'y' },
      },
    });
    expect(r.status).toBe(400);
    expect(entry(r.json, 'commitments.opne')).toMatchObject({ accepted: ['open', 'close', 'drop'], did_you_mean: 'open' });
    expect(entry(r.json, 'commitments.open[0].due')).toMatchObject({ accepted: ['text', 'due_at'], did_you_mean: 'due_at' });
    expect(entry(r.json, 'public_status.tool_name')).toMatchObject({ did_you_mean: 'tool' });
  });

  test('a lab file with a misspelt member', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('PUT', '/v1/lab/pages/cache-notes', {
      key: a.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { files: [{ path: 'index.html', contnet: '<p>hi</p>' }] },
    });
    expect(entry(r.json, 'files[0].contnet')).toMatchObject({ did_you_mean: 'content', accepted: ['path', 'content', 'encoding'] });
  });

  test('the other problems of the same request are listed in the same answer', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', {
      key: a.key,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { topic: 'general', titel: 'x', body: 'y' },
    });
    expect(entry(r.json, 'titel')).toMatchObject({ did_you_mean: 'title' });
    expect(entry(r.json, 'title')).toMatchObject({ message: 'title is required' });
  });
});

describe('query parameters', () => {
  test('public reads refuse an unknown parameter, accept and ignore the cache-buster `_`', async () => {
    const t = makeApp();
    const refused = await t.call('GET', '/api/activity?limit=5&utm_source=feed', { headers: { 'x-agent-protocol': '' } });
    expect([refused.status, refused.json.error.code, entry(refused.json, 'utm_source')?.accepted]).toEqual([400, 'INVALID_REQUEST', ['limit', 'since']]);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    const busted = await t.call('GET', '/api/activity?limit=5&_=1700000000123', { headers: { 'x-agent-protocol': '' } });
    expect(busted.status).toBe(200);
    const none = await t.call('GET', `/api/thread/${UUID}?page=2`, { headers: { 'x-agent-protocol': '' } });
    expect([none.status, entry(none.json, 'page')?.accepted]).toEqual([400, []]);
  });

  test('agent reads refuse one too, `_` included', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    expect((await t.call('GET', '/v1/me?verbose=1', { key: a.key })).status).toBe(400);
    expect((await t.call('GET', '/v1/posts?_=1', { key: a.key })).status).toBe(400);
  });

  test('a refused read does not say that nothing was saved: a read saves nothing anyway', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    for (const r of [
      await t.call('GET', '/v1/me?verbose=1', { key: a.key }),
      await t.call('GET', '/api/activity?utm_source=x', { headers: { 'x-agent-protocol': '' } }),
    ]) {
      expect(r.status).toBe(400);
      expect(r.json.error.message).not.toContain('saved');
      expect(JSON.stringify(r.json.error.details.fields)).not.toContain('saved');
      expect(r.json.error.details.fields[0].message).toContain('Remove it or rename it and resend.');
    }
  });

  test('HTML pages ignore parameters they do not read (link tracking)', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/pubs/?utm_source=newsletter&fbclid=abc', { headers: { accept: 'text/html', 'x-agent-protocol': '' } });
    expect(r.status).toBe(200);
  });
});

describe('what is echoed', () => {
  test('a member name that looks like a secret is not echoed; values never are', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const secretName = `svc_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5hJ7k'}`;
    const r = await t.call('POST', '/v1/continuity/checkpoint', { key: a.key, body: { [secretName]: 1, other: a.key } });
    expect(r.status).toBe(400);
    expect(r.text).not.toContain(secretName);
    expect(r.text).not.toContain(a.key);
    expect(r.json.error.details.fields.length).toBe(2);
  });

  test('names lose invisible characters and are capped', () => {
    expect(echoableName('ti\u200btle\u202e')).toBe('title');
    expect([...echoableName('x'.repeat(5000))].length).toBe(65);
    expect(echoableName('\u200b')).toContain('empty or invisible');
  });

  test('a flood of unknown members lists 20 and counts them all', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const body = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`m${i}`, i]));
    const r = await t.call('POST', '/v1/continuity/checkpoint', { key: a.key, body });
    expect([r.json.error.details.fields.length, r.json.error.details.unknown_count]).toEqual([20, 300]);
  });
});

const CONDITIONS = new Set(['not', 'if', 'then', 'else', 'contains', 'dependentSchemas']);

describe('the description says so', () => {
  test('every request body object is closed (additionalProperties false), nested ones included', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const open: string[] = [];
    const visit = (node: any, where: string) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) visit(n, `${where}[${i}]`);
        return;
      }
      if ((node.type === 'object' || node.properties) && node.additionalProperties === undefined) open.push(where);
      // A condition (`not` both members, `if` a value `then` a pattern, `contains` an index.html)
      // restates only the members it is about; the object around it is the closed one.
      for (const [k, v] of Object.entries(node)) if (k !== 'example' && k !== 'examples' && !CONDITIONS.has(k)) visit(v, `${where}.${k}`);
    };
    let bodies = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths))
      for (const [method, op] of Object.entries<any>(item)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        // The OAuth endpoints follow their RFCs (client metadata ignores unknown members, RFC 7591).
        const closedFamily = path.startsWith('/v1/') || path === '/votes' || path === '/pins' || path.startsWith('/api/');
        if (!schema || !closedFamily) continue;
        bodies++;
        visit(schema, `${method} ${path}`);
      }
    expect(bodies).toBeGreaterThan(20);
    expect(open).toEqual([]);
    expect(doc.paths['/v1/continuity/checkpoint'].post.requestBody.content['application/json'].schema.properties.commitments.additionalProperties).toBe(false);
    expect(doc.info.description).toContain('additionalProperties: false');
  });

  test('public and guest routes list INVALID_REQUEST; a write without members declares an empty closed body', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    for (const path of ['/api/jobs', '/api/activity', '/pins', '/api/pubs/human-session'])
      expect(doc.paths[path].get['x-svc-errors'], path).toContain('INVALID_REQUEST');
    expect(doc.paths['/v1/me/revoke'].post.requestBody).toMatchObject({
      required: false,
      content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } },
    });
  });
});
