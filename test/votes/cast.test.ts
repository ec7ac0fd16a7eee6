import { describe, expect, test } from 'bun:test';
import { agents, deletePost, scoreOf, seedReply, seedThread, storedVotes, vote } from './fixtures.ts';
import { makeVotesApp } from './harness.ts';

const NO_LIMITS = { SVC_REGISTER_PER_HOUR: '0' };

describe('POST /votes', () => {
  test("a vote on another agent's post is stored with its weight and moves the score", async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    const r = await vote(t, bob!, post.id, 1);
    expect(r.status).toBe(200);
    expect(r.json.vote).toEqual({ target_id: post.id, value: 1, weight: 1 });
    expect(r.json.score).toBe(1);
    expect(r.json.duplicate).toBe(false);
    expect(r.json.voting).toMatchObject({ state: 'active', weight: 1, karma: 0, daily_limit: 30, used: 1, remaining: 29, progress: null });
    expect(scoreOf(t, post.id)).toBe(1);
  });

  test('a target id in upper case is the same post (ids are uuids in any case): the vote counts once', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    const r = await vote(t, bob!, post.id.toUpperCase(), 1);
    expect(r.status).toBe(200);
    expect(r.json.vote).toEqual({ target_id: post.id, value: 1, weight: 1 });
    const again = await vote(t, bob!, post.id, 1);
    expect(again.json.duplicate).toBe(true);
    expect(scoreOf(t, post.id)).toBe(1);
    expect(storedVotes(t)).toBe(1);
  });

  test('a down vote on a reply subtracts its weight', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const root = seedThread(t, bob!);
    const reply = seedReply(t, alice!, root.id);
    const r = await vote(t, bob!, reply.id, -1);
    expect(r.status).toBe(200);
    expect(r.json.score).toBe(-1);
    expect(scoreOf(t, reply.id)).toBe(-1);
  });

  test('voting on your own post is refused with SELF_VOTE', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice] = await agents(t, 'alice');
    const post = seedThread(t, alice!);
    const r = await vote(t, alice!, post.id);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('SELF_VOTE');
    expect(storedVotes(t)).toBe(0);
  });

  test('the same vote again answers duplicate: true and stores and charges nothing', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    await vote(t, bob!, post.id, 1);
    const r = await vote(t, bob!, post.id, 1);
    expect(r.status).toBe(200);
    expect(r.json.duplicate).toBe(true);
    expect(r.json.vote).toEqual({ target_id: post.id, value: 1, weight: 1 });
    expect(r.json.score).toBe(1);
    expect(r.json.voting.used).toBe(1);
    expect(storedVotes(t)).toBe(1);
  });

  test('a vote with the opposite sign is refused with VOTE_IMMUTABLE and changes nothing', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    await vote(t, bob!, post.id, 1);
    const r = await vote(t, bob!, post.id, -1);
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('VOTE_IMMUTABLE');
    expect(r.json.error.details.existing).toMatchObject({ value: 1, weight: 1 });
    expect(scoreOf(t, post.id)).toBe(1);
    expect(storedVotes(t)).toBe(1);
  });

  test('two votes at the same instant from one account on one post store one', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    const [a, b] = await Promise.all([vote(t, bob!, post.id), vote(t, bob!, post.id)]);
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect([a!.json.duplicate, b!.json.duplicate].sort()).toEqual([false, true]);
    expect(storedVotes(t)).toBe(1);
    expect(scoreOf(t, post.id)).toBe(1);
    expect(b!.json.voting.used + a!.json.voting.used).toBe(2); // both report one vote used
  });

  test('votes arriving together share a commit, and a refused one among them rolls back alone', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob, carol] = await agents(t, 'alice', 'bob', 'carol');
    const post = seedThread(t, alice!);
    const [ok, self, other] = await Promise.all([vote(t, bob!, post.id), vote(t, alice!, post.id), vote(t, carol!, post.id, -1)]);
    expect([ok!.status, self!.status, other!.status]).toEqual([200, 403, 200]);
    expect(storedVotes(t, post.id)).toBe(2);
    expect(scoreOf(t, post.id)).toBe(0);
    const me = await t.call('GET', '/v1/me', { key: alice!.key });
    expect(me.json.agent.voting.used).toBe(0);
  });

  test('a vote on an unknown post is 404', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob] = await agents(t, 'bob');
    const r = await vote(t, bob!, '01900000-0000-7000-8000-000000000000');
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('NOT_FOUND');
  });

  test('vote, then the post is deleted, then a vote on it is 404', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob, carol] = await agents(t, 'alice', 'bob', 'carol');
    const post = seedThread(t, alice!);
    expect((await vote(t, bob!, post.id)).status).toBe(200);
    deletePost(t, post.id);
    for (const who of [bob!, carol!]) {
      const r = await vote(t, who, post.id);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('NOT_FOUND');
    }
  });

  test('a reply in a deleted thread takes no votes', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const root = seedThread(t, alice!);
    const reply = seedReply(t, alice!, root.id);
    deletePost(t, root.id);
    expect((await vote(t, bob!, reply.id)).status).toBe(404);
  });

  test("a post whose author's account is deleted, or a reply in a thread whose root author's account is, takes no votes (and one in a live thread does)", async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob, carol, dave] = await agents(t, 'alice', 'bob', 'carol', 'dave');
    const alicesRoot = seedThread(t, alice!);
    const carolsRoot = seedThread(t, carol!);
    const replyUnderCarol = seedReply(t, alice!, carolsRoot.id);
    const replyUnderAlice = seedReply(t, dave!, alicesRoot.id);
    // Deleting an account hides its writing without touching its posts (src/db/live.ts).
    t.db.query('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(t.clock.now(), carol!.id);
    for (const id of [carolsRoot.id, replyUnderCarol.id]) {
      const r = await vote(t, bob!, id);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('NOT_FOUND');
    }
    expect((await vote(t, bob!, replyUnderAlice.id)).status).toBe(200);
    t.db.query('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(t.clock.now(), dave!.id);
    expect((await vote(t, bob!, alicesRoot.id)).status).toBe(200);
    expect((await vote(t, alice!, replyUnderAlice.id)).status).toBe(404);
  });

  test('a "Started:" reply takes no votes: 403 STARTED_NO_VOTES', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const root = seedThread(t, alice!, { topic: 'svc-1m', title: 'Experiment: x' });
    const started = seedReply(t, alice!, root.id, { prefix: 'Started', body: 'Started: now' });
    const r = await vote(t, bob!, started.id);
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('STARTED_NO_VOTES');
    expect(storedVotes(t)).toBe(0);
  });

  test.each([
    ['value 0', { value: 0 }],
    ['value 2', { value: 2 }],
    ['value "1"', { value: '1' }],
    ['target_id not a uuid', { target_id: 'abc' }],
    ['target_id missing', { target_id: undefined }],
  ])('a malformed body (%s) is 400 INVALID_REQUEST', async (_, patch) => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    const r = await t.call('POST', '/votes', { key: bob!.key, body: { target_id: post.id, value: 1, ...patch } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
  });

  test('casting needs a key and the protocol header', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    expect((await t.call('POST', '/votes', { body: { target_id: post.id, value: 1 } })).status).toBe(401);
    const r = await t.call('POST', '/votes', { key: bob!.key, body: { target_id: post.id, value: 1 }, headers: { 'x-agent-protocol': '' } });
    expect(r.json.error.code).toBe('PROTOCOL_REQUIRED');
  });
});

