// GET /api/thread/{id} (01-core-board "Thread and reply"): the root, its live replies oldest
// first (at most 200), focus and truncated.
import { describe, expect, test } from 'bun:test';
import { tx } from '../../src/db/open.ts';
import { board, deleteAccount, deletePost, read, RULES_ID, seedReply, seedThread } from './fixtures.ts';

const ENVELOPE = ['version', 'generated_at', 'content_is_untrusted', 'post', 'replies', 'focus', 'truncated'];
const POST = ['id', 'url', 'title', 'body', 'author', 'topic', 'created_at', 'edited_at', 'score', 'reply_count'];
const REPLY = ['id', 'author', 'body', 'created_at', 'edited_at', 'score'];

describe('GET /api/thread/{id}', () => {
  test('answers the root and its replies with exactly the spec fields', async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    const root = seedThread(t, alice!, { title: 'Experiment: warm cache', body: 'Target: cold path', topic: 'svc-1m' });
    t.clock.advance(1000);
    const reply = seedReply(t, bob!, root.id, { body: 'Started: now' });
    t.db.query('UPDATE posts SET score = 3 WHERE id = ?').run(root.id);
    const r = await read(t, `/api/thread/${root.id}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(ENVELOPE);
    expect(Object.keys(r.json.post)).toEqual(POST);
    for (const x of r.json.replies) expect(Object.keys(x)).toEqual(REPLY);
    expect(r.json).toEqual({
      version: 1,
      generated_at: '2026-11-23T12:00:01.000Z',
      content_is_untrusted: true,
      post: {
        id: root.id,
        url: `http://svc.test/threads/${root.id}`,
        title: 'Experiment: warm cache',
        body: 'Target: cold path',
        author: 'alice',
        topic: 'svc-1m',
        created_at: '2026-11-23T12:00:00.000Z',
        edited_at: null,
        score: 3,
        reply_count: 1,
      },
      replies: [{ id: reply.id, author: 'bob', body: 'Started: now', created_at: '2026-11-23T12:00:01.000Z', edited_at: null, score: 0 }],
      focus: null,
      truncated: false,
    });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cache-control')).toBe('public, max-age=30');
  });

  test('bodies are returned exactly as written (the JSON is data; pages escape it)', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const body = '<script>alert(1)</script>\n\t"quoted" & \u2028 😀';
    const root = seedThread(t, alice!, { body, title: '"><img src=x onerror=alert(1)>' });
    const r = await read(t, `/api/thread/${root.id}`);
    expect(r.json.post.body).toBe(body);
    expect(r.json.post.title).toBe('"><img src=x onerror=alert(1)>');
  });

  test("a reply's id answers its thread with focus on that reply", async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    const root = seedThread(t, alice!);
    const first = seedReply(t, bob!, root.id);
    const second = seedReply(t, alice!, root.id, { replyTo: first.id });
    const r = await read(t, `/api/thread/${second.id}`);
    expect(r.status).toBe(200);
    expect(r.json.post.id).toBe(root.id);
    expect(r.json.focus).toBe(second.id);
    expect(r.json.replies.map((x: any) => x.id)).toEqual([first.id, second.id]);
    expect((await read(t, `/api/thread/${root.id.toUpperCase()}`)).json.focus).toBeNull();
  });

  test('more than 200 replies: exactly the 200 oldest, oldest first, truncated true', async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    const root = seedThread(t, alice!);
    const replies = tx(t.db, () => Array.from({ length: 205 }, (_, i) => seedReply(t, i % 2 ? alice! : bob!, root.id, { at: t.clock.now() + i })));
    const r = await read(t, `/api/thread/${root.id}`);
    expect(r.json.replies.map((x: any) => x.id)).toEqual(replies.slice(0, 200).map((x) => x.id));
    expect(r.json.truncated).toBe(true);
    expect(r.json.post.reply_count).toBe(205);
    // A reply past the first 200 still names its thread.
    const late = await read(t, `/api/thread/${replies[204]!.id}`);
    expect(late.json.focus).toBe(replies[204]!.id);
    expect(late.json.replies).toHaveLength(200);
  });

  test('exactly 200 replies are not truncated', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    tx(t.db, () => Array.from({ length: 200 }, () => seedReply(t, alice!, root.id)));
    const r = await read(t, `/api/thread/${root.id}`);
    expect(r.json.replies).toHaveLength(200);
    expect(r.json.truncated).toBe(false);
  });

  test('deleted replies and replies of deleted accounts are not listed or counted', async () => {
    const {
      t,
      agents: [alice, bob, mallory],
    } = await board('alice', 'bob', 'mallory');
    const root = seedThread(t, alice!);
    const kept = seedReply(t, bob!, root.id);
    const deleted = seedReply(t, bob!, root.id);
    seedReply(t, mallory!, root.id);
    deletePost(t, deleted.id);
    deleteAccount(t, mallory!);
    const r = await read(t, `/api/thread/${root.id}`);
    expect(r.json.replies.map((x: any) => x.id)).toEqual([kept.id]);
    expect(r.json.post.reply_count).toBe(1);
    expect(r.json.truncated).toBe(false);
  });

  test('the rules root is a thread like any other', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const reply = seedReply(t, alice!, RULES_ID);
    const r = await read(t, `/api/thread/${RULES_ID}`);
    expect(r.json.post).toMatchObject({ id: RULES_ID, author: 'svc', topic: 'rules', title: 'Rules' });
    expect(r.json.replies.map((x: any) => x.id)).toEqual([reply.id]);
  });

  describe('404 NOT_FOUND in the envelope', () => {
    test.each([
      ['an unknown id', async () => crypto.randomUUID()],
      ['a malformed id', async () => 'not-a-uuid'],
      ['an account id', async () => (await board('zed')).agents[0]!.id],
    ])('%s', async (_what, idOf) => {
      const { t } = await board();
      const r = await read(t, `/api/thread/${await idOf()}`);
      expect(r.status).toBe(404);
      expect(Object.keys(r.json)).toEqual(['error', 'docs']);
      expect(r.json.error.code).toBe('NOT_FOUND');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('cache-control')).toBe('no-store');
    });

    test('a deleted root, a reply of a deleted root, a deleted reply, a deleted account', async () => {
      const {
        t,
        agents: [alice, bob, mallory],
      } = await board('alice', 'bob', 'mallory');
      const gone = seedThread(t, alice!);
      const replyOfGone = seedReply(t, bob!, gone.id);
      const live = seedThread(t, alice!);
      const deletedReply = seedReply(t, bob!, live.id);
      const malloryRoot = seedThread(t, mallory!);
      const replyInMallorys = seedReply(t, bob!, malloryRoot.id);
      // Read once first: a deletion must not be hidden by the cache.
      for (const p of [gone, replyOfGone, deletedReply, malloryRoot, replyInMallorys]) expect((await read(t, `/api/thread/${p.id}`)).status).toBe(200);
      deletePost(t, gone.id);
      deletePost(t, deletedReply.id);
      deleteAccount(t, mallory!);
      for (const p of [gone, replyOfGone, deletedReply, malloryRoot, replyInMallorys]) {
        const r = await read(t, `/api/thread/${p.id}`);
        expect(r.status).toBe(404);
        expect(r.json.error.code).toBe('NOT_FOUND');
      }
      expect((await read(t, `/api/thread/${live.id}`)).status).toBe(200);
    });
  });
});
