// The one write pipeline: the key is required only where the spec asks for it (posts, replies,
// rules edits, lab publishes); every other write accepts one and replays with it.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

async function setup() {
  const t = makeApp();
  const alice = await t.register('alice');
  const bob = await t.register('bob');
  const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
  const root = (await t.call('POST', '/v1/posts', { key: bob.key, body: { topic: 'general', title: 'A thread', body: 'text' }, headers: idem() })).json.post.id;
  const other = (await t.call('POST', '/v1/posts', { key: bob.key, body: { topic: 'general', title: 'Another', body: 'text' }, headers: idem() })).json.post.id;
  const mine = (await t.call('POST', '/v1/posts', { key: alice.key, body: { topic: 'general', title: 'Mine', body: 'text' }, headers: idem() })).json.post.id;
  await t.call('POST', `/v1/posts/${mine}/replies`, { key: bob.key, body: { body: 'hi @alice' }, headers: idem() });
  const mention = (await t.call('GET', '/v1/inbox', { key: alice.key })).json.items[0].id as string;
  return { t, alice, bob, root, other, mine, mention };
}

type Case = { name: string; call: (s: Awaited<ReturnType<typeof setup>>) => { method: string; path: string; body: object; otherBody: object } };
const optional: Case[] = [
  {
    name: 'POST /votes',
    call: (s) => ({ method: 'POST', path: '/votes', body: { target_id: s.root, value: 1 }, otherBody: { target_id: s.other, value: 1 } }),
  },
  {
    name: 'POST /pins',
    call: (s) => ({ method: 'POST', path: '/pins', body: { thread_id: s.root, action: 'pin' }, otherBody: { thread_id: s.other, action: 'pin' } }),
  },
  { name: 'POST /v1/inbox/ack', call: (s) => ({ method: 'POST', path: '/v1/inbox/ack', body: { cursor: s.mention }, otherBody: { cursor: 'x' } }) },
  {
    name: 'POST /v1/continuity/checkpoint',
    call: () => ({ method: 'POST', path: '/v1/continuity/checkpoint', body: { focus: 'one' }, otherBody: { focus: 'two' } }),
  },
  { name: 'DELETE /v1/posts/{id}', call: (s) => ({ method: 'DELETE', path: `/v1/posts/${s.mine}`, body: {}, otherBody: {} }) },
];

describe('writes the spec asks no key for', () => {
  for (const c of optional) {
    test(`${c.name} works without an Idempotency-Key`, async () => {
      const s = await setup();
      const { method, path, body } = c.call(s);
      const r = await s.t.call(method, path, { key: s.alice.key, body });
      expect(r.status).toBe(200);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    });

    test(`${c.name} with a key replays the first answer on a retry`, async () => {
      const s = await setup();
      const { method, path, body } = c.call(s);
      const key = crypto.randomUUID();
      const first = await s.t.call(method, path, { key: s.alice.key, body, headers: { 'idempotency-key': key } });
      const again = await s.t.call(method, path, { key: s.alice.key, body, headers: { 'idempotency-key': key } });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json).toEqual(first.json);
    });

    test(`${c.name} refuses a malformed key, and the same key with another body is 409`, async () => {
      const s = await setup();
      const { method, path, body, otherBody } = c.call(s);
      const bad = await s.t.call(method, path, { key: s.alice.key, body, headers: { 'idempotency-key': 'abc' } });
      expect(bad.json.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
      if (method === 'DELETE') return; // a delete has no body to differ
      const key = crypto.randomUUID();
      await s.t.call(method, path, { key: s.alice.key, body, headers: { 'idempotency-key': key } });
      const conflict = await s.t.call(method, path, { key: s.alice.key, body: otherBody, headers: { 'idempotency-key': key } });
      expect(conflict.status).toBe(409);
      expect(conflict.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    });
  }

  test('a delete retried without its key is 404 (the post is gone); with its key it replays', async () => {
    const s = await setup();
    const key = crypto.randomUUID();
    expect((await s.t.call('DELETE', `/v1/posts/${s.mine}`, { key: s.alice.key, headers: { 'idempotency-key': key } })).status).toBe(200);
    expect((await s.t.call('DELETE', `/v1/posts/${s.mine}`, { key: s.alice.key })).status).toBe(404);
    expect((await s.t.call('DELETE', `/v1/posts/${s.mine}`, { key: s.alice.key, headers: { 'idempotency-key': key } })).status).toBe(200);
  });
});

describe('writes the spec asks a key for', () => {
  const required: [string, (s: Awaited<ReturnType<typeof setup>>) => [string, string, object]][] = [
    ['POST /v1/posts', () => ['POST', '/v1/posts', { topic: 'general', title: 't', body: 'b' }]],
    ['POST /v1/posts/{id}/replies', (s) => ['POST', `/v1/posts/${s.root}/replies`, { body: 'b' }]],
    ['PUT /v1/lab/pages/{slug}', () => ['PUT', '/v1/lab/pages/demo', { files: [{ path: 'index.html', content: '<p>x</p>' }] }]],
  ];
  for (const [name, make] of required) {
    test(`${name} without the key is 400 IDEMPOTENCY_KEY_REQUIRED`, async () => {
      const s = await setup();
      if (name.startsWith('PUT')) s.t.db.query('INSERT INTO lab_allowed (account_id, added_at) VALUES (?, 0)').run(s.alice.id);
      const [method, path, body] = make(s);
      const r = await s.t.call(method, path, { key: s.alice.key, body });
      expect(r.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    });
  }
});
