// GET /v1/search: words of live posts, stemmed, newest first, paged by cursor.
import { describe, expect, test } from 'bun:test';
import { encodeCursor } from '../../src/http/paging.ts';
import { SCAN_MAX } from '../../src/search/search.ts';
import { makeApp } from '../helpers.ts';
import { type Agent, deleteAccount, deletePost, seedPost, type T } from './fixtures.ts';

async function setup() {
  const t = makeApp();
  const ann = await t.register('ann');
  return { t, ann };
}

const search = (t: T, who: Agent, params: Record<string, string>) => t.call('GET', `/v1/search?${new URLSearchParams(params)}`, { key: who.key });
const ids = (r: { json: { results: { id: string }[] } }) => r.json.results.map((x) => x.id);

describe('GET /v1/search finds words', () => {
  test('stemming: "benchmark" finds "benchmarks" and "benchmarks" finds "benchmarking"', async () => {
    const { t, ann } = await setup();
    const a = seedPost(t, { author: ann, title: 'Weekly notes', body: 'We ran the benchmarks twice.' });
    const b = seedPost(t, { author: ann, title: 'Benchmarking the relay', body: 'Numbers below.' });
    expect((await search(t, ann, { q: 'benchmark' })).json.results.map((r: { id: string }) => r.id).sort()).toEqual([a, b].sort());
    expect(ids(await search(t, ann, { q: 'benchmarks' })).sort()).toEqual([a, b].sort());
  });

  test('every word of q must occur', async () => {
    const { t, ann } = await setup();
    const both = seedPost(t, { author: ann, body: 'relay latency measured' });
    seedPost(t, { author: ann, body: 'relay only' });
    expect(ids(await search(t, ann, { q: 'Relay LATENCY' }))).toEqual([both]);
  });

  test('results are newest first, a title hit and a body hit alike', async () => {
    const { t, ann } = await setup();
    const titled = seedPost(t, { author: ann, title: 'Latency of the public feed', body: 'Measured from three regions over one day.' });
    const bodied = seedPost(t, { author: ann, title: 'Weekly notes', body: 'Among other things we looked at latency of the feed.' });
    const again = seedPost(t, { author: ann, title: 'Latency, again', body: 'latency latency latency' });
    expect(ids(await search(t, ann, { q: 'latency' }))).toEqual([again, bodied, titled]);
  });

  test('answers the documented shape: a root shows its title, a reply its first line, excerpts are one line', async () => {
    const { t, ann } = await setup();
    const root = seedPost(t, {
      author: ann,
      title: 'Relay outage report',
      body: 'First paragraph\n\n  about   the relay.\tEnd.',
      at: Date.parse('2026-11-20T10:00:00Z'),
    });
    const reply = seedPost(t, {
      author: ann,
      thread: root,
      body: `\n  Confirmed: relay   back\nsecond line ${'x'.repeat(300)}`,
      at: Date.parse('2026-11-20T11:00:00Z'),
    });
    const r = await search(t, ann, { q: 'relay' });
    expect(r.status).toBe(200);
    expect(r.json.next_before).toBeNull();
    expect(r.json.viewer.voting).toEqual(expect.objectContaining({ daily_limit: expect.any(Number), remaining: expect.any(Number) }));
    const byId = new Map(r.json.results.map((x: { id: string }) => [x.id, x]));
    expect(byId.get(root)).toEqual({
      id: root,
      kind: 'post',
      thread_id: root,
      title: 'Relay outage report',
      excerpt: 'First paragraph about the relay. End.',
      author: 'ann',
      created_at: '2026-11-20T10:00:00.000Z',
      url: `http://svc.test/threads/${root}`,
    });
    const rep = byId.get(reply) as Record<string, string>;
    expect(rep).toMatchObject({
      kind: 'reply',
      thread_id: root,
      title: 'Confirmed: relay back',
      author: 'ann',
      url: `http://svc.test/threads/${root}#${reply}`,
    });
    expect(Array.from(rep.excerpt!)).toHaveLength(240);
    expect(rep.excerpt).toStartWith('Confirmed: relay back second line xxx');
    expect(rep.excerpt).toEndWith('…');
  });

  test('a long first line is cut to 160 characters as a reply title', async () => {
    const { t, ann } = await setup();
    const root = seedPost(t, { author: ann, body: 'root' });
    seedPost(t, { author: ann, thread: root, body: `gauge ${'é'.repeat(400)}` });
    const [hit] = (await search(t, ann, { q: 'gauge' })).json.results;
    expect(Array.from(hit.title)).toHaveLength(160);
    expect(hit.title).toEndWith('…');
  });
});

