// Novelty off the request thread (src/show/novelty-pool.ts, workers/show-novelty.ts): the index the
// worker keeps, the feed that keeps it current, and the write's in-transaction completion of the
// worker's scoring (a root committed meanwhile, a candidate deleted meanwhile, a worker that fails).
// Writes go through the board's own functions, prepareThread then createThread inside a group
// commit, as the route runs them.
import { afterAll, describe, expect, test } from 'bun:test';
import { accountByName } from '../../src/accounts/accounts.ts';
import { createThread, prepareThread } from '../../src/board/posts.ts';
import { groupCommit } from '../../src/db/group-commit.ts';
import { type NoveltyAnswer, NoveltyIndex, NoveltyIndexes, type NoveltyQuery } from '../../src/show/novelty-index.ts';
import { scoreInWorker } from '../../src/show/novelty-pool.ts';
import { noveltySets } from '../../src/show/novelty.ts';
import { WorkerPool, workerLocation } from '../../src/workers/pool.ts';
import { type Agent, makeShowApp, rootOf } from './harness.ts';

const META = 'Format: story\nAudience: people who maintain small open source tools\nEvidence: none';
const HOOK = 'Most small tools lose their users at the install step';
const BASE = rootOf(`${HOOK}\nWe read the issue trackers of small command line tools and the same complaint keeps coming back about installing them.`, META);
const REORDERED = rootOf(
  'The install step is where small tools lose most of their users\nThe same complaint keeps coming back: installing them. We read issue trackers of small command line tools.',
  META,
);
const letters = (i: number) => [...String(i)].map((d) => 'abcdefghij'[Number(d)]).join('');
const distinct = (i: number) => {
  const l = letters(i);
  return rootOf(`${l}alpha ${l}beta ${l}gamma ${l}delta\n${['one', 'two', 'three', 'four', 'five', 'six', 'seven'].map((w) => `${l}${w}`).join(' ')}.`, META);
};

const pools: WorkerPool<NoveltyQuery, NoveltyAnswer>[] = [];
afterAll(() => {
  for (const p of pools) p.close();
});

/** A pool of the real worker whose queries the test can read. */
function spiedPool(timeoutMs = 5_000, location: string | URL = workerLocation('show-novelty')) {
  const pool = new WorkerPool<NoveltyQuery, NoveltyAnswer>(location, 1, timeoutMs);
  pools.push(pool);
  const queries: NoveltyQuery[] = [];
  const run = pool.run.bind(pool);
  pool.run = (q: NoveltyQuery, ms?: number) => {
    queries.push(q);
    return run(q, ms);
  };
  return { pool, queries };
}

async function lane() {
  const spy = spiedPool();
  const t = makeShowApp(undefined, {}, { workers: { showNovelty: spy.pool } });
  const a = await t.crew('alice');
  const b = await t.crew('bob');
  const c = await t.crew('carol');
  const prepare = (who: Agent, body: ReturnType<typeof rootOf>) => prepareThread(t.ctx, accountByName(t.ctx, who.name), body);
  /** The write as the route runs it: the transaction of a group commit, with what was prepared. */
  const write = (who: Agent, body: ReturnType<typeof rootOf>, prepared: Awaited<ReturnType<typeof prepare>>) =>
    groupCommit(t.ctx.db, () => createThread(t.ctx, accountByName(t.ctx, who.name), body, prepared));
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: { code?: string; details?: Record<string, unknown> }) => ({ code: e.code, details: e.details }),
    );
  return { t, spy, a, b, c, prepare, write, refusal };
}

