// POST /v1/posts/{id}/replies and DELETE /v1/posts/{id}.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';
import { count, idem, postRows, reply, thread } from './board-helpers.ts';

describe('POST /v1/posts/{id}/replies', () => {
  test('a reply comes back in the post shape, raises the root reply_count and reads back oldest first', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const root = await thread(t, alice);
    const r = await t.call('POST', `/v1/posts/${root.id}/replies`, { key: bob.key, headers: idem(), body: { body: 'Started: now' } });
    expect(r.status).toBe(200);
    expect(r.json.reply).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'reply',
      thread_id: root.id,
      reply_to_id: null,
      topic: 'general',
      title: null,
      body: 'Started: now',
      prefix: 'Started',
      author: 'bobby',
      created_at: '2026-11-23T12:00:00.000Z',
      edited_at: null,
      score: 0,
      reply_count: null,
      url: `http://svc.test/threads/${root.id}#${r.json.reply.id}`,
    });
    expect(r.json.posting_quota.used).toBe(1);
    t.clock.advance(1000);
    const second = await reply(t, alice, root.id, { body: 'second', reply_to_id: r.json.reply.id });
    const read = await t.call('GET', `/v1/posts/${root.id}`, { key: alice.key });
    expect(read.json.post.reply_count).toBe(2);
    expect(read.json.replies.map((x: { id: string }) => x.id)).toEqual([r.json.reply.id, second.id]);
    expect(read.json.replies[1].reply_to_id).toBe(r.json.reply.id);
  });

  test('naming a reply in the path answers that reply in its thread', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    const first = await reply(t, alice, root.id);
    const answer = await reply(t, alice, first.id, { body: 'answering the reply' });
    expect(answer.thread_id).toBe(root.id);
    expect(answer.reply_to_id).toBe(first.id);
  });

  test('a reply to a deleted or unknown thread is 404 and stores nothing', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    await t.call('DELETE', `/v1/posts/${root.id}`, { key: alice.key });
    for (const id of [root.id, crypto.randomUUID(), 'not-a-uuid']) {
      const r = await t.call('POST', `/v1/posts/${id}/replies`, { key: alice.key, headers: idem(), body: { body: 'hello?' } });
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('NOT_FOUND');
    }
    expect(postRows(t)).toBe(1);
  });

  test('reply_to_id must be a live reply of the same thread, else 400 INVALID_REPLY_TO', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const a = await thread(t, alice);
    const b = await thread(t, alice);
    const inB = await reply(t, alice, b.id);
    const deleted = await reply(t, alice, a.id);
    await t.call('DELETE', `/v1/posts/${deleted.id}`, { key: alice.key });
    const cases: [string, unknown][] = [
      ['a reply of another thread', inB.id],
      ['the root itself', a.id],
      ['a deleted reply', deleted.id],
      ['an unknown id', crypto.randomUUID()],
      ['not a uuid', 'abc'],
    ];
    for (const [name, replyTo] of cases) {
      const r = await t.call('POST', `/v1/posts/${a.id}/replies`, { key: alice.key, headers: idem(), body: { body: 'B', reply_to_id: replyTo } });
      expect(r.status, name).toBe(400);
      expect(r.json.error.code, name).toBe('INVALID_REPLY_TO');
    }
    expect(postRows(t)).toBe(4);
  });

  test('a reply needs a body within budget and an Idempotency-Key', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    const path = `/v1/posts/${root.id}/replies`;
    expect((await t.call('POST', path, { key: alice.key, headers: idem(), body: { body: ' ' } })).json.error.code).toBe('INVALID_REQUEST');
    expect((await t.call('POST', path, { key: alice.key, headers: idem(), body: {} })).json.error.code).toBe('INVALID_REQUEST');
    expect((await t.call('POST', path, { key: alice.key, headers: idem(), body: { body: 'x'.repeat(20_001) } })).status).toBe(413);
    expect((await t.call('POST', path, { key: alice.key, body: { body: 'B' } })).json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(postRows(t)).toBe(1);
  });
});

describe('DELETE /v1/posts/{id}', () => {
  test('deleting a root deletes its replies and the thread vanishes from every read', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const root = await thread(t, alice);
    const r1 = await reply(t, bob, root.id);
    await reply(t, alice, root.id);
    const del = await t.call('DELETE', `/v1/posts/${root.id}`, { key: alice.key });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: true, id: root.id });
    expect(count(t, 'posts WHERE thread_id = ? AND deleted_at IS NULL', root.id)).toBe(0);
    expect((await t.call('GET', `/v1/posts/${root.id}`, { key: bob.key })).status).toBe(404);
    expect((await t.call('GET', `/v1/posts/${r1.id}`, { key: bob.key })).status).toBe(404);
    expect((await t.call('GET', '/v1/posts', { key: bob.key })).json.posts).toEqual([]);
    expect((await t.call('GET', '/v1/activity', { key: bob.key })).json.items).toEqual([]);
    // Bob's reply went with the thread: deleting it again is a 404.
    expect((await t.call('DELETE', `/v1/posts/${r1.id}`, { key: bob.key })).status).toBe(404);
  });

  test('deleting a reply lowers the root reply_count and leaves the rest of the thread', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    const r1 = await reply(t, alice, root.id);
    const r2 = await reply(t, alice, root.id);
    expect((await t.call('DELETE', `/v1/posts/${r1.id}`, { key: alice.key })).status).toBe(200);
    const read = await t.call('GET', `/v1/posts/${root.id}`, { key: alice.key });
    expect(read.json.post.reply_count).toBe(1);
    expect(read.json.replies.map((x: { id: string }) => x.id)).toEqual([r2.id]);
  });

  test("deleting someone else's post is 403 NOT_OWNER and deletes nothing", async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const root = await thread(t, alice);
    const r = await t.call('DELETE', `/v1/posts/${root.id}`, { key: bob.key });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('NOT_OWNER');
    expect((await t.call('GET', `/v1/posts/${root.id}`, { key: bob.key })).status).toBe(200);
  });

  test('an unknown or already deleted post is 404', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    expect((await t.call('DELETE', `/v1/posts/${root.id}`, { key: alice.key })).status).toBe(200);
    expect((await t.call('DELETE', `/v1/posts/${root.id}`, { key: alice.key })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/posts/${crypto.randomUUID()}`, { key: alice.key })).status).toBe(404);
  });

  test('the rules root cannot be deleted (403 NOT_ALLOWED)', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const r = await t.call('DELETE', '/v1/posts/00000000-0000-7000-8000-000000000002', { key: alice.key });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('NOT_ALLOWED');
  });
});
