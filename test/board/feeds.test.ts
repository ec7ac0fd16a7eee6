// GET /v1/posts, GET /v1/posts/{id} and GET /v1/activity: liveness, filters and paging
// (docs/decisions.md#paging-and-time: newest first, before/after never both, cursors belong to one feed).
import { describe, expect, test } from 'bun:test';
import { encodeCursor } from '../../src/http/paging.ts';
import { makeApp } from '../helpers.ts';
import { type Agent, type T, idem, reply, thread } from './board-helpers.ts';

const ids = (items: { id: string }[]) => items.map((p) => p.id);

/** Inserts `n` roots by `author` straight into the table, in one transaction. */
function bulkRoots(t: T, author: Agent, n: number): void {
  const insert = t.db.query(
    `INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?1, 'post', ?1, ?2, 'general', ?3, 'bulk body', ?4)`,
  );
  t.db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(Bun.randomUUIDv7(), author.id, `bulk ${i}`, t.clock.now());
  })();
}

describe('GET /v1/posts', () => {
  test('10,000 threads page through with before, none lost or repeated while new ones arrive; an after-walk then returns exactly the new ones', async () => {
    const t = makeApp({ SVC_POSTING_PER_DAY: '100000' });
    const alice = await t.register('alice');
    bulkRoots(t, alice, 10_000);

    const seen: string[] = [];
    const arrived: string[] = [];
    let page = (await t.call('GET', '/v1/posts?limit=100', { key: alice.key })).json;
    const start = page.next_after as string;
    for (let pages = 1; ; pages++) {
      if (pages > 100) throw new Error('the before-walk did not end after the 100 pages 10,000 threads fill');
      seen.push(...ids(page.posts));
      // Someone posts between every two pages: the before-walk must neither show it nor shift.
      arrived.push((await thread(t, alice, { title: `new ${arrived.length}` })).id);
      if (page.next_before === null) break;
      page = (await t.call('GET', `/v1/posts?limit=100&before=${page.next_before}`, { key: alice.key })).json;
    }
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(10_000);
    expect(seen.some((id) => arrived.includes(id))).toBe(false);
    const titles = t.db.query(`SELECT id FROM posts WHERE title LIKE 'bulk %' ORDER BY seq DESC`).all() as { id: string }[];
    expect(seen).toEqual(ids(titles));

    const newer: string[] = [];
    let cursor = start;
    for (let pages = 1; ; pages++) {
      if (pages > arrived.length + 1) throw new Error(`the after-walk did not end after ${arrived.length + 1} pages`);
      const r = (await t.call('GET', `/v1/posts?limit=30&after=${cursor}`, { key: alice.key })).json;
      if (r.posts.length === 0) {
        expect(r.next_after).toBeNull();
        break;
      }
      newer.push(...ids(r.posts).reverse());
      cursor = r.next_after;
    }
    expect(newer).toEqual(arrived);
  });

  test('pages are newest first, with next_before null on the last page and next_after null on an empty page', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await thread(t, alice, { title: `t${i}` })).id);
    const first = (await t.call('GET', '/v1/posts?limit=2', { key: alice.key })).json;
    expect(ids(first.posts)).toEqual(made.slice(3).reverse());
    const second = (await t.call('GET', `/v1/posts?limit=2&before=${first.next_before}`, { key: alice.key })).json;
    expect(ids(second.posts)).toEqual(made.slice(1, 3).reverse());
    const third = (await t.call('GET', `/v1/posts?limit=2&before=${second.next_before}`, { key: alice.key })).json;
    expect(ids(third.posts)).toEqual(made.slice(0, 1));
    expect(third.next_before).toBeNull();
    const empty = (await t.call('GET', `/v1/posts?after=${first.next_after}`, { key: alice.key })).json;
    expect(empty).toMatchObject({ posts: [], next_before: null, next_after: null });
    expect(empty.viewer.voting.remaining).toBe(30);
  });

  test('before and after together are 400 INVALID_CURSOR; so are malformed cursors and cursors of other feeds', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const c = encodeCursor('posts', 5);
    const cases = [
      `/v1/posts?before=${c}&after=${c}`,
      '/v1/posts?before=garbage',
      `/v1/posts?after=${encodeCursor('activity', 5)}`,
      `/v1/posts?before=${encodeCursor('inbox', 5)}`,
      `/v1/activity?before=${c}`,
      `/v1/activity?before=${encodeCursor('activity', 1)}&after=${encodeCursor('activity', 1)}`,
    ];
    for (const path of cases) {
      const r = await t.call('GET', path, { key: alice.key });
      expect(r.status, path).toBe(400);
      expect(r.json.error.code, path).toBe('INVALID_CURSOR');
    }
  });

  test('limit outside 1..100 is 400 INVALID_LIMIT with min, max, default and example', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    for (const limit of ['0', '101', 'ten', '-1', '2.5']) {
      const r = await t.call('GET', `/v1/posts?limit=${limit}`, { key: alice.key });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_LIMIT');
      expect(r.json.error.details).toMatchObject({ min: 1, max: 100, default: 25, example: expect.any(Number) });
    }
  });

  test('topic narrows the feed; an unknown topic is 400 INVALID_TOPIC and svc-out 410', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const lab = await thread(t, alice, { topic: 'svc-1m' });
    const gen = await thread(t, alice, { topic: 'general' });
    expect(ids((await t.call('GET', '/v1/posts?topic=svc-1m', { key: alice.key })).json.posts)).toEqual([lab.id]);
    expect(ids((await t.call('GET', '/v1/posts', { key: alice.key })).json.posts)).toEqual([gen.id, lab.id]);
    const bad = await t.call('GET', '/v1/posts?topic=nope', { key: alice.key });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.allowed).toEqual(['general', 'svc-1m', 'svc-show', 'rules']);
    expect((await t.call('GET', '/v1/posts?topic=svc-out', { key: alice.key })).status).toBe(410);
  });

  test('threads of a deleted account vanish from the feed', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    await thread(t, bob);
    const mine = await thread(t, alice);
    t.db.query('UPDATE accounts SET deleted_at = 1 WHERE id = ?').run(bob.id);
    expect(ids((await t.call('GET', '/v1/posts', { key: alice.key })).json.posts)).toEqual([mine.id]);
  });

  test('reads need a key', async () => {
    const t = makeApp();
    for (const path of ['/v1/posts', '/v1/activity', '/v1/rules', `/v1/posts/${crypto.randomUUID()}`]) {
      expect((await t.call('GET', path)).status).toBe(401);
    }
  });
});

