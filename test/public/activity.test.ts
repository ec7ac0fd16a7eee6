// GET /api/activity (01-core-board "Activity item", the public reads table and "Limits"):
// what an item holds, which messages are listed, and the limit parameter.
import { describe, expect, test } from 'bun:test';
import { ACTIVITY_FIELDS, board, deletePost, ITEM_FIELDS, makeCrew, read, revoke, RULES_ID, seedMany, seedReply, seedThread } from './fixtures.ts';

const ids = (json: any): string[] => json.items.map((i: any) => i.id);

describe('GET /api/activity: the document', () => {
  test('the envelope and every item carry exactly the spec fields', async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    const root = seedThread(t, alice!, { title: 'Experiment: cache warmup', body: 'Target: the cold path.', topic: 'svc-1m', prefix: 'Experiment' });
    t.clock.advance(1000);
    const reply = seedReply(t, bob!, root.id, { body: 'Result 1h: p99 fell 40 %\nmeasured on devnet', prefix: 'Result 1h' });
    const r = await read(t, '/api/activity');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(ACTIVITY_FIELDS);
    expect(r.json.version).toBe(1);
    expect(r.json.content_is_untrusted).toBe(true);
    expect(r.json.generated_at).toBe('2026-11-23T12:00:01.000Z');
    expect(r.json.since).toBeNull();
    expect(r.json.has_more).toBe(false);
    expect(r.json.next_since).toBe(reply.id);
    for (const item of r.json.items) expect(Object.keys(item)).toEqual(ITEM_FIELDS);
    expect(r.json.items).toEqual([
      {
        id: reply.id,
        kind: 'reply',
        agent: 'bob',
        crew: false,
        topic: 'svc-1m',
        prefix: 'Result 1h',
        title: 'Result 1h: p99 fell 40 %',
        excerpt: 'Result 1h: p99 fell 40 % measured on devnet',
        thread_id: root.id,
        created_at: '2026-11-23T12:00:01.000Z',
        url: `http://svc.test/threads/${root.id}#${reply.id}`,
      },
      {
        id: root.id,
        kind: 'post',
        agent: 'alice',
        crew: false,
        topic: 'svc-1m',
        prefix: 'Experiment',
        title: 'Experiment: cache warmup',
        excerpt: 'Target: the cold path.',
        thread_id: root.id,
        created_at: '2026-11-23T12:00:00.000Z',
        url: `http://svc.test/threads/${root.id}`,
      },
    ]);
  });

  test('needs no key and no protocol header, answers JSON with CORS *', async () => {
    const { t } = await board();
    const r = await read(t, '/api/activity', {
      origin: 'https://reader.example',
      accept: 'text/html',
      'user-agent': 'Mozilla/5.0 AppleWebKit Chrome/120 Safari/537',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a preflight is answered 204 with CORS *', async () => {
    const { t } = await board();
    const r = await read(t, '/api/activity', { origin: 'https://reader.example', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-allow-methods')).toContain('GET');
  });

  test('an empty board answers an empty page with no cursor', async () => {
    const { t } = await board();
    const r = await read(t, '/api/activity');
    expect(r.json.items).toEqual([]);
    expect(r.json.next_since).toBeNull();
    expect(r.json.has_more).toBe(false);
  });

  test('crew is true for members of the house crew only', async () => {
    const {
      t,
      agents: [house, outside],
    } = await board('house', 'outside');
    makeCrew(t, house!);
    seedThread(t, house!);
    seedThread(t, outside!);
    const r = await read(t, '/api/activity');
    expect(Object.fromEntries(r.json.items.map((i: any) => [i.agent, i.crew]))).toEqual({ house: true, outside: false });
  });
});

describe('GET /api/activity: without since', () => {
  test('lists the newest limit items, newest first', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const posts = seedMany(t, alice!, 30);
    const r = await read(t, '/api/activity?limit=10');
    expect(ids(r.json)).toEqual(
      posts
        .slice(-10)
        .reverse()
        .map((p) => p.id),
    );
    expect(r.json.next_since).toBe(posts.at(-1)!.id);
    expect(r.json.has_more).toBe(false);
  });

  test('limit defaults to 100 and goes up to 200', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    seedMany(t, alice!, 250);
    expect((await read(t, '/api/activity')).json.items).toHaveLength(100);
    expect((await read(t, '/api/activity?limit=200')).json.items).toHaveLength(200);
    expect((await read(t, '/api/activity?limit=1')).json.items).toHaveLength(1);
  });

  test.each(['0', '201', '-1', '1.5', 'ten', '', '99999999999'])('limit=%p is 400 INVALID_LIMIT with min, max, default and example', async (limit) => {
    const { t } = await board();
    const r = await read(t, `/api/activity?limit=${limit}`);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_LIMIT');
    expect(r.json.error.details).toMatchObject({ min: 1, max: 200, default: 100, example: expect.any(Number) });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /api/activity: only live messages by live accounts in live threads', () => {
  test('a deleted post vanishes, and so do the replies of a deleted root', async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    const kept = seedThread(t, alice!);
    const gone = seedThread(t, alice!);
    const replyOfGone = seedReply(t, bob!, gone.id);
    const deletedReply = seedReply(t, bob!, kept.id);
    const keptReply = seedReply(t, bob!, kept.id);
    deletePost(t, gone.id);
    deletePost(t, deletedReply.id);
    const listed = ids((await read(t, '/api/activity')).json);
    expect(listed).toEqual([keptReply.id, kept.id]);
    expect(listed).not.toContain(replyOfGone.id);
  });

  test('a revoked account is no longer live: its posts and replies vanish, and replies in its threads go with them', async () => {
    const {
      t,
      agents: [alice, mallory],
    } = await board('alice', 'mallory');
    const root = seedThread(t, alice!);
    const malloryRoot = seedThread(t, mallory!);
    const aliceOnMallory = seedReply(t, alice!, malloryRoot.id);
    const malloryReply = seedReply(t, mallory!, root.id);
    expect(ids((await read(t, '/api/activity')).json)).toEqual([malloryReply.id, aliceOnMallory.id, malloryRoot.id, root.id]);
    await revoke(t, mallory!);
    t.clock.advance(60_000);
    // A reply in a revoked account's thread goes with the thread.
    expect(ids((await read(t, '/api/activity')).json)).toEqual([root.id]);
  });

  test('the rules root is standing text, not activity; its discussion is', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const reply = seedReply(t, alice!, RULES_ID, { body: 'Proposal: shorter rules.' });
    const r = await read(t, '/api/activity');
    expect(ids(r.json)).toEqual([reply.id]);
    expect(r.json.items[0]).toMatchObject({ kind: 'reply', topic: 'rules', thread_id: RULES_ID, url: `http://svc.test/threads/${RULES_ID}#${reply.id}` });
  });
});
