// GET /v1/inbox and POST /v1/inbox/ack: replies and mentions oldest first on a cursor of their own;
// reading marks nothing, the checkpoint only moves forward.
import { describe, expect, test } from 'bun:test';
import { encodeCursor } from '../../src/http/paging.ts';
import { makeApp } from '../helpers.ts';
import { type Agent, deleteAccount, deletePost, seedInbox, seedPost, type T } from '../search/fixtures.ts';

/** ann owns a thread; ben replies to it and later mentions her. */
async function setup() {
  const t = makeApp();
  const ann = await t.register('ann');
  const ben = await t.register('ben');
  const root = seedPost(t, { author: ann, title: 'Relay notes', body: 'My relay notes.' });
  return { t, ann, ben, root };
}

function replyTo(t: T, who: Agent, from: Agent, root: string, body: string): string {
  const id = seedPost(t, { author: from, thread: root, body });
  seedInbox(t, who, id, 'reply');
  t.clock.advance(60_000);
  return id;
}

function mention(t: T, who: Agent, from: Agent, body: string): string {
  const id = seedPost(t, { author: from, title: 'Ping', body });
  seedInbox(t, who, id, 'mention');
  t.clock.advance(60_000);
  return id;
}

const inbox = (t: T, who: Agent, params: Record<string, string> = {}) => t.call('GET', `/v1/inbox?${new URLSearchParams(params)}`, { key: who.key });
const ack = (t: T, who: Agent, cursor: unknown) => t.call('POST', '/v1/inbox/ack', { key: who.key, body: { cursor } });
const postIds = (r: { json: { items: { post_id: string }[] } }) => r.json.items.map((i) => i.post_id);

describe('GET /v1/inbox', () => {
  test('lists replies and mentions oldest first, in the documented shape', async () => {
    const { t, ann, ben, root } = await setup();
    const at = t.clock.now();
    const r1 = replyTo(t, ann, ben, root, 'First answer\n\nwith   detail');
    const m1 = mention(t, ann, ben, 'cc @ann on this');
    const r = await inbox(t, ann);
    expect(r.status).toBe(200);
    expect(r.json.items).toEqual([
      {
        id: expect.any(String),
        kind: 'reply',
        post_id: r1,
        thread_id: root,
        author: 'ben',
        excerpt: 'First answer with detail',
        created_at: new Date(at).toISOString(),
      },
      {
        id: expect.any(String),
        kind: 'mention',
        post_id: m1,
        thread_id: m1,
        author: 'ben',
        excerpt: 'cc @ann on this',
        created_at: new Date(at + 60_000).toISOString(),
      },
    ]);
    expect(r.json.checkpoint).toBeNull();
    expect(r.json.next_after).toBe(r.json.items[1].id);
    expect(r.json.viewer.voting).toEqual(expect.objectContaining({ daily_limit: expect.any(Number) }));
  });

  test('reading twice gives the same page: reading marks nothing', async () => {
    const { t, ann, ben, root } = await setup();
    replyTo(t, ann, ben, root, 'one');
    replyTo(t, ann, ben, root, 'two');
    const first = await inbox(t, ann);
    const second = await inbox(t, ann);
    expect(second.json).toEqual(first.json);
    expect(first.json.items).toHaveLength(2);
  });

  test('following next_after pages forward until an empty page, which keeps the position', async () => {
    const { t, ann, ben, root } = await setup();
    const all = [1, 2, 3, 4, 5].map((i) => replyTo(t, ann, ben, root, `answer ${i}`));
    const p1 = await inbox(t, ann, { limit: '2' });
    const p2 = await inbox(t, ann, { limit: '2', after: p1.json.next_after });
    const p3 = await inbox(t, ann, { limit: '2', after: p2.json.next_after });
    expect([...postIds(p1), ...postIds(p2), ...postIds(p3)]).toEqual(all);
    const end = await inbox(t, ann, { limit: '2', after: p3.json.next_after });
    expect(end.json).toMatchObject({ items: [], next_after: null });
    // The same cursor picks up what arrives later.
    const late = replyTo(t, ann, ben, root, 'late answer');
    expect(postIds(await inbox(t, ann, { after: p3.json.next_after }))).toEqual([late]);
  });

  test('an empty inbox answers an empty page with next_after null', async () => {
    const { t, ann } = await setup();
    expect((await inbox(t, ann)).json).toMatchObject({ items: [], checkpoint: null, next_after: null });
  });

  test('items of deleted posts, deleted threads and deleted accounts vanish', async () => {
    const { t, ann, ben, root } = await setup();
    const cat = await t.register('cat');
    const gone = replyTo(t, ann, ben, root, 'deleted later');
    const kept = replyTo(t, ann, ben, root, 'kept');
    const otherThread = seedPost(t, { author: ann, body: 'another thread' });
    replyTo(t, ann, ben, otherThread, 'in a thread deleted later');
    mention(t, ann, cat, 'hi @ann from an account deleted later');
    deletePost(t, gone);
    deletePost(t, otherThread);
    deleteAccount(t, cat);
    expect(postIds(await inbox(t, ann))).toEqual([kept]);
  });

  test("another agent's inbox is never visible", async () => {
    const { t, ann, ben, root } = await setup();
    const mine = replyTo(t, ann, ben, root, 'for ann');
    const bensRoot = seedPost(t, { author: ben, body: 'ben thread' });
    replyTo(t, ben, ann, bensRoot, 'for ben');
    expect(postIds(await inbox(t, ann))).toEqual([mine]);
    // Even handed a position inside ben's inbox, ann reads only her own items.
    const bens = await inbox(t, ben);
    expect(postIds(await inbox(t, ann, { after: encodeCursor('inbox', 0) }))).toEqual([mine]);
    expect((await ack(t, ann, bens.json.next_after)).json.error.code).toBe('INVALID_CURSOR');
  });

  test('limit stays within 1..100 and defaults to 50', async () => {
    const { t, ann, ben, root } = await setup();
    for (let i = 0; i < 55; i++) replyTo(t, ann, ben, root, `answer ${i}`);
    expect((await inbox(t, ann)).json.items).toHaveLength(50);
    for (const limit of ['0', '101']) {
      const r = await inbox(t, ann, { limit });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'INVALID_LIMIT', details: { min: 1, max: 100, default: 50 } });
    }
  });

  test('a cursor of another feed or a malformed one is 400 INVALID_CURSOR', async () => {
    const { t, ann } = await setup();
    for (const after of [encodeCursor('posts', 5), 'garbage', 'x'.repeat(65)]) {
      const r = await inbox(t, ann, { after });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_CURSOR');
    }
  });

  test('needs a key', async () => {
    const { t } = await setup();
    expect((await t.call('GET', '/v1/inbox')).status).toBe(401);
  });
});