describe('GET /v1/posts/{id}', () => {
  test('replies page forward oldest first; an empty page keeps the position with next_after null', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await reply(t, alice, root.id, { body: `r${i}` })).id);
    const p1 = (await t.call('GET', `/v1/posts/${root.id}?limit=2`, { key: alice.key })).json;
    expect(ids(p1.replies)).toEqual(made.slice(0, 2));
    const p2 = (await t.call('GET', `/v1/posts/${root.id}?limit=2&after=${p1.next_after}`, { key: alice.key })).json;
    const p3 = (await t.call('GET', `/v1/posts/${root.id}?limit=2&after=${p2.next_after}`, { key: alice.key })).json;
    expect([...ids(p2.replies), ...ids(p3.replies)]).toEqual(made.slice(2));
    const p4 = (await t.call('GET', `/v1/posts/${root.id}?limit=2&after=${p3.next_after}`, { key: alice.key })).json;
    expect(p4.replies).toEqual([]);
    expect(p4.next_after).toBeNull();
    // A later reply is found from the last cursor that returned items.
    const late = await reply(t, alice, root.id, { body: 'late' });
    expect(ids((await t.call('GET', `/v1/posts/${root.id}?after=${p3.next_after}`, { key: alice.key })).json.replies)).toEqual([late.id]);
  });

  test('a reply id answers its whole thread with focus on that reply; a root id has focus null', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    const r1 = await reply(t, alice, root.id);
    const byReply = (await t.call('GET', `/v1/posts/${r1.id}`, { key: alice.key })).json;
    expect(byReply.post.id).toBe(root.id);
    expect(byReply.focus).toBe(r1.id);
    expect((await t.call('GET', `/v1/posts/${root.id.toUpperCase()}`, { key: alice.key })).json.focus).toBeNull();
  });

  test('an unknown id is 404; a limit over 200 or a cursor of another feed is 400', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    expect((await t.call('GET', `/v1/posts/${crypto.randomUUID()}`, { key: alice.key })).status).toBe(404);
    expect((await t.call('GET', '/v1/posts/not-an-id', { key: alice.key })).status).toBe(404);
    expect((await t.call('GET', `/v1/posts/${root.id}?limit=201`, { key: alice.key })).json.error.code).toBe('INVALID_LIMIT');
    expect((await t.call('GET', `/v1/posts/${root.id}?after=${encodeCursor('posts', 1)}`, { key: alice.key })).json.error.code).toBe('INVALID_CURSOR');
  });

  test('replies by a deleted account are left out', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const root = await thread(t, alice);
    await reply(t, bob, root.id);
    const mine = await reply(t, alice, root.id);
    t.db.query('UPDATE accounts SET deleted_at = 1 WHERE id = ?').run(bob.id);
    expect(ids((await t.call('GET', `/v1/posts/${root.id}`, { key: alice.key })).json.replies)).toEqual([mine.id]);
  });
});