describe('the index (src/show/novelty-index.ts)', () => {
  const entry = (id: string, at: number, post: string[], hook = post.slice(0, 2)) => ({ id, at, post, hook });
  const q = (over: Partial<NoveltyQuery>): NoveltyQuery => ({
    dataset: 'd',
    from: 0,
    reset: false,
    entries: [],
    since: 0,
    post: [],
    hook: [],
    postPercent: 45,
    hookPercent: 60,
    limit: 16,
    ...over,
  });

  test('45 % of the smaller set is a hit, 44 % is not; best first', () => {
    const i = new NoveltyIndex();
    const words = (n: number, p: string) => Array.from({ length: n }, (_, k) => `${p}${k}`);
    // The new root has 100 words; r45 shares 45 of them, r44 44, r-small shares 5 of its own 10.
    i.apply([
      entry('r45', 1, [...words(45, 'w'), ...words(55, 'x')]),
      entry('r44', 2, [...words(44, 'w'), ...words(56, 'y')]),
      entry('small', 3, [...words(5, 'w'), ...words(5, 'z')]),
    ]);
    const found = i.similar('post', words(100, 'w'), 0, 45);
    expect(found.map((c) => [c.id, c.shared, Math.round(c.overlap * 100)])).toEqual([
      ['small', 5, 50],
      ['r45', 45, 45],
    ]);
  });

  test('the window: roots older than since are neither counted nor kept', () => {
    const i = new NoveltyIndex();
    i.apply([entry('old', 10, ['a', 'b', 'c']), entry('new', 20, ['a', 'b', 'c'])]);
    expect(i.similar('post', ['a', 'b', 'c'], 15, 45).map((c) => c.id)).toEqual(['new']);
    i.evict(15);
    expect([i.size, i.version]).toEqual([1, 2]);
  });

  test('a fresh index asks for the log from 0; a gap is answered with need; reset starts over', () => {
    const x = new NoveltyIndexes(2);
    expect(x.answer(q({ from: 5, entries: [entry('r', 1, ['a'])] }))).toEqual({ need: 0 });
    expect(x.answer(q({ from: 0, entries: [entry('r', 1, ['a', 'b'])], post: ['a', 'b'] }))).toMatchObject({ candidates: [{ id: 'r' }], held: 1 });
    expect(x.answer(q({ from: 3, entries: [] }))).toEqual({ need: 1 });
    expect(x.answer(q({ from: 7, reset: true, entries: [entry('s', 1, ['c'])], post: ['a', 'b'] }))).toMatchObject({ candidates: [], held: 1 });
    expect(x.answer(q({ from: 8, post: ['c'] }))).toMatchObject({ candidates: [{ id: 's' }] });
    // Past `max` datasets the least recently used one is dropped and must be sent again.
    x.answer(q({ dataset: 'e' }));
    x.answer(q({ dataset: 'f' }));
    expect(x.answer(q({ from: 8 }))).toEqual({ need: 0 });
  });

  test('more candidates than the limit: the basis is reported truncated', () => {
    const x = new NoveltyIndexes();
    const entries = Array.from({ length: 5 }, (_, k) => entry(`r${k}`, k, ['a', 'b', 'c']));
    expect(x.answer(q({ entries, post: ['a', 'b', 'c'], limit: 3 }))).toMatchObject({ truncated: ['post'], held: 5 });
  });
});

