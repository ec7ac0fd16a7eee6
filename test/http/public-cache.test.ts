// The public document cache: each document is served for the age the spec allows it (activity
// 15 s, thread views and pages 30 s, jobs and leaderboard 60 s), writes or not, and rebuilt at
// most once at a time; memory stays bounded however many distinct queries arrive.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/compose.ts';
import { serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { DocumentCache, publicCache } from '../../src/http/public-cache.ts';
import { board, deleteAccount, deletePost, read, seedReply, seedThread } from '../public/fixtures.ts';

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
    const root = seedThread(t, alice!);
    await read(t, '/api/activity');
    seedReply(t, alice!, root.id);
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
    const builds = publicCache(t.ctx).builds;
    const again = await read(t, `/api/thread/${root.id}`);
    // Rebuilt, and nothing changed: the stored copy is kept (generated_at, bytes, tag); Age restarts.
    expect(publicCache(t.ctx).builds).toBe(builds + 1);
    expect(again.json.generated_at).toBe('2026-11-23T12:00:00.000Z');
    expect(again.headers.get('age')).toBe('0');
    seedReply(t, alice!, root.id);
    t.clock.advance(30_000);
    expect((await read(t, `/api/thread/${root.id}`)).json.generated_at).toBe('2026-11-23T12:01:00.000Z');
  });

  // A write does not throw the documents away: each is served for the age the spec allows it
  // (its Age honest all along), then rebuilt with the write in it.
  test.each([
    ['/api/activity', 15],
    ['/api/thread/{root}', 30],
    ['/threads/{root}', 30],
    ['/api/jobs', 60],
    ['/api/leaderboard', 60],
  ])('%s: a write is in the document once its %p s are over, not before', async (path, maxAge) => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    const url = path.replace('{root}', root.id);
    const first = await read(t, url);
    expect(first.status).toBe(200);
    const builds = publicCache(t.ctx).builds;
    seedReply(t, alice!, root.id, { body: 'Delivered: after the first read' });
    t.db.query('UPDATE posts SET score = 5 WHERE id = ?').run(root.id);
    t.clock.advance(maxAge * 1000 - 1);
    const held = await read(t, url);
    expect(held.text).toBe(first.text);
    expect(held.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(held.headers.get('cache-control')).toBe(`public, max-age=${maxAge}`);
    expect(held.headers.get('age')).toBe(String(maxAge - 1));
    expect(publicCache(t.ctx).builds).toBe(builds);
    t.clock.advance(1);
    // The documents rebuilt beside the requests (jobs, leaderboard) serve the expired copy to the
    // reader that starts the rebuild; every other reader waits for it.
    await read(t, url);
    await publicCache(t.ctx).settled();
    const rebuilt = await read(t, url);
    // The reply is no job: the jobs document is rebuilt the same, and keeps its bytes and tag.
    if (path === '/api/jobs') expect(rebuilt.headers.get('etag')).toBe(first.headers.get('etag'));
    else expect(rebuilt.text).not.toBe(first.text);
    expect(rebuilt.headers.get('age')).toBe('0');
    expect(publicCache(t.ctx).builds).toBe(builds + 1);
  });

  // Taking something down shows at once (a deleted or edited post, a deleted or revoked account);
  // adding something (a reply, a vote, a new agent) waits for the document's age.
  test.each([
    ['the root deleted', true, (t: any, root: string) => deletePost(t, root)],
    ['the root edited', true, (t: any, root: string) => t.db.query("UPDATE posts SET body = 'redacted', edited_at = 1 WHERE id = ?").run(root)],
    ['the author deleted', true, (t: any, _root: string, a: any) => deleteAccount(t, a)],
    ['the author revoked', true, (t: any, _root: string, a: any) => t.db.query('UPDATE accounts SET revoked_at = 1 WHERE id = ?').run(a.id)],
    ['a reply written', false, (t: any, root: string, a: any) => seedReply(t, a, root)],
    ['a vote counted', false, (t: any, root: string) => t.db.query('UPDATE posts SET score = score + 1 WHERE id = ?').run(root)],
    ['a title-less edit of nothing', false, (t: any, root: string) => t.db.query('UPDATE posts SET edited_at = 2 WHERE id = ?').run(root)],
    ['another agent registered', false, (t: any) => t.register('bob')],
  ] as const)('%s: rebuilt on the next read %p', async (_, rebuilt, act) => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    await read(t, '/api/activity');
    const builds = publicCache(t.ctx).builds;
    await act(t, root.id, alice!);
    t.clock.advance(1_000);
    await read(t, '/api/activity');
    expect(publicCache(t.ctx).builds - builds).toBe(rebuilt ? 1 : 0);
  });

  test('many writes between reads: one build per max-age, not one per write', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    await read(t, '/api/activity');
    const builds = publicCache(t.ctx).builds;
    for (let i = 0; i < 30; i++) {
      seedReply(t, alice!, root.id);
      t.clock.advance(500); // 2 writes/s for 15 s
      await read(t, '/api/activity');
    }
    expect(publicCache(t.ctx).builds - builds).toBe(1);
  });

  test('the thread document shows a new reply after 30 s', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    await read(t, `/api/thread/${root.id}`);
    const reply = seedReply(t, alice!, root.id);
    expect((await read(t, `/api/thread/${root.id}`)).json.replies).toEqual([]);
    t.clock.advance(30_000);
    expect((await read(t, `/api/thread/${root.id}`)).json.replies.map((r: any) => r.id)).toEqual([reply.id]);
  });

  test('equal queries share one entry: parameter order, spelling of the time, unknown parameters', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    seedThread(t, alice!);
    const first = await read(t, '/api/activity?limit=7&since=1700000000');
    t.clock.advance(5_000);
    for (const q of ['since=1700000000&limit=7', 'limit=7&since=2023-11-14T22:13:20Z', 'limit=7&since=1700000000.0&_=x']) {
      expect((await read(t, `/api/activity?${q}`)).json.generated_at).toBe(first.json.generated_at);
    }
  });

  test('If-None-Match with the current ETag is 304 without a body until the document is rebuilt with other bytes', async () => {
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
    expect((await read(t, '/api/activity', { 'if-none-match': etag })).status).toBe(304); // the same bytes, still served
    t.clock.advance(15_000);
    const changed = await read(t, '/api/activity', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  test('a write by another connection (svc admin on the same data dir) is in the next document built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-public-cache-'));
    try {
      const db = openDatabase(dir);
      migrate(db);
      const clock = new ManualClock(Date.parse('2026-11-23T12:00:00Z'));
      const ctx = serviceContext(loadConfig({ SVC_BASE_URL: 'http://svc.test' }), db, clock);
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
      expect((await get()).items).toEqual([]);
      clock.advance(15_000);
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
    const removals = { n: 0 };
    const cache = new DocumentCache(clock, () => removals.n, limits);
    let builds = 0;
    const get = (key: string, body = `body of ${key}`) =>
      cache.get(key, 15_000, () => {
        builds++;
        return body;
      });
    return { clock, cache, get, removals, builds: () => builds };
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

  // [ms after the build, rebuilt]: only the age makes an entry stale; a clock set back rebuilds.
  test.each([
    [0, false],
    [14_999, false],
    [15_000, true],
    [60_000, true],
    [-1, true],
  ])('read %p ms after the build: rebuilt %p', (after, rebuilt) => {
    const h = harness();
    h.clock.set(new Date(1_000_000).toISOString());
    h.get('a');
    h.clock.set(new Date(1_000_000 + after).toISOString());
    h.get('a');
    expect(h.builds()).toBe(rebuilt ? 2 : 1);
  });

  test('a move of the removal counter makes every entry stale; its age alone otherwise', () => {
    const h = harness();
    h.get('a');
    h.get('b');
    h.removals.n++;
    h.get('a');
    h.get('b');
    expect(h.builds()).toBe(4);
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

describe('DocumentCache.getAsync: one build at a time', () => {
  function gate() {
    let open!: (body: string) => void;
    const done = new Promise<string>((r) => {
      open = r;
    });
    return { done, open };
  }

  test('readers arriving during the first build wait for it: ten readers, one build', async () => {
    const cache = new DocumentCache(new ManualClock(0));
    const g = gate();
    let builds = 0;
    const readers = Array.from({ length: 10 }, () =>
      cache.getAsync('page', 30_000, () => {
        builds++;
        return g.done;
      }),
    );
    g.open('<p>built once</p>');
    const docs = await Promise.all(readers);
    expect(builds).toBe(1);
    expect(new Set(docs.map((d) => d.body))).toEqual(new Set(['<p>built once</p>']));
  });

  test('readers arriving during a rebuild get the expiring copy; the next reader gets the new one', async () => {
    const clock = new ManualClock(0);
    const cache = new DocumentCache(clock);
    await cache.getAsync('page', 30_000, async () => 'old');
    clock.advance(30_000);
    const g = gate();
    let builds = 0;
    const build = () => {
      builds++;
      return g.done;
    };
    const rebuilding = cache.getAsync('page', 30_000, build);
    const during = await Promise.all([cache.getAsync('page', 30_000, build), cache.getAsync('page', 30_000, build)]);
    expect(during.map((d) => d.body)).toEqual(['old', 'old']);
    g.open('new');
    expect((await rebuilding).body).toBe('new');
    expect((await cache.getAsync('page', 30_000, build)).body).toBe('new');
    expect(builds).toBe(1);
  });

  test('a failed build fails its waiters, stores nothing, and the next reader builds again', async () => {
    const cache = new DocumentCache(new ManualClock(0));
    const failing = () => Promise.reject(new Error('render failed'));
    const both = await Promise.allSettled([cache.getAsync('page', 30_000, failing), cache.getAsync('page', 30_000, failing)]);
    expect(both.map((r) => (r.status === 'rejected' ? String(r.reason) : 'served'))).toEqual(['Error: render failed', 'Error: render failed']);
    expect(cache.size).toBe(0);
    expect((await cache.getAsync('page', 30_000, async () => 'ok')).body).toBe('ok');
  });
});
