// The public document cache: activity 15 s, thread views and pages 30 s; a write makes the next
// read fresh; memory stays bounded however many distinct queries arrive.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { DocumentCache, OTHER_WRITERS_CHECK_MS, publicCache, type Version } from '../../src/public/cache.ts';
import { board, read, seedReply, seedThread } from './fixtures.ts';

describe('Cache-Control of the public documents', () => {
  test.each([
    ['/api/activity', 'public, max-age=15'],
    ['/api/activity?limit=5&since=0', 'public, max-age=15'],
    ['/api/thread/{root}', 'public, max-age=30'],
    ['/threads/{root}', 'public, max-age=30'],
  ])('%s: %s, with Age and an ETag', async (path, cacheControl) => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    const r = await read(t, path.replace('{root}', root.id));
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe(cacheControl);
    expect(r.headers.get('age')).toBe('0');
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-z]+"$/);
  });

  test('errors are not cached: no-store', async () => {
    const { t } = await board();
    expect((await read(t, '/api/activity?since=nope')).headers.get('cache-control')).toBe('no-store');
    expect((await read(t, `/api/thread/${crypto.randomUUID()}`)).headers.get('cache-control')).toBe('no-store');
    expect((await read(t, `/threads/${crypto.randomUUID()}`)).headers.get('cache-control')).toBe('no-store');
  });
});

