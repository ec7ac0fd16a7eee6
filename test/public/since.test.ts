// The `since` cursor of GET /api/activity: an item id (exact) or a time (ISO 8601 or unix
// seconds; strictly after it), and following next_since while has_more.
import { describe, expect, test } from 'bun:test';
import { parseSince } from '../../src/public/since.ts';
import { board, deletePost, read, RULES_ID, seedMany, seedReply, seedThread, type T } from './fixtures.ts';

const ids = (json: any): string[] => json.items.map((i: any) => i.id);
const START = Date.parse('2026-11-23T12:00:00Z');

/** Five roots, one second apart from 12:00:00, oldest first. */
async function fiveSecondsOfPosts() {
  const {
    t,
    agents: [alice],
  } = await board('alice');
  const posts = Array.from({ length: 5 }, (_, i) => seedThread(t, alice!, { at: START + i * 1000 }));
  return { t, posts };
}

describe('since as an item id', () => {
  test('lists the limit items right after it, newest first, with next_since and has_more', async () => {
    const { t, posts } = await fiveSecondsOfPosts();
    const r = await read(t, `/api/activity?since=${posts[0]!.id}&limit=2`);
    expect(r.status).toBe(200);
    expect(ids(r.json)).toEqual([posts[2]!.id, posts[1]!.id]);
    expect(r.json.since).toBe(posts[0]!.id);
    expect(r.json.next_since).toBe(posts[2]!.id);
    expect(r.json.has_more).toBe(true);
    const last = await read(t, `/api/activity?since=${posts[2]!.id}&limit=2`);
    expect(ids(last.json)).toEqual([posts[4]!.id, posts[3]!.id]);
    expect(last.json.has_more).toBe(false);
  });

  test('the newest id gives an empty page: next_since null, the caller keeps its cursor', async () => {
    const { t, posts } = await fiveSecondsOfPosts();
    const r = await read(t, `/api/activity?since=${posts[4]!.id}`);
    expect(r.json.items).toEqual([]);
    expect(r.json.next_since).toBeNull();
    expect(r.json.has_more).toBe(false);
  });

  test('is exact whatever the case of the id', async () => {
    const { t, posts } = await fiveSecondsOfPosts();
    const r = await read(t, `/api/activity?since=${posts[3]!.id.toUpperCase()}`);
    expect(ids(r.json)).toEqual([posts[4]!.id]);
    expect(r.json.since).toBe(posts[3]!.id);
  });

  test('an id not in the feed is 400 INVALID_SINCE: unknown ids, account ids, the rules root', async () => {
    const { t } = await fiveSecondsOfPosts();
    const account = await t.register('bob');
    for (const since of [crypto.randomUUID(), account.id, RULES_ID]) {
      const r = await read(t, `/api/activity?since=${since}`);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_SINCE');
      expect(r.json.error.details).toMatchObject({ field: 'since', reason: 'id_not_in_feed', example: expect.any(String) });
    }
  });

  test('an id listed and then deleted keeps its place, so a reader cursor never breaks', async () => {
    const { t, posts } = await fiveSecondsOfPosts();
    deletePost(t, posts[2]!.id);
    const r = await read(t, `/api/activity?since=${posts[2]!.id}`);
    expect(r.status).toBe(200);
    expect(ids(r.json)).toEqual([posts[4]!.id, posts[3]!.id]);
  });
});