describe('novelty scored in the worker', () => {
  test('a near-duplicate is refused from the worker’s scoring; the feed sends only what is new', async () => {
    const l = await lane();
    const first = await l.t.root(l.a, BASE);
    await l.t.root(l.a, distinct(1));
    l.t.clock.advance(6 * 86_400_000);
    const prepared = await l.prepare(l.b, REORDERED);
    // Each stored root reached the worker once, in order (whether the route prepared them or not).
    expect(l.spy.queries.flatMap((q) => q.entries.map((e) => e.id))).toEqual([first, expect.any(String)]);
    const sent = l.spy.queries.length;
    expect((prepared.get('show-lane') as { score: { candidates: { id: string }[] } }).score.candidates[0]!.id).toBe(first);
    expect(await l.refusal(l.write(l.b, REORDERED, prepared))).toMatchObject({ code: 'NOT_NOVEL', details: { similar_id: first, basis: 'post' } });
    // The next root: only the roots stored since are sent, none here.
    const fresh = await l.prepare(l.c, distinct(2));
    expect(l.spy.queries[sent]).toMatchObject({ from: 2, entries: [] });
    expect(await l.refusal(l.write(l.c, distinct(2), fresh))).toBeNull();
    await l.prepare(l.c, distinct(3));
    expect(l.spy.queries[sent + 1]).toMatchObject({ from: 2, entries: [expect.objectContaining({ id: expect.any(String) })] });
  });

  test('POST /v1/posts scores a Show root in the worker before its transaction, and refuses the near-duplicate', async () => {
    const l = await lane();
    const first = await l.t.root(l.a, BASE);
    const before = l.spy.queries.length;
    const r = await l.t.post(l.b, REORDERED);
    // The route asked the worker (the query carried the stored root), then refused from its answer.
    expect(l.spy.queries.length).toBe(before + 1);
    expect(l.spy.queries.flatMap((q) => q.entries.map((e) => e.id))).toContain(first);
    expect([r.status, r.json.error.code, r.json.error.details.similar_id]).toEqual([409, 'NOT_NOVEL', first]);
  });

  test('a root committed between the scoring and the write is still considered', async () => {
    const l = await lane();
    const prepared = await l.prepare(l.b, REORDERED); // nothing to compare with yet
    const meanwhile = await l.t.root(l.a, BASE);
    expect(await l.refusal(l.write(l.b, REORDERED, prepared))).toMatchObject({ code: 'NOT_NOVEL', details: { similar_id: meanwhile, basis: 'post' } });
  });

  test('two near-duplicates in one group commit: the second is refused', async () => {
    const l = await lane();
    const [p1, p2] = await Promise.all([l.prepare(l.a, BASE), l.prepare(l.b, REORDERED)]);
    const [r1, r2] = await Promise.all([l.refusal(l.write(l.a, BASE, p1)), l.refusal(l.write(l.b, REORDERED, p2))]);
    expect(r1).toBeNull();
    expect(r2).toMatchObject({ code: 'NOT_NOVEL', details: { basis: 'post' } });
  });

  test('a candidate deleted between the scoring and the write no longer counts', async () => {
    const l = await lane();
    const first = await l.t.root(l.a, BASE);
    const prepared = await l.prepare(l.b, REORDERED);
    await l.t.call('DELETE', `/v1/posts/${first}`, { key: l.a.key });
    expect(await l.refusal(l.write(l.b, REORDERED, prepared))).toBeNull();
  });

  test('a prepared value for another body is not used', async () => {
    const l = await lane();
    const prepared = await l.prepare(l.b, REORDERED);
    await l.t.root(l.a, BASE);
    // Scored as a fresh root before BASE existed; written as REORDERED after: scored in place.
    const other = new Map([['show-lane', { ...(prepared.get('show-lane') as object), body: 'something else' }]]);
    expect(await l.refusal(l.write(l.b, REORDERED, other))).toMatchObject({ code: 'NOT_NOVEL' });
  });

  test('a root the write refuses anyway is not sent to the worker', async () => {
    const l = await lane();
    const prepared = await l.prepare(l.a, { ...BASE, title: 'Show: not the first line at all' });
    expect(prepared.get('show-lane')).toBeUndefined();
    expect((await l.prepare(l.a, { topic: 'general', title: 'x', body: 'y' })).get('show-lane')).toBeUndefined();
    expect(l.spy.queries).toHaveLength(0);
  });

  test('a fresh worker that lost the index asks for the log again', async () => {
    const l = await lane();
    const first = await l.t.root(l.a, BASE);
    await l.prepare(l.c, distinct(4));
    const fresh = spiedPool();
    l.t.ctx.workers.showNovelty = fresh.pool;
    const score = await scoreInWorker(l.t.ctx, noveltySets(HOOK, REORDERED.body.split('\nFormat:')[0]!));
    expect(fresh.queries.map((q) => [q.from, q.entries.length])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(score?.candidates[0]).toMatchObject({ id: first });
  });

  for (const [name, pool] of [
    ['a worker over its budget', () => spiedPool(50, new URL('../workers/fixtures/silent-worker.ts', import.meta.url)).pool],
    ['a crashing worker', () => spiedPool(5_000, new URL('./crashing-worker.ts', import.meta.url)).pool],
  ] as const) {
    test(`${name}: the write scores in place, same answer`, async () => {
      const l = await lane();
      l.t.ctx.workers.showNovelty = pool();
      const first = await l.t.root(l.a, BASE);
      const prepared = await l.prepare(l.b, REORDERED);
      expect((prepared.get('show-lane') as { score: unknown }).score).toBeNull();
      expect(await l.refusal(l.write(l.b, REORDERED, prepared))).toMatchObject({ code: 'NOT_NOVEL', details: { similar_id: first } });
    });
  }
});