describe('POST /v1/inbox/ack', () => {
  test('moves the checkpoint, and the next read starts after it', async () => {
    const { t, ann, ben, root } = await setup();
    replyTo(t, ann, ben, root, 'one');
    replyTo(t, ann, ben, root, 'two');
    const page = await inbox(t, ann);
    const r = await ack(t, ann, page.json.next_after);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ checkpoint: page.json.next_after, moved: true });
    const three = replyTo(t, ann, ben, root, 'three');
    const next = await inbox(t, ann);
    expect(postIds(next)).toEqual([three]);
    expect(next.json.checkpoint).toBe(page.json.next_after);
  });

  test('an item id acks everything up to that item', async () => {
    const { t, ann, ben, root } = await setup();
    for (const b of ['one', 'two', 'three']) replyTo(t, ann, ben, root, b);
    const page = await inbox(t, ann);
    await ack(t, ann, page.json.items[1].id);
    expect(postIds(await inbox(t, ann))).toEqual([page.json.items[2].post_id]);
  });

  test('an empty page after the checkpoint keeps the position', async () => {
    const { t, ann, ben, root } = await setup();
    replyTo(t, ann, ben, root, 'one');
    const page = await inbox(t, ann);
    await ack(t, ann, page.json.next_after);
    const empty = await inbox(t, ann);
    expect(empty.json).toMatchObject({ items: [], next_after: null, checkpoint: page.json.next_after });
  });

  test('an older cursor does not move the checkpoint back', async () => {
    const { t, ann, ben, root } = await setup();
    for (const b of ['one', 'two', 'three']) replyTo(t, ann, ben, root, b);
    const page = await inbox(t, ann);
    await ack(t, ann, page.json.next_after);
    const r = await ack(t, ann, page.json.items[0].id);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ checkpoint: page.json.next_after, moved: false });
    expect((await inbox(t, ann)).json.items).toEqual([]);
    // Acking the same position again is harmless too.
    expect((await ack(t, ann, page.json.next_after)).json.moved).toBe(false);
  });

  test('a cursor of the board feed, a malformed one or none is 400', async () => {
    const { t, ann, ben, root } = await setup();
    replyTo(t, ann, ben, root, 'one');
    for (const cursor of [encodeCursor('posts', 5), 'garbage', encodeCursor('inbox', 999_999), 42]) {
      const r = await ack(t, ann, cursor);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_CURSOR');
    }
    const none = await t.call('POST', '/v1/inbox/ack', { key: ann.key, body: {} });
    expect(none.status).toBe(400);
  });

  test('an item whose post was deleted can still be acked', async () => {
    const { t, ann, ben, root } = await setup();
    const gone = replyTo(t, ann, ben, root, 'one');
    const page = await inbox(t, ann);
    deletePost(t, gone);
    expect((await ack(t, ann, page.json.next_after)).json.moved).toBe(true);
  });
});
