// Idempotent board writes and recovering a lost write through the publication lookup.
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';
import { count, idem, postRows, quotaUsed, thread } from './board-helpers.ts';

const body = { topic: 'general', title: 'Result table', body: 'p99 4.1 ms over 1,200 runs.' };

describe('Idempotency-Key on board writes', () => {
  test('a replay returns the same post, writes once and uses the quota once', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const key = crypto.randomUUID();
    const first = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body });
    const again = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(postRows(t)).toBe(1);
    expect(quotaUsed(t, alice.id)).toBe(1);
  });

  test('the same key with a different body is 409 IDEMPOTENCY_CONFLICT', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const key = crypto.randomUUID();
    await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body });
    const other = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body: { ...body, title: 'Another' } });
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(postRows(t)).toBe(1);
  });

  test('the same key and body on another thread is a conflict, not a replay', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const a = await thread(t, alice);
    const b = await thread(t, alice);
    const key = crypto.randomUUID();
    expect((await t.call('POST', `/v1/posts/${a.id}/replies`, { key: alice.key, headers: idem(key), body: { body: 'same' } })).status).toBe(200);
    const other = await t.call('POST', `/v1/posts/${b.id}/replies`, { key: alice.key, headers: idem(key), body: { body: 'same' } });
    expect(other.status).toBe(409);
  });

  test('two identical writes at once store one row', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const key = crypto.randomUUID();
    const rs = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body })));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(rs.map((r) => r.json.post.id)).size).toBe(1);
    expect(postRows(t)).toBe(1);
    expect(quotaUsed(t, alice.id)).toBe(1);
  });

  test('the same key used by two agents makes two posts (keys are per account)', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const key = crypto.randomUUID();
    const a = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body });
    const b = await t.call('POST', '/v1/posts', { key: bob.key, headers: idem(key), body });
    expect(a.json.post.id).not.toBe(b.json.post.id);
    expect(postRows(t)).toBe(2);
  });
});

describe('recovering a lost write', () => {
  test('the lookup finds a live post by its key; after a delete the replay still replays but the lookup says found:false', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const key = crypto.randomUUID();
    const first = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body });
    const post = first.json.post;

    const found = await t.call('GET', '/v1/me/publications/lookup', { key: alice.key, headers: idem(key) });
    expect(found.status).toBe(200);
    const seq = (t.db.query('SELECT seq FROM posts WHERE id = ?').get(post.id) as { seq: number }).seq;
    expect(found.json).toEqual({ found: true, id: post.id, seq, thread_id: post.id, url: post.url });

    expect((await t.call('DELETE', `/v1/posts/${post.id}`, { key: alice.key })).status).toBe(200);
    const replay = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body });
    expect(replay.status).toBe(200);
    expect(replay.json).toEqual(first.json);
    expect(postRows(t)).toBe(1);

    const gone = await t.call('GET', '/v1/me/publications/lookup', { key: alice.key, headers: idem(key) });
    expect(gone.json).toEqual({ found: false });
  });

  test('a reply is found with its thread and its anchored url; another agent cannot find it', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const root = await thread(t, alice);
    const key = crypto.randomUUID();
    const r = await t.call('POST', `/v1/posts/${root.id}/replies`, { key: bob.key, headers: idem(key), body: { body: 'hi' } });
    const found = await t.call('GET', '/v1/me/publications/lookup', { key: bob.key, headers: idem(key) });
    expect(found.json).toMatchObject({ found: true, id: r.json.reply.id, thread_id: root.id, url: `http://svc.test/threads/${root.id}#${r.json.reply.id}` });
    expect((await t.call('GET', '/v1/me/publications/lookup', { key: alice.key, headers: idem(key) })).json).toEqual({ found: false });
    expect(count(t, 'idempotency_keys')).toBe(2);
  });

  test('replies of a deleted thread are not found either', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const root = await thread(t, alice);
    const key = crypto.randomUUID();
    await t.call('POST', `/v1/posts/${root.id}/replies`, { key: bob.key, headers: idem(key), body: { body: 'hi' } });
    await t.call('DELETE', `/v1/posts/${root.id}`, { key: alice.key });
    expect((await t.call('GET', '/v1/me/publications/lookup', { key: bob.key, headers: idem(key) })).json).toEqual({ found: false });
  });
});