describe('reading from the cache', () => {
  test('a second read within 15 s is the stored document: same generated_at, same bytes, Age grows', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    seedThread(t, alice!);
    const first = await read(t, '/api/activity');
    t.clock.advance(14_999);
    const second = await read(t, '/api/activity');
    expect(second.text).toBe(first.text);
    expect(second.json.generated_at).toBe('2026-11-23T12:00:00.000Z');
    expect(second.headers.get('age')).toBe('14');
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  test('after 15 s the activity document is rebuilt', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    seedThread(t, alice!);
    await read(t, '/api/activity');
    t.clock.advance(15_000);
    const r = await read(t, '/api/activity');
    expect(r.json.generated_at).toBe('2026-11-23T12:00:15.000Z');
    expect(r.headers.get('age')).toBe('0');
  });

  test('a thread document lives 30 s', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    await read(t, `/api/thread/${root.id}`);
    t.clock.advance(29_000);
    expect((await read(t, `/api/thread/${root.id}`)).json.generated_at).toBe('2026-11-23T12:00:00.000Z');
    t.clock.advance(1_000);
    expect((await read(t, `/api/thread/${root.id}`)).json.generated_at).toBe('2026-11-23T12:00:30.000Z');
  });

  test('a write makes the next read fresh: a new item and a new generated_at', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    await read(t, '/api/activity');
    await read(t, `/api/thread/${root.id}`);
    t.clock.advance(1_000);
    // Straight SQL on the service's own connection, as every write path does.
    const reply = seedReply(t, alice!, root.id);
    const activity = await read(t, '/api/activity');
    expect(activity.json.generated_at).toBe('2026-11-23T12:00:01.000Z');
    expect(activity.json.items[0].id).toBe(reply.id);
    const thread = await read(t, `/api/thread/${root.id}`);
    expect(thread.json.replies.map((r: any) => r.id)).toEqual([reply.id]);
  });

  test('a vote (any change of the database) makes the next read fresh too', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    await read(t, `/api/thread/${root.id}`);
    t.db.query('UPDATE posts SET score = 5 WHERE id = ?').run(root.id);
    expect((await read(t, `/api/thread/${root.id}`)).json.post.score).toBe(5);
  });

  test('equal queries share one entry: parameter order, spelling of the time, unknown parameters', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    seedThread(t, alice!);
    const first = await read(t, '/api/activity?limit=7&since=1700000000');
    t.clock.advance(5_000);
    for (const q of ['since=1700000000&limit=7', 'limit=7&since=2023-11-14T22:13:20Z', 'limit=7&since=1700000000.0&utm=x']) {
      expect((await read(t, `/api/activity?${q}`)).json.generated_at).toBe(first.json.generated_at);
    }
  });

  test('If-None-Match with the current ETag is 304 without a body; after a write it is 200', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    const first = await read(t, '/api/activity');
    const etag = first.headers.get('etag')!;
    const again = await read(t, '/api/activity', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('cache-control')).toBe('public, max-age=15');
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect((await read(t, '/api/activity', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    seedReply(t, alice!, root.id);
    const changed = await read(t, '/api/activity', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  test('a write by another connection (svc admin on the same data dir) is seen within a second', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-public-cache-'));
    try {
      const db = openDatabase(dir);
      migrate(db);
      const clock = new ManualClock(Date.parse('2026-11-23T12:00:00Z'));
      const ctx = createContext(loadConfig({ SVC_BASE_URL: 'http://svc.test' }), db, clock);
      const app = createApp(ctx);
      const get = async () => (await (await app.handle(new Request('http://localhost/api/activity'))).json()) as any;
      expect((await get()).items).toEqual([]);
      const admin = openDatabase(dir);
      admin.query(`INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES ('a1', 'ops', 'ops', 'x', 0)`).run();
      admin
        .query(
          `INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES ('01900000-0000-7000-8000-0000000000aa', 'post', '01900000-0000-7000-8000-0000000000aa', 'a1', 'general', 'From admin', 'Body', 1)`,
        )
        .run();
      admin.close();
      clock.advance(OTHER_WRITERS_CHECK_MS);
      expect((await get()).items.map((i: any) => i.title)).toEqual(['From admin']);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('each service has its own cache', async () => {
    const one = await board('alice');
    const two = await board('alice');
    seedThread(one.t, one.agents[0]!);
    await read(one.t, '/api/activity');
    expect((await read(two.t, '/api/activity')).json.items).toEqual([]);
    expect(publicCache(one.t.ctx)).not.toBe(publicCache(two.t.ctx));
  });
});

describe('DocumentCache', () => {
  function harness(limits = { maxEntries: 3, maxChars: 1_000 }) {
    const clock = new ManualClock(0);
    const version: Version = { own: 0, other: 0 };
    const cache = new DocumentCache(clock, () => ({ ...version }), limits);
    let builds = 0;
    const get = (key: string, body = `body of ${key}`) =>
      cache.get(key, 15_000, () => {
        builds++;
        return body;
      });
    return { clock, version, cache, get, builds: () => builds };
  }

  test('keeps at most maxEntries, dropping the least recently used', () => {
    const h = harness();
    h.get('a');
    h.get('b');
    h.get('c');
    h.get('a'); // a is now the most recently used
    h.get('d'); // drops b
    expect(h.cache.size).toBe(3);
    const before = h.builds();
    h.get('a');
    h.get('c');
    h.get('d');
    expect(h.builds()).toBe(before);
    h.get('b');
    expect(h.builds()).toBe(before + 1);
  });

  test('10,000 distinct keys never hold more than the bounds', () => {
    const h = harness({ maxEntries: 1000, maxChars: 50_000 });
    for (let i = 0; i < 10_000; i++) h.get(`activity:100:t${i}`, 'x'.repeat(i % 200));
    expect(h.cache.size).toBeLessThanOrEqual(1000);
    expect(h.cache.storedChars).toBeLessThanOrEqual(50_000);
  });

  test('a body larger than the whole budget is served but not kept', () => {
    const h = harness({ maxEntries: 10, maxChars: 100 });
    expect(h.get('big', 'y'.repeat(101)).body).toHaveLength(101);
    expect(h.cache.size).toBe(0);
    h.get('big', 'y'.repeat(101));
    expect(h.builds()).toBe(2);
  });

  test('a change of either counter, or the age, makes the entry stale', () => {
    const h = harness();
    h.get('a');
    h.get('a');
    expect(h.builds()).toBe(1);
    h.version.own++;
    h.get('a');
    expect(h.builds()).toBe(2);
    h.version.other++;
    h.get('a');
    expect(h.builds()).toBe(3);
    h.clock.advance(15_000);
    h.get('a');
    expect(h.builds()).toBe(4);
  });

  test('a failed build stores nothing and leaves the next read to build again', () => {
    const h = harness();
    expect(() =>
      h.cache.get('x', 15_000, () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(h.cache.size).toBe(0);
  });
});
