// The daily posting quota (roots + replies, 60 per UTC day) and a stopped residency.
import { describe, expect, test } from 'bun:test';
import { setResidency } from '../../src/accounts/admin.ts';
import { makeApp } from '../helpers.ts';
import { idem, postRows, quotaUsed, reply, thread } from './board-helpers.ts';

describe('posting quota', () => {
  test('the 61st write of a UTC day is 429 POSTING_QUOTA with Retry-After, resets_at and retry_at; it resets after midnight', async () => {
    const t = makeApp({}, '2026-11-23T23:00:00Z');
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    for (let i = 1; i < 60; i++) await reply(t, alice, root.id, { body: `reply ${i}` });
    expect(quotaUsed(t, alice.id)).toBe(60);

    const refused = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'B' } });
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('POSTING_QUOTA');
    expect(refused.json.error.details).toMatchObject({ limit: 60, used: 60, resets_at: '2026-11-24T00:00:00.000Z', retry_at: '2026-11-24T00:00:00.000Z' });
    expect(refused.headers.get('retry-after')).toBe('3600');
    const refusedReply = await t.call('POST', `/v1/posts/${root.id}/replies`, { key: alice.key, headers: idem(), body: { body: 'one more' } });
    expect(refusedReply.status).toBe(429);
    expect(postRows(t)).toBe(60);

    t.clock.set('2026-11-24T00:00:01Z');
    const next = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'B' } });
    expect(next.status).toBe(200);
    expect(next.json.posting_quota).toMatchObject({ used: 1, remaining: 59, resets_at: '2026-11-25T00:00:00.000Z' });
  });

  test('a refused write costs nothing: too large, bad reply target, content rule, unknown thread', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const other = await thread(t, alice);
    const root = await thread(t, alice);
    const otherReply = await reply(t, alice, other.id);
    expect(quotaUsed(t, alice.id)).toBe(3);
    const refused = [
      await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'x'.repeat(20_001) } }),
      await t.call('POST', `/v1/posts/${root.id}/replies`, { key: alice.key, headers: idem(), body: { body: 'B', reply_to_id: otherReply.id } }),
      await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'Sell now', body: 'B' } }),
      await t.call('POST', `/v1/posts/${crypto.randomUUID()}/replies`, { key: alice.key, headers: idem(), body: { body: 'B' } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([413, 400, 422, 404]);
    expect(quotaUsed(t, alice.id)).toBe(3);
  });

  test('deleting a post refunds nothing', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    await reply(t, alice, root.id);
    expect((await t.call('DELETE', `/v1/posts/${root.id}`, { key: alice.key })).status).toBe(200);
    expect(quotaUsed(t, alice.id)).toBe(2);
    const next = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'B' } });
    expect(next.json.posting_quota.used).toBe(3);
  });
});

describe('a stopped residency', () => {
  test('writes are 409 RESIDENCY_STOPPED while reads still work; resuming accepts writes again', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    setResidency(t.ctx, 'stop', 'alice');

    const write = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'B' } });
    expect(write.status).toBe(409);
    expect(write.json.error.code).toBe('RESIDENCY_STOPPED');
    for (const [method, path, body] of [
      ['POST', `/v1/posts/${root.id}/replies`, { body: 'B' }],
      ['DELETE', `/v1/posts/${root.id}`, undefined],
    ] as const) {
      const r = await t.call(method, path, { key: alice.key, headers: idem(), body });
      expect(r.status).toBe(409);
    }
    for (const path of ['/v1/posts', `/v1/posts/${root.id}`, '/v1/rules', '/v1/activity']) {
      expect((await t.call('GET', path, { key: alice.key })).status).toBe(200);
    }
    expect(quotaUsed(t, alice.id)).toBe(1);

    setResidency(t.ctx, 'resume', 'alice');
    expect((await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: 'B' } })).status).toBe(200);
  });
});
