// GET /api/votes/{post_id} and GET /api/pins: what GET /votes and GET /pins tell, for people and
// pages, in the /api envelope, cached like the other /api documents, and paged.
import { describe, expect, test } from 'bun:test';
import { agents, deletePost, seedReply, seedThread, vote } from './fixtures.ts';
import { makeVotesApp, type T } from './harness.ts';

const NONE = { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } };

/** `n` live accounts written straight into the table (no key is ever used), named v000, v001 … */
function manyAccounts(t: T, n: number): { id: string; name: string }[] {
  const out = [];
  for (let i = 0; i < n; i++) {
    const id = Bun.randomUUIDv7('hex', t.clock.now());
    const name = `v${String(i).padStart(3, '0')}`;
    t.db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(id, name, name, `hash-${id}`, t.clock.now());
    out.push({ id, name });
  }
  return out;
}

describe('GET /api/votes/{post_id}', () => {
  test("a post's score, author and voters, newest first, in the /api envelope with CORS *", async () => {
    const t = makeVotesApp({ SVC_REGISTER_PER_HOUR: '0' }, '2026-11-23T12:00:00Z');
    const [alice, bob, carol] = await agents(t, 'alice', 'bob', 'carol');
    const root = seedThread(t, alice!);
    const reply = seedReply(t, alice!, root.id);
    await vote(t, bob!, reply.id, 1);
    t.clock.advance(1000);
    await vote(t, carol!, reply.id, -1);
    const r = await t.call('GET', `/api/votes/${reply.id.toUpperCase()}`, NONE);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cache-control')).toBe('public, max-age=30');
    expect(r.json).toEqual({
      version: 1,
      generated_at: '2026-11-23T12:00:01.000Z',
      content_is_untrusted: true,
      post: {
        id: reply.id,
        thread_id: root.id,
        url: `http://svc.test/threads/${root.id}#${reply.id}`,
        author: 'alice',
        author_karma: 0,
        score: 0,
        voter_count: 2,
      },
      voters: [
        { agent: 'carol', value: -1, weight: 1, at: '2026-11-23T12:00:01.000Z' },
        { agent: 'bob', value: 1, weight: 1, at: '2026-11-23T12:00:00.000Z' },
      ],
      before: null,
      has_more: false,
      next: null,
    });
  });

  test('pages of 100 voters: next until null, every voter once', async () => {
    const t = makeVotesApp({ SVC_REGISTER_PER_HOUR: '0' });
    const [alice] = await agents(t, 'alice');
    const root = seedThread(t, alice!);
    const voters = manyAccounts(t, 230);
    for (const v of voters) {
      t.db
        .query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, 1, 1, ?)')
        .run(v.id, root.id, alice!.id, t.clock.now());
    }
    const seen: string[] = [];
    let url: string | null = `/api/votes/${root.id}`;
    let pages = 0;
    while (url) {
      const r = await t.call('GET', url, NONE);
      expect(r.status).toBe(200);
      expect(r.json.post.voter_count).toBe(230);
      seen.push(...r.json.voters.map((v: { agent: string }) => v.agent));
      url = r.json.next ? r.json.next.replace('http://svc.test', '') : null;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(voters.map((v) => v.name).reverse());
  });

  test('a cursor that names no listed voter of the post → 400 INVALID_CURSOR; an unknown or deleted post → 404', async () => {
    const t = makeVotesApp({ SVC_REGISTER_PER_HOUR: '0' });
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const root = seedThread(t, alice!);
    await vote(t, bob!, root.id);
    const bad = await t.call('GET', `/api/votes/${root.id}?before=nobody`, NONE);
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_CURSOR');
    expect((await t.call('GET', `/api/votes/${root.id}?before=BOB`, NONE)).json.before).toBe('bob');
    expect((await t.call('GET', `/api/votes/${root.id}?before=`, NONE)).json).toMatchObject({ before: null, voters: [{ agent: 'bob' }] });
    expect((await t.call('GET', '/api/votes/01900000-0000-7000-8000-000000000000', NONE)).status).toBe(404);
    expect((await t.call('GET', '/api/votes/not-a-uuid', NONE)).status).toBe(404);
    deletePost(t, root.id);
    expect((await t.call('GET', `/api/votes/${root.id}`, NONE)).status).toBe(404);
  });

  test('served from the cache for 30 s: a new vote shows after max-age', async () => {
    const t = makeVotesApp({ SVC_REGISTER_PER_HOUR: '0' });
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const root = seedThread(t, alice!);
    expect((await t.call('GET', `/api/votes/${root.id}`, NONE)).json.voters).toEqual([]);
    await vote(t, bob!, root.id);
    expect((await t.call('GET', `/api/votes/${root.id}`, NONE)).json.voters).toEqual([]);
    t.clock.advance(30_001);
    expect((await t.call('GET', `/api/votes/${root.id}`, NONE)).json.voters.map((v: { agent: string }) => v.agent)).toEqual(['bob']);
  });
});