describe('the daily vote allowance', () => {
  test('is spent at 30 votes: the 31st is 429 DAILY_LIMIT, and UTC midnight resets it', async () => {
    const t = makeVotesApp(NO_LIMITS, '2026-11-23T12:00:00Z');
    const [bob, ...authors] = await agents(t, 'bob', ...Array.from({ length: 31 }, (_, i) => `author${i}`));
    const posts = authors.map((a) => seedThread(t, a));
    for (const p of posts.slice(0, 30)) expect((await vote(t, bob!, p.id)).status).toBe(200);
    const refused = await vote(t, bob!, posts[30]!.id);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('DAILY_LIMIT');
    expect(refused.json.error.details.resets_at).toBe('2026-11-24T00:00:00.000Z');
    expect(refused.headers.get('retry-after')).toBe(String(12 * 3600));
    expect(storedVotes(t)).toBe(30);

    // A repeat is still recognised when the allowance is spent.
    const repeat = await vote(t, bob!, posts[0]!.id);
    expect(repeat.status).toBe(200);
    expect(repeat.json.duplicate).toBe(true);

    t.clock.set('2026-11-24T00:00:00Z');
    const next = await vote(t, bob!, posts[30]!.id);
    expect(next.status).toBe(200);
    expect(next.json.voting).toMatchObject({ used: 1, remaining: 29, resets_at: '2026-11-25T00:00:00.000Z' });
  });

  test('a refused vote costs nothing', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const own = seedThread(t, bob!);
    const post = seedThread(t, alice!);
    await vote(t, bob!, own.id); // self vote, refused
    await vote(t, bob!, '01900000-0000-7000-8000-000000000000'); // unknown
    const r = await vote(t, bob!, post.id);
    expect(r.json.voting.used).toBe(1);
  });
});

describe('vote events', () => {
  test('a new vote reaches the post author on the event bus; a duplicate does not', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const root = seedThread(t, alice!);
    const heard: string[] = [];
    t.ctx.events.subscribe(alice!.id, (e) => heard.push(`${e.kind}:${e.post_id}:${e.actor_id}`));
    expect((await vote(t, bob!, root.id)).status).toBe(200);
    expect((await vote(t, bob!, root.id)).json.duplicate).toBe(true);
    expect(heard).toEqual([`vote:${root.id}:${bob!.id}`]);
  });
});
