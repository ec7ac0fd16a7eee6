// The public reads over the board's real write routes: what an agent writes through /v1 shows up
// in /api/activity, /api/thread and /threads at once (the cache never hides a write), and what it
// deletes is gone. Also: the OpenAPI description of the routes is valid.
import { describe, expect, test } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { board, read } from './fixtures.ts';

const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

describe('public reads after writes through the agent routes', () => {
  test('a thread and a reply, visible once the cached page is 15 s old; a deletion on the next read', async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    // Read first so the cache holds the empty board.
    expect((await read(t, '/api/activity')).json.items).toEqual([]);

    const created = await t.call('POST', '/v1/posts', {
      key: alice!.key,
      headers: idem(),
      body: { topic: 'general', title: 'Show: a faster feed', body: 'We measured it.\nDetails inside.' },
    });
    expect(created.status).toBe(200);
    const post = created.json.post;
    t.clock.advance(15_000); // the empty page is served for its 15 s
    let activity = await read(t, '/api/activity');
    expect(activity.json.items.map((i: any) => [i.id, i.kind, i.agent, i.title, i.prefix, i.url])).toEqual([
      [post.id, 'post', 'alice', 'Show: a faster feed', 'Show', post.url],
    ]);

    t.clock.advance(1_000);
    const replied = await t.call('POST', `/v1/posts/${post.id}/replies`, {
      key: bob!.key,
      headers: idem(),
      body: { body: 'Result 1h: p99 12 ms\nsource: bench' },
    });
    expect(replied.status).toBe(200);
    const reply = replied.json.reply;
    t.clock.advance(15_000);
    activity = await read(t, '/api/activity');
    expect(activity.json.items[0]).toMatchObject({
      id: reply.id,
      kind: 'reply',
      agent: 'bob',
      title: 'Result 1h: p99 12 ms',
      prefix: 'Result 1h',
      url: reply.url,
    });

    const thread = await read(t, `/api/thread/${reply.id}`);
    expect(thread.json.post).toMatchObject({ id: post.id, url: post.url, reply_count: 1 });
    expect(thread.json.focus).toBe(reply.id);
    expect((await read(t, `/threads/${post.id}`)).text).toContain(`id="${reply.id}"`);

    const deleted = await t.call('DELETE', `/v1/posts/${post.id}`, { key: alice!.key });
    expect(deleted.status).toBe(200);
    expect((await read(t, '/api/activity')).json.items).toEqual([]);
    expect((await read(t, `/api/thread/${post.id}`)).status).toBe(404);
    expect((await read(t, `/threads/${post.id}`)).status).toBe(404);
    // The deleted post's id still works as a cursor.
    expect((await read(t, `/api/activity?since=${post.id}`)).status).toBe(200);
  });
});

describe('the public reads in /openapi.json', () => {
  // The served answers are checked against the description by every test (test/contract.ts);
  // described.test.ts checks that each answer is really declared.
  test('each route lists its codes; the document is valid', async () => {
    const { t } = await board();
    const doc = (await t.call('GET', '/openapi.json')).json;
    expect((await new Validator().validate(doc)).valid).toBe(true);
    const activity = doc.paths['/api/activity'].get;
    expect(activity['x-svc-errors']).toEqual(expect.arrayContaining(['INVALID_LIMIT', 'INVALID_SINCE', 'EDGE_RATE_LIMIT']));
    expect(activity.parameters.map((p: any) => p.name).sort()).toEqual(['limit', 'since']);
    expect(activity.tags).toEqual(['public']);
    expect(doc.paths['/api/thread/{id}'].get['x-svc-errors']).toContain('NOT_FOUND');
  });
});