describe('GET /v1/search leaves out what is not live', () => {
  test('a deleted post is not found', async () => {
    const { t, ann } = await setup();
    const gone = seedPost(t, { author: ann, body: 'ephemeral words' });
    const kept = seedPost(t, { author: ann, body: 'ephemeral but kept' });
    deletePost(t, gone);
    expect(ids(await search(t, ann, { q: 'ephemeral' }))).toEqual([kept]);
  });

  test('deleting a root hides its replies', async () => {
    const { t, ann } = await setup();
    const root = seedPost(t, { author: ann, body: 'root text' });
    seedPost(t, { author: ann, thread: root, body: 'orphaned marmalade' });
    deletePost(t, root);
    expect(ids(await search(t, ann, { q: 'marmalade' }))).toEqual([]);
  });

  test('a reply is not found once its root is deleted, even if the reply row itself was missed', async () => {
    const { t, ann } = await setup();
    const root = seedPost(t, { author: ann, body: 'root text' });
    seedPost(t, { author: ann, thread: root, body: 'stray marmalade' });
    t.db.query('UPDATE posts SET deleted_at = 1 WHERE id = ?').run(root);
    expect(ids(await search(t, ann, { q: 'marmalade' }))).toEqual([]);
  });

  test('the writing of a deleted account is not found', async () => {
    const { t, ann } = await setup();
    const ben = await t.register('ben');
    seedPost(t, { author: ben, body: 'quince jelly' });
    const mine = seedPost(t, { author: ann, body: 'quince pie' });
    deleteAccount(t, ben);
    expect(ids(await search(t, ann, { q: 'quince' }))).toEqual([mine]);
  });
});

describe('GET /v1/search treats q as words, never as full-text syntax', () => {
  const BODY = 'An unbalanced quote near a b, foo bar or title x at the start of a rocket launch.';
  const found = 'finds the post';
  const none = 'finds nothing';
  const cases: [label: string, q: string, expected: 400 | typeof found | typeof none][] = [
    ['an unbalanced quote', '"unbalanced', found],
    ['a NEAR group', 'NEAR(a b)', found],
    ['a prefix star', 'foo*', found],
    ['a leading minus', '-bar', found],
    ['OR between words', 'a OR b', found],
    ['NOT is a word like any other', 'foo NOT bar', none],
    ['open parentheses only', '(((', 400],
    ['a column filter', 'title:x', found],
    ['an initial-token caret', '^start', found],
    ['emoji around a word', '🚀 rocket 🚀', found],
    ['emoji only', '🚀🎉', 400],
    ['SQL-looking text', "'; DROP TABLE posts; --", none],
    ['a 200-character query', 'foo bar '.repeat(25), found],
    ['a 201-character query', `x${'foo bar '.repeat(25)}`, 400],
    ['an empty query', '', 400],
    ['only punctuation', '?!.,;:-*"()^', 400],
    ['only spaces', '   ', 400],
  ];
  for (const [label, q, expected] of cases) {
    test(`${label}: ${JSON.stringify(q.length > 40 ? `${q.slice(0, 20)}…` : q)} ${expected === 400 ? 'is 400 INVALID_REQUEST' : expected}`, async () => {
      const { t, ann } = await setup();
      const post = seedPost(t, { author: ann, title: 'Launch notes', body: BODY });
      const r = await search(t, ann, { q });
      if (expected === 400) {
        expect(r.status).toBe(400);
        expect(r.json.error.code).toBe('INVALID_REQUEST');
        expect(r.json.error.details.field).toBe('q');
        return;
      }
      expect(r.status).toBe(200);
      expect(ids(r)).toEqual(expected === found ? [post] : []);
    });
  }

  test('a query without searchable words says so and which words were usable', async () => {
    const { t, ann } = await setup();
    const r = await search(t, ann, { q: '*** ---' });
    expect(r.json.error.details).toMatchObject({ field: 'q', usable_words: [] });
    expect(r.json.error.details.reason).toContain('no searchable word');
  });

  test('q is required', async () => {
    const { t, ann } = await setup();
    const r = await t.call('GET', '/v1/search', { key: ann.key });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
  });
});

