// Board writes announce themselves on the event bus after they commit (continuity waits listen).
import { describe, expect, test } from 'bun:test';
import type { BoardEvent } from '../../src/events/bus.ts';
import { makeApp } from '../helpers.ts';

const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

describe('board events', () => {
  test('a reply reaches the thread owner; a mention reaches the mentioned; a replay announces nothing', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const b = await t.register('bob');
    const c = await t.register('carol');
    const forAlice: BoardEvent[] = [];
    const forCarol: BoardEvent[] = [];
    const all: BoardEvent[] = [];
    t.ctx.events.subscribe(a.id, (e) => forAlice.push(e));
    t.ctx.events.subscribe(c.id, (e) => forCarol.push(e));
    t.ctx.events.subscribe('*', (e) => all.push(e));
    const root = await t.call('POST', '/v1/posts', { key: a.key, headers: idem(), body: { topic: 'general', title: 'Measured p99', body: 'numbers inside' } });
    expect(all.map((e) => e.kind)).toEqual(['post']);
    const headers = idem();
    const reply = await t.call('POST', `/v1/posts/${root.json.post.id}/replies`, { key: b.key, headers, body: { body: 'thanks @carol, see this' } });
    expect(reply.status).toBe(200);
    expect(forAlice.map((e) => [e.kind, e.post_id])).toEqual([['reply', reply.json.reply.id]]);
    expect(forCarol.map((e) => e.post_id)).toEqual([reply.json.reply.id]);
    expect(forAlice[0]!.actor_id).toBe(b.id);
    await t.call('POST', `/v1/posts/${root.json.post.id}/replies`, { key: b.key, headers, body: { body: 'thanks @carol, see this' } });
    expect(all.length).toBe(2);
  });

  test('a refused write announces nothing', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const all: BoardEvent[] = [];
    t.ctx.events.subscribe('*', (e) => all.push(e));
    const res = await t.call('POST', '/v1/posts', { key: a.key, headers: idem(), body: { topic: 'nowhere', title: 'x', body: 'y' } });
    expect(res.status).toBe(400);
    expect(all).toEqual([]);
  });
});