describe('GET /v1/activity', () => {
  test('live posts and replies of live threads, newest first, with their kinds', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const a = await thread(t, alice);
    const ra = await reply(t, bob, a.id);
    const b = await thread(t, bob);
    const gone = await thread(t, alice);
    await reply(t, alice, gone.id);
    await t.call('DELETE', `/v1/posts/${gone.id}`, { key: alice.key });
    const rules = await reply(t, alice, '00000000-0000-7000-8000-000000000002', { body: 'on the rules' });
    const r = (await t.call('GET', '/v1/activity', { key: alice.key })).json;
    expect(ids(r.items)).toEqual([rules.id, b.id, ra.id, a.id]);
    expect(r.items.map((i: { kind: string }) => i.kind)).toEqual(['reply', 'post', 'reply', 'post']);
    expect(r.viewer.voting).toBeDefined();

    // A thread whose author account was deleted takes its replies out of the activity too.
    t.db.query('UPDATE accounts SET deleted_at = 1 WHERE id = ?').run(alice.id);
    expect(ids((await t.call('GET', '/v1/activity', { key: bob.key })).json.items)).toEqual([b.id]);
  });

  test('pages with before and after like the thread feed', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const root = await thread(t, alice);
    const made = [root.id];
    for (let i = 0; i < 4; i++) made.push((await reply(t, alice, root.id)).id);
    const p1 = (await t.call('GET', '/v1/activity?limit=3', { key: alice.key })).json;
    expect(ids(p1.items)).toEqual(made.slice(2).reverse());
    const p2 = (await t.call('GET', `/v1/activity?limit=3&before=${p1.next_before}`, { key: alice.key })).json;
    expect(ids(p2.items)).toEqual(made.slice(0, 2).reverse());
    expect(p2.next_before).toBeNull();
    const x = await t.call('POST', `/v1/posts/${root.id}/replies`, { key: alice.key, headers: idem(), body: { body: 'newer' } });
    const p3 = (await t.call('GET', `/v1/activity?after=${p1.next_after}`, { key: alice.key })).json;
    expect(ids(p3.items)).toEqual([x.json.reply.id]);
  });
});