describe('GET /v1/search pages', () => {
  test('120 hits page through with no loss and no repeat, even when a match is posted meanwhile', async () => {
    const { t, ann } = await setup();
    const all = Array.from({ length: 120 }, (_, i) => seedPost(t, { author: ann, body: `paging sample number ${i}` }));
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const r: Awaited<ReturnType<typeof search>> = await search(t, ann, { q: 'paging sample', limit: '50', ...(before ? { before } : {}) });
      expect(r.status).toBe(200);
      seen.push(...ids(r));
      before = r.json.next_before;
      pages += 1;
      // A new match after the first page stays out of this walk: it cannot push results along.
      if (pages === 1) seedPost(t, { author: ann, title: 'paging sample', body: 'paging sample, late and well ranked' });
    } while (before !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(120);
    expect(new Set(seen)).toEqual(new Set(all));
  });

  test('limit defaults to 20 and stays within 1..50', async () => {
    const { t, ann } = await setup();
    for (let i = 0; i < 25; i++) seedPost(t, { author: ann, body: `walrus ${i}` });
    const first = await search(t, ann, { q: 'walrus' });
    expect(first.json.results).toHaveLength(20);
    expect(first.json.next_before).toBeString();
    for (const limit of ['0', '51', 'ten']) {
      const r = await search(t, ann, { q: 'walrus', limit });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_LIMIT');
      expect(r.json.error.details).toMatchObject({ min: 1, max: 50, default: 20 });
    }
  });

  test('a cursor from another query, another feed or nowhere is 400 INVALID_CURSOR', async () => {
    const { t, ann } = await setup();
    for (let i = 0; i < 3; i++) seedPost(t, { author: ann, body: `walrus tusk ${i}` });
    const cursor = (await search(t, ann, { q: 'walrus', limit: '1' })).json.next_before as string;
    expect((await search(t, ann, { q: 'WALRUS', limit: '1', before: cursor })).status).toBe(200);
    for (const [q, before] of [
      ['tusk', cursor],
      ['walrus', encodeCursor('posts', 5)],
      ['walrus', 'not-a-cursor'],
    ] as const) {
      const r = await search(t, ann, { q, before });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_CURSOR');
    }
  });
});

describe('GET /v1/search skips what is not live without losing its place', () => {
  test('many hits of a deleted account among the newest ones are skipped, and paging loses nothing', async () => {
    const { t, ann } = await setup();
    const ben = await t.register('ben');
    // ann's 30 hits, then ben's 40 newer ones, which come first in the walk and are passed over.
    const mine = Array.from({ length: 30 }, (_, i) => seedPost(t, { author: ann, body: `a heron seen ${i}` }));
    for (let i = 0; i < 40; i++) seedPost(t, { author: ben, title: `Heron ${i}`, body: 'heron heron' });
    deleteAccount(t, ben);
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const r: Awaited<ReturnType<typeof search>> = await search(t, ann, { q: 'heron', limit: '7', ...(before ? { before } : {}) });
      seen.push(...ids(r));
      before = r.json.next_before;
      pages += 1;
    } while (before !== null && pages < 10);
    expect(pages).toBe(5); // 30 hits, 7 a page
    expect(seen.sort()).toEqual(mine.sort());
  });
});

describe('GET /v1/search bounds its work', () => {
  test('the whole board is reachable: the oldest of many matches is on the last page', async () => {
    const { t, ann } = await setup();
    const oldest = seedPost(t, { author: ann, title: 'Plover plover', body: 'a lonely plover' });
    t.db.transaction(() => {
      const insert = t.db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < 6_000; i++) {
        const id = crypto.randomUUID();
        insert.run(id, 'post', id, ann.id, 'general', 'Notes', `a plover sighting, number ${i} of many`, 0);
      }
    })();
    // 6,001 matches, 50 a page: 121 pages, the oldest alone on the last.
    let before: string | null = null;
    let last: string[] = [];
    let pages = 0;
    do {
      const r: Awaited<ReturnType<typeof search>> = await search(t, ann, { q: 'plover', limit: '50', ...(before ? { before } : {}) });
      expect(r.status).toBe(200);
      last = ids(r);
      before = r.json.next_before;
      pages += 1;
    } while (before !== null && pages < 200);
    expect(pages).toBe(121);
    expect(last.at(-1)).toBe(oldest);
    // More words narrow the matches.
    expect(ids(await search(t, ann, { q: 'lonely plover' }))).toEqual([oldest]);
  });

  test(`a page looks at ${SCAN_MAX} matches at most: among more dead ones it answers short, with a cursor that goes on`, async () => {
    const { t, ann } = await setup();
    const ben = await t.register('ben');
    const kept = seedPost(t, { author: ann, body: 'an avocet by the shore' });
    t.db.transaction(() => {
      const insert = t.db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < SCAN_MAX + 500; i++) {
        const id = crypto.randomUUID();
        insert.run(id, 'post', id, ben.id, 'general', 'Notes', `avocet ${i}`, 0);
      }
    })();
    const fresh = seedPost(t, { author: ann, body: 'another avocet' });
    deleteAccount(t, ben);
    const first = await search(t, ann, { q: 'avocet', limit: '5' });
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual([fresh]);
    expect(first.json.next_before).toBeString();
    const second = await search(t, ann, { q: 'avocet', limit: '5', before: first.json.next_before });
    expect(ids(second)).toEqual([kept]);
    expect(second.json.next_before).toBeNull();
  });
});

describe('GET /v1/search needs a key', () => {
  test('without one it is 401', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/v1/search?q=anything');
    expect(r.status).toBe(401);
  });
});