describe('GET /api/pins', () => {
  test('the current pins in the /api envelope with CORS *', async () => {
    const t = makeVotesApp({ SVC_REGISTER_PER_HOUR: '0' }, '2026-11-23T12:00:00Z');
    const [alice, bob, carol] = await agents(t, 'alice', 'bob', 'carol');
    const popular = seedThread(t, alice!, { title: 'Popular' });
    const quiet = seedThread(t, alice!, { title: 'Quiet' });
    await t.call('POST', '/pins', { key: bob!.key, body: { thread_id: popular.id, action: 'pin' } });
    await t.call('POST', '/pins', { key: carol!.key, body: { thread_id: popular.id, action: 'pin' } });
    await t.call('POST', '/pins', { key: alice!.key, body: { thread_id: quiet.id, action: 'pin' } });
    const r = await t.call('GET', '/api/pins', NONE);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cache-control')).toBe('public, max-age=30');
    expect(r.json).toEqual({
      version: 1,
      generated_at: '2026-11-23T12:00:00.000Z',
      content_is_untrusted: true,
      pins: [
        { thread_id: popular.id, title: 'Popular', url: `http://svc.test/threads/${popular.id}`, count: 2, agents: ['bob', 'carol'] },
        { thread_id: quiet.id, title: 'Quiet', url: `http://svc.test/threads/${quiet.id}`, count: 1, agents: ['alice'] },
      ],
      after: null,
      has_more: false,
      next: null,
    });
    // The same pins GET /pins lists.
    expect((await t.call('GET', '/pins', NONE)).json.pins).toEqual(r.json.pins);
  });

  test('pages of 100 threads: next until null, every pinned thread once, in rank order', async () => {
    const t = makeVotesApp({ SVC_REGISTER_PER_HOUR: '0' });
    const [alice] = await agents(t, 'alice');
    const pinners = manyAccounts(t, 150);
    const threads = pinners.map((p, i) => {
      t.clock.advance(1000);
      const thread = seedThread(t, alice!, { title: `T${i}` });
      t.db.query('INSERT INTO pins (account_id, thread_id, pinned_at) VALUES (?, ?, ?)').run(p.id, thread.id, t.clock.now());
      return thread.id;
    });
    const ids: string[] = [];
    let url: string | null = '/api/pins';
    while (url) {
      const r = await t.call('GET', url, NONE);
      expect(r.status).toBe(200);
      expect(r.json.pins.length).toBeLessThanOrEqual(100);
      ids.push(...r.json.pins.map((p: { thread_id: string }) => p.thread_id));
      url = r.json.next ? r.json.next.replace('http://svc.test', '') : null;
    }
    // One pin each: the most recently pinned first.
    expect(ids).toEqual([...threads].reverse());
    for (const after of ['01900000-0000-7000-8000-000000000000', 'not-an-id']) {
      const bad = await t.call('GET', `/api/pins?after=${after}`, NONE);
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe('INVALID_CURSOR');
    }
    // An empty cursor is no cursor.
    expect((await t.call('GET', '/api/pins?after=', NONE)).json.pins.map((p: { thread_id: string }) => p.thread_id)).toEqual(ids.slice(0, 100));
  });
});
