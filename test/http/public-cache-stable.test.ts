// Stable tags and rebuilds beside the requests: a rebuild that finds the same content keeps the
// stored bytes, generated_at and ETag (If-None-Match keeps answering 304); a reader during a
// rebuild gets the previous copy; a removal is never served on.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import { type Built, DocumentCache, publicCache, stableJson } from '../../src/http/public-cache.ts';
import { makeBoardApp } from '../leaderboard/harness.ts';

const deferred = () => {
  let resolve!: (b: Built) => void;
  const promise = new Promise<Built>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('stable tags over HTTP', () => {
  test.each([['/api/leaderboard'], ['/api/office'], ['/api/show'], ['/api/jobs'], ['/api/activity']])(
    '%s: two rebuilds with no write between keep the bytes and the ETag (304); a write gives a new one',
    async (path) => {
      const t = makeBoardApp();
      const [ann, bob] = await t.agents('ann', 'bob');
      const post = await t.post(ann!, 'Measured numbers');
      await t.vote(bob!, post);
      const get = (headers: Record<string, string> = {}) =>
        t.call('GET', path, { headers: { 'x-agent-protocol': '', 'content-type': '', accept: 'application/json', ...headers } });
      /** The document after its max-age, once the rebuild it starts has ended. */
      async function rebuilt() {
        t.clock.advance(61_000);
        await get();
        await publicCache(t.ctx).settled();
        return get();
      }
      const first = await get();
      expect(first.status).toBe(200);
      const builds = publicCache(t.ctx).builds;
      const second = await rebuilt();
      const third = await rebuilt();
      expect(publicCache(t.ctx).builds).toBe(builds + 2);
      for (const r of [second, third]) {
        expect(r.text).toBe(first.text);
        expect(r.headers.get('etag')).toBe(first.headers.get('etag'));
        expect(r.json.generated_at).toBe(first.json.generated_at);
        expect(r.headers.get('age')).toBe('0');
      }
      expect((await get({ 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
      // A write the document shows: a new root with a vote (activity, leaderboard), a lab job, a Show root, an active agent.
      const carl = await t.crew('carl');
      const job = await t.post(carl, 'Request: a mailbox for logs', 'Resource: mailbox\nNeed: a shared inbox for the logs\nCost: none', 'svc-1m');
      await t.vote(bob!, job);
      t.db.run(
        "INSERT INTO show_items (root_id, author_id, crew, hook, format, created_at, post_words, hook_words) VALUES (?, ?, 1, 'a hook here', 'post', ?, 1, 1)",
        [job, carl.id, t.clock.now()],
      );
      await t.call('GET', '/v1/continuity', { key: carl.key });
      const changed = await rebuilt();
      expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
      expect(changed.json.generated_at).not.toBe(first.json.generated_at);
      expect((await get({ 'if-none-match': first.headers.get('etag')! })).status).toBe(200);
    },
  );
});

describe('DocumentCache: stable content', () => {
  test('an equal content keeps the stored bytes and tag without serializing again; another content does not', () => {
    const c = new DocumentCache(new ManualClock(0));
    const at = () => c.stamp();
    const a = c.put('k', stableJson({ generated_at: 'one', n: 1 }), at(), 1000);
    let serialized = 0;
    const same = c.put('k', { content: JSON.stringify({ generated_at: null, n: 1 }), body: () => `${serialized++}` }, at(), 1000);
    expect(serialized).toBe(0);
    expect(same.body).toBe(a.body);
    expect(same.etag).toBe(a.etag);
    const other = c.put('k', stableJson({ generated_at: 'two', n: 2 }), at(), 1000);
    expect(other.etag).not.toBe(a.etag);
    expect(JSON.parse(other.body)).toEqual({ generated_at: 'two', n: 2 });
  });

  test('stamps at a dotted path are left out of the content, and kept in the bytes', () => {
    const built = stableJson({ generated_at: 'g', lab: { since: 's', n: 1 } }, ['lab.since', 'absent.path']);
    if (typeof built === 'string') throw new Error('expected content');
    expect(JSON.parse(built.content)).toEqual({ generated_at: null, lab: { since: null, n: 1 } });
    expect(JSON.parse(built.body())).toEqual({ generated_at: 'g', lab: { since: 's', n: 1 } });
  });
});

describe('DocumentCache.getStale: the previous copy during a rebuild; a removal at once', () => {
  test('readers during a rebuild get the previous copy at once, and one build runs', async () => {
    const clock = new ManualClock(0);
    const c = new DocumentCache(clock);
    c.put('k', 'v1', c.stamp(), 1000);
    clock.advance(1500);
    const d = deferred();
    let started = 0;
    const build = () => {
      started++;
      return d.promise;
    };
    const r1 = c.getStale('k', 1000, 1000, build);
    const r2 = c.getStale('k', 1000, 1000, build);
    expect(r1 instanceof Promise).toBe(false);
    expect((r1 as { body: string }).body).toBe('v1');
    expect((r2 as { body: string }).body).toBe('v1');
    await new Promise((resolve) => setImmediate(resolve)); // the build starts after the readers are answered
    expect(started).toBe(1);
    d.resolve('v2');
    await c.settled('k');
    expect((c.getStale('k', 1000, 1000, build) as { body: string }).body).toBe('v2');
    expect(started).toBe(1);
  });

  test('past its stale time a copy is not served: the reader waits for the build', async () => {
    const clock = new ManualClock(0);
    const c = new DocumentCache(clock);
    c.put('k', 'v1', c.stamp(), 1000);
    clock.advance(2000);
    const got = c.getStale('k', 1000, 1000, async () => 'v2');
    expect(got instanceof Promise).toBe(true);
    expect((await got).body).toBe('v2');
  });

  test('after a removal neither the previous copy nor a build started before it is served', async () => {
    const clock = new ManualClock(0);
    let removals = 0;
    const c = new DocumentCache(clock, () => removals);
    c.put('k', 'v1', c.stamp(), 1000);
    clock.advance(1500);
    const before = deferred();
    expect((c.getStale('k', 1000, 1000, () => before.promise) as { body: string }).body).toBe('v1');
    removals++;
    const after = deferred();
    const waiting = c.getStale('k', 1000, 1000, () => after.promise);
    expect(waiting instanceof Promise).toBe(true);
    // getAsync keeps the same rule.
    const alsoWaiting = c.getAsync('k', 1000, () => after.promise);
    after.resolve('v3');
    expect((await waiting).body).toBe('v3');
    expect((await alsoWaiting).body).toBe('v3');
    // The build started before the removal ends last: it does not replace the newer copy.
    before.resolve('v2');
    await c.settled();
    expect(c.fresh('k', c.stamp())?.body).toBe('v3');
  });
});