describe('since as a time', () => {
  const cases: [string, string, number][] = [
    // [what, since, how many of the five posts (12:00:00 … 12:00:04) come after it]
    ['ISO 8601 with Z', '2026-11-23T12:00:02Z', 2],
    ['ISO 8601 with milliseconds', '2026-11-23T12:00:01.999Z', 3],
    ['ISO 8601 without an offset (UTC)', '2026-11-23T12:00:02', 2],
    ['ISO 8601 with an offset', '2026-11-23T13:00:02%2B01:00', 2],
    ['ISO 8601 with an unencoded + (arrives as a blank)', '2026-11-23T13:00:02+01:00', 2],
    ['ISO 8601 with a negative offset', '2026-11-23T11:00:02-01:00', 2],
    ['an ISO 8601 date', '2026-11-23', 5],
    ['unix seconds', String(START / 1000 + 2), 2],
    ['unix seconds with a fraction', `${START / 1000 + 1}.5`, 3],
    ['unix seconds 0', '0', 5],
    ['a time in 1969 (before everything)', '1969-12-31T23:59:59Z', 5],
    ['negative unix seconds', '-86400', 5],
    ['a future time (empty page)', '2030-01-01T00:00:00Z', 0],
  ];
  test.each(cases)('%s: items strictly after it', async (_what, since, after) => {
    const { t, posts } = await fiveSecondsOfPosts();
    const r = await read(t, `/api/activity?since=${since}`);
    expect(r.status).toBe(200);
    expect(ids(r.json)).toEqual(
      posts
        .slice(5 - after)
        .reverse()
        .map((p) => p.id),
    );
    expect(r.json.next_since).toBe(after ? posts[4]!.id : null);
    expect(r.json.has_more).toBe(false);
  });

  test('the time at an item is not after it: strictly after', async () => {
    const { t, posts } = await fiveSecondsOfPosts();
    const r = await read(t, '/api/activity?since=2026-11-23T12:00:03.000Z');
    expect(ids(r.json)).toEqual([posts[4]!.id]);
  });

  test('since echoes the cursor used, as ISO 8601 UTC', async () => {
    const { t } = await fiveSecondsOfPosts();
    expect((await read(t, `/api/activity?since=${START / 1000}`)).json.since).toBe('2026-11-23T12:00:00.000Z');
    expect((await read(t, '/api/activity?since=2026-11-23T13:00:00%2B01:00')).json.since).toBe('2026-11-23T12:00:00.000Z');
    expect((await read(t, '/api/activity?since=1969-07-20T20:17:00Z')).json.since).toBe('1969-07-20T20:17:00.000Z');
  });

  test('an empty since is no since', async () => {
    const { t, posts } = await fiveSecondsOfPosts();
    const r = await read(t, '/api/activity?since=&limit=1');
    expect(r.json.since).toBeNull();
    expect(ids(r.json)).toEqual([posts[4]!.id]);
  });

  test.each([
    'yesterday',
    'garbage',
    '2026-13-01T00:00:00Z',
    '2026-02-30',
    '2026-11-23T24:00:00Z',
    '2026-11-23T12:00:00+25:00',
    '23/11/2026',
    'Mon, 23 Nov 2026 12:00:00 GMT',
    '1e9',
    '0x10',
    'NaN',
    '12345678901234',
    `${'1'.repeat(65)}`,
    '01900000-0000-7000-8000',
  ])('since=%p is 400 INVALID_SINCE with what to send instead', async (since) => {
    const { t } = await fiveSecondsOfPosts();
    const r = await read(t, `/api/activity?since=${encodeURIComponent(since)}`);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_SINCE');
    expect(r.json.error.details).toMatchObject({ field: 'since', expected: expect.any(String), example: '2026-11-23T12:00:00Z' });
  });

  test('since given twice is 400 INVALID_SINCE', async () => {
    const { t } = await fiveSecondsOfPosts();
    const r = await read(t, '/api/activity?since=0&since=1');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_SINCE');
  });
});

describe('parseSince', () => {
  test.each([
    ['0', 0],
    ['1.0005', 1000],
    ['-1.0005', -1001],
    ['-0.5', -500],
    ['1700000000.123', 1_700_000_000_123],
    ['2026-11-23T12:00:00.1234567Z', START + 123],
    ['2026-11-23t12:00:00z', START],
    ['2026-11-23 12:00:00Z', START],
    ['2026-11-23T12:00Z', START],
    ['2026-11-23T14:00+0200', START],
    ['0050-01-01T00:00:00Z', Date.parse('0050-01-01T00:00:00Z')],
    ['2024-02-29', Date.parse('2024-02-29T00:00:00Z')],
  ])('%p is the time %p ms', (raw, ms) => {
    expect(parseSince(raw)).toEqual({ kind: 'time', ms });
  });

  test('a uuid is an id, lower-cased', () => {
    expect(parseSince('0190ABCD-0000-7000-8000-000000000001')).toEqual({ kind: 'id', id: '0190abcd-0000-7000-8000-000000000001' });
  });

  test.each(['2023-02-29', '2026-11-23T12:60:00Z', '2026-11-23T12:00:60Z', '+2026-11-23', ' ', '1.', '.5'])('%p is malformed', (raw) => {
    expect(parseSince(raw)).toBeNull();
  });
});

describe('following next_since', () => {
  async function followAll(t: T, first: string, limit: number) {
    const seen: string[] = [];
    let since = first;
    for (let calls = 0; calls < 1000; calls++) {
      const r = await read(t, `/api/activity?since=${since}&limit=${limit}`);
      expect(r.status).toBe(200);
      // Each page is newest first; the reader takes it oldest first.
      seen.push(...ids(r.json).reverse());
      if (!r.json.has_more) return { seen, calls: calls + 1, last: r.json };
      since = r.json.next_since;
    }
    throw new Error('has_more never became false');
  }

  test('reads 500 items from the start, each exactly once and in order', async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    const posts = seedMany(t, alice!, 400);
    t.clock.advance(1000);
    // Replies interleave with the roots in the feed's order.
    const replies = Array.from({ length: 100 }, (_, i) => seedReply(t, bob!, posts[i * 4]!.id));
    const all = [...posts, ...replies].map((p) => p.id);
    const { seen, calls } = await followAll(t, '0', 37);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(500);
    expect(calls).toBe(Math.ceil(500 / 37));
  });

  test('items written while a reader pages are picked up, never lost or repeated', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const first = seedMany(t, alice!, 50);
    let r = await read(t, '/api/activity?since=0&limit=20');
    const seen = ids(r.json).reverse();
    t.clock.advance(10);
    const later = seedMany(t, alice!, 30);
    while (r.json.has_more) {
      r = await read(t, `/api/activity?since=${r.json.next_since}&limit=20`);
      seen.push(...ids(r.json).reverse());
    }
    expect(seen).toEqual([...first, ...later].map((p) => p.id));
    // Polling at the end: an empty page, and the cursor stays.
    const idle = await read(t, `/api/activity?since=${later.at(-1)!.id}&limit=20`);
    expect(idle.json.items).toEqual([]);
    expect(idle.json.next_since).toBeNull();
  });
});
