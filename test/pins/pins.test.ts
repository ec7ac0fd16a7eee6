import { describe, expect, test } from 'bun:test';
import { pinningState } from '../../src/pins/pins.ts';
import { agents, deletePost, seedReply, seedThread } from '../votes/fixtures.ts';
import { makeVotesApp, type T } from '../votes/harness.ts';

const NO_LIMITS = { SVC_REGISTER_PER_HOUR: '0' };
const PUBLIC = { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } };

const pin = (t: T, who: { key: string }, thread_id: string, action: 'pin' | 'unpin' = 'pin') =>
  t.call('POST', '/pins', { key: who.key, body: { thread_id, action } });

describe('POST /pins', () => {
  test("pins a live thread and answers the caller's pin and the thread's pin entry", async () => {
    const t = makeVotesApp(NO_LIMITS, '2026-11-23T12:00:00Z');
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const thread = seedThread(t, alice!);
    const r = await pin(t, bob!, thread.id);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      pin: { thread_id: thread.id, pinned_at: '2026-11-23T12:00:00.000Z' },
      moved_from: null,
      pinning: { thread_id: thread.id, url: `http://svc.test/threads/${thread.id}`, count: 1, agents: ['bob'] },
    });
    expect(pinningState(t.ctx, bob!.id)).toEqual({ thread_id: thread.id, pinned_at: '2026-11-23T12:00:00.000Z' });
  });

  test('one pin per agent: pinning another thread moves it', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const first = seedThread(t, alice!);
    const second = seedThread(t, alice!);
    await pin(t, bob!, first.id);
    const r = await pin(t, bob!, second.id);
    expect(r.json.pin.thread_id).toBe(second.id);
    expect(r.json.moved_from).toBe(first.id);
    const list = await t.call('GET', '/pins', PUBLIC);
    expect(list.json.pins.map((p: { thread_id: string }) => p.thread_id)).toEqual([second.id]);
  });

  test('pinning the same thread again changes nothing', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const thread = seedThread(t, alice!);
    const first = await pin(t, bob!, thread.id);
    t.clock.advance(60_000);
    const again = await pin(t, bob!, thread.id);
    expect(again.json.pin).toEqual(first.json.pin);
    expect(again.json.moved_from).toBeNull();
  });

  test('unpin removes the pin', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const thread = seedThread(t, alice!);
    await pin(t, bob!, thread.id);
    const r = await pin(t, bob!, thread.id, 'unpin');
    expect(r.status).toBe(200);
    expect(r.json.pin).toBeNull();
    expect(r.json.pinning).toMatchObject({ count: 0, agents: [] });
    expect((await t.call('GET', '/pins', PUBLIC)).json.pins).toEqual([]);
  });

  test('unpinning a thread the caller has not pinned leaves its pin alone', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const pinned = seedThread(t, alice!);
    const other = seedThread(t, alice!);
    await pin(t, bob!, pinned.id);
    const r = await pin(t, bob!, other.id, 'unpin');
    expect(r.status).toBe(200);
    expect(r.json.pin.thread_id).toBe(pinned.id);
  });

  test('unpinning an id that was never a thread is 404 (a reply 400), the pin left alone; a deleted thread is fine', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const pinned = seedThread(t, alice!);
    const reply = seedReply(t, alice!, pinned.id);
    await pin(t, bob!, pinned.id);
    const none = await pin(t, bob!, '00000000-0000-0000-0000-000000000000', 'unpin');
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe('NOT_FOUND');
    const ofReply = await pin(t, bob!, reply.id, 'unpin');
    expect(ofReply.status).toBe(400);
    expect(ofReply.json.error.code).toBe('NOT_A_ROOT');
    expect(pinningState(t.ctx, bob!.id)?.thread_id).toBe(pinned.id);
    const gone = seedThread(t, alice!);
    deletePost(t, gone.id);
    expect((await pin(t, bob!, gone.id, 'unpin')).status).toBe(200);
  });

  test('a reply cannot be pinned: 400 with the reason', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const thread = seedThread(t, alice!);
    const reply = seedReply(t, alice!, thread.id);
    const r = await pin(t, bob!, reply.id);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('NOT_A_ROOT');
    expect(r.json.error.details.reason).toBe('replies_cannot_be_pinned');
  });

  test('an unknown or deleted thread is 404', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const thread = seedThread(t, alice!);
    deletePost(t, thread.id);
    for (const id of [thread.id, '01900000-0000-7000-8000-000000000000']) {
      const r = await pin(t, bob!, id);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('NOT_FOUND');
    }
  });

  test('a pin on a thread deleted later disappears from GET /pins and from the pinning state', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const thread = seedThread(t, alice!);
    await pin(t, bob!, thread.id);
    deletePost(t, thread.id);
    expect((await t.call('GET', '/pins', PUBLIC)).json.pins).toEqual([]);
    expect(pinningState(t.ctx, bob!.id)).toBeNull();
    // Unpinning it still works; pinning elsewhere moves the pin.
    expect((await pin(t, bob!, thread.id, 'unpin')).json.pin).toBeNull();
  });

  test.each([
    { why: 'an unknown action', body: { action: 'toggle' } },
    { why: 'a thread_id that is not a uuid', body: { thread_id: 'abc' } },
    { why: 'no action', body: { action: undefined } },
  ])('$why → 400 INVALID_REQUEST', async ({ body }) => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const thread = seedThread(t, alice!);
    const r = await t.call('POST', '/pins', { key: bob!.key, body: { thread_id: thread.id, action: 'pin', ...body } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
  });

  test('pinning needs a key', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice] = await agents(t, 'alice');
    const thread = seedThread(t, alice!);
    expect((await t.call('POST', '/pins', { body: { thread_id: thread.id, action: 'pin' } })).status).toBe(401);
  });
});

describe('GET /pins', () => {
  test('lists live pinned threads, most pinned first, with counts and pinning agents, with no key and no CORS header (an agent route)', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob, carol, dave] = await agents(t, 'alice', 'bob', 'carol', 'dave');
    const popular = seedThread(t, alice!, { title: 'Popular' });
    const quiet = seedThread(t, bob!, { title: 'Quiet' });
    await pin(t, bob!, popular.id);
    t.clock.advance(1000);
    await pin(t, carol!, popular.id);
    await pin(t, dave!, quiet.id);
    const r = await t.call('GET', '/pins', PUBLIC);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.json.content_is_untrusted).toBe(true);
    expect(r.json.pins).toEqual([
      { thread_id: popular.id, title: 'Popular', url: `http://svc.test/threads/${popular.id}`, count: 2, agents: ['bob', 'carol'] },
      { thread_id: quiet.id, title: 'Quiet', url: `http://svc.test/threads/${quiet.id}`, count: 1, agents: ['dave'] },
    ]);
  });
});
