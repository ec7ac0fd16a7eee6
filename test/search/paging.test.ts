// GET /v1/search pages newest first by keyset: the cursor is the last result's seq, so pages put
// together are every live match (nothing repeated or lost, whatever is written or deleted between
// pages), a deep page costs what the first costs (the same statement, and no more work inside
// SQLite: test/db/vm-steps.ts), and cursors of the earlier ranked forms still go on.
import { describe, expect, test } from 'bun:test';
import { type StatementRun, statementsOf } from '../db/statements.ts';
import { workCounter } from '../db/vm-steps.ts';
import { decodeSearchCursor, encodeSearchCursor, searchWords } from '../../src/search/query.ts';
import { makeApp } from '../helpers.ts';
import { type Agent, deleteAccount, deletePost, seedPost, type T } from './fixtures.ts';

const search = (t: T, who: Agent, params: Record<string, string>) => t.call('GET', `/v1/search?${new URLSearchParams(params)}`, { key: who.key });
const ids = (r: { json: { results: { id: string }[] } }) => r.json.results.map((x) => x.id);

/** Every live match of `word`, straight from the index: newest first. */
function matches(t: T, word: string): { id: string; seq: number }[] {
  return t.db
    .query<{ id: string; seq: number }, [string]>(
      `SELECT p.id, p.seq FROM posts_fts JOIN posts p ON p.seq = posts_fts.rowid
        JOIN accounts a ON a.id = p.author_id
        WHERE posts_fts MATCH ? AND a.deleted_at IS NULL ORDER BY p.seq DESC`,
    )
    .all(`"${word}"`);
}

async function walk(t: T, who: Agent, q: string, limit: number, first?: string): Promise<{ seen: string[]; pages: number }> {
  const seen: string[] = [];
  let before: string | null = first ?? null;
  let pages = 0;
  do {
    const r: Awaited<ReturnType<typeof search>> = await search(t, who, { q, limit: String(limit), ...(before ? { before } : {}) });
    expect(r.status).toBe(200);
    seen.push(...ids(r));
    before = r.json.next_before;
    pages += 1;
  } while (before !== null && pages < 100);
  return { seen, pages };
}

/** The cursor text a page gave, as its parts. */
const partsOf = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8').split(':');
const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

describe('GET /v1/search pages newest first by keyset', () => {
  test('pages put together are every live match, newest first, at any page size', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    const ben = await t.register('ben');
    for (let i = 0; i < 25; i++) {
      seedPost(t, { author: ann, title: 'Notes', body: 'gannet colony count' });
      seedPost(t, { author: ann, title: 'Gannet', body: 'gannet' });
      if (i % 4 === 0) seedPost(t, { author: ben, title: 'Gannet gannet', body: 'gannet' }); // hidden below
      seedPost(t, { author: ann, title: 'Notes', body: 'a gannet and a gull' });
    }
    deleteAccount(t, ben);
    const whole = matches(t, 'gannet');
    expect(whole.length).toBe(75);
    for (const limit of [1, 7, 25, 50]) {
      const { seen, pages } = await walk(t, ann, 'gannet', limit);
      expect(seen).toEqual(whole.map((r) => r.id));
      expect(pages).toBe(Math.ceil(75 / limit));
    }
  });

  test('posts written or deleted while paging: the walk loses and repeats nothing it still can show', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    const all = Array.from({ length: 40 }, (_, i) => seedPost(t, { author: ann, title: 'Notes', body: `skua ${'over the water '.repeat(i % 13)}` }));
    const gone = new Set<string>();
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const r: Awaited<ReturnType<typeof search>> = await search(t, ann, { q: 'skua', limit: '6', ...(before ? { before } : {}) });
      seen.push(...ids(r));
      before = r.json.next_before;
      pages += 1;
      // Between pages: a new post holding the word (newer than the walk), and one of the posts not
      // yet shown deleted.
      seedPost(t, { author: ann, title: 'Skua', body: `skua ${'and more words '.repeat(pages)}` });
      const next = all.find((id) => !seen.includes(id) && !gone.has(id));
      if (next && pages % 2 === 0) {
        deletePost(t, next);
        gone.add(next);
      }
    } while (before !== null && pages < 20);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...all].reverse().filter((id) => !gone.has(id)));
  });

  test('cursors of the earlier ranked forms go on, newest first, from the newest post of their first page', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    const older = Array.from({ length: 10 }, (_, i) => seedPost(t, { author: ann, title: 'Puffin', body: `puffin ${i}` }));
    const ceiling = (t.db.query('SELECT max(seq) AS seq FROM posts').get() as { seq: number }).seq;
    seedPost(t, { author: ann, body: 'puffin, written after the walk began' });
    const hash = partsOf((await search(t, ann, { q: 'puffin', limit: '1' })).json.next_before).at(-1)!;
    const earlier = [
      `search:k:bfe0000000000000:${ceiling - 3}:0:${ceiling}:${hash}`, // ranked keyset: score, seq, floor, ceiling
      `search:4:0:${ceiling}:${hash}`, // offset, floor, ceiling
    ];
    for (const text of earlier) {
      const { seen } = await walk(t, ann, 'puffin', 4, cursorOf(text));
      expect(seen).toEqual([...older].reverse());
    }
  });

  test('a malformed cursor (a seq that is not a number, a missing part, another query) is 400 INVALID_CURSOR', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    for (let i = 0; i < 3; i++) seedPost(t, { author: ann, body: 'tern' });
    const good = partsOf((await search(t, ann, { q: 'tern', limit: '1' })).json.next_before);
    expect(good.slice(0, 2)).toEqual(['search', 'n']);
    for (const bad of [
      ['search', 'n', 'x1', good[3]],
      ['search', 'n', good[3]],
      ['search', 'n', '1'.repeat(16), good[3]],
      ['search', 'n', good[2], 'AAAAAAAAAAAA'],
    ]) {
      const r = await search(t, ann, { q: 'tern', before: cursorOf(bad.join(':')) });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('INVALID_CURSOR');
    }
  });
});

describe('GET /v1/search: a deep page costs what the first costs', () => {
  const MATCHES = 3_000;
  const page = async (t: T, ann: Agent, before?: string) => {
    let answer: Awaited<ReturnType<typeof search>> | undefined;
    const log = await statementsOf(async () => {
      answer = await search(t, ann, { q: 'shearwater', limit: '20', ...(before ? { before } : {}) });
    });
    expect(answer!.status).toBe(200);
    return { log, answer: answer! };
  };
  const walked = (log: StatementRun[]) => log.filter((l) => l.sql.includes('posts_fts MATCH'));

  test(`the first page, the second and one ${MATCHES - 100} results deep run the same statement over the same rows`, async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    t.db.transaction(() => {
      const insert = t.db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < MATCHES; i++) {
        const id = crypto.randomUUID();
        insert.run(id, 'post', id, ann.id, 'general', i % 3 ? 'Notes' : 'Shearwater', `shearwater ${'at sea '.repeat(i % 17)}`, 0);
      }
    })();
    const whole = matches(t, 'shearwater');
    const first = await page(t, ann);
    const second = await page(t, ann, first.answer.json.next_before);
    expect(ids(first.answer)).toEqual(whole.slice(0, 20).map((r) => r.id));
    expect(ids(second.answer)).toEqual(whole.slice(20, 40).map((r) => r.id));
    // A cursor standing after the (MATCHES - 100)-th result, as the walk there would have been given.
    const deepCursor = encodeSearchCursor(searchWords('shearwater'), whole[MATCHES - 101]!.seq);
    expect(decodeSearchCursor(searchWords('shearwater'), deepCursor)).toEqual({ below: whole[MATCHES - 101]!.seq });
    const deep = await page(t, ann, deepCursor);
    expect(ids(deep.answer)).toEqual(whole.slice(MATCHES - 100, MATCHES - 80).map((r) => r.id));
    // The same statement each time, 26 rows (the page, one more, and 5 spare for skipped
    // candidates), and nothing that scores every match (bm25 counts each word's matches first).
    for (const p of [first, second, deep]) {
      expect(walked(p.log).map((l) => l.rows)).toEqual([26]);
      expect(p.log.some((l) => l.sql.includes('bm25('))).toBe(false);
    }
    expect(deep.log.map((l) => l.sql)).toEqual(second.log.map((l) => l.sql));
    // Inside SQLite: the first page, the second and the deep one do the same work.
    const w = workCounter(t.db);
    try {
      const work = (p: { log: StatementRun[] }) => w.run(walked(p.log)[0]!.sql, walked(p.log)[0]!.params as (string | number)[]);
      const [one, two, far] = [work(first), work(second), work(deep)];
      console.log(`search page statement, ${MATCHES} matches, VM steps: first page ${one.vm}, second ${two.vm}, ${MATCHES - 100} deep ${far.vm}`);
      expect(far.rows).toBe(26);
      // A few steps apart at most (the first page's bound is a constant, the others' a parameter).
      expect(Math.max(one.vm, two.vm, far.vm) - Math.min(one.vm, two.vm, far.vm)).toBeLessThanOrEqual(10);
    } finally {
      w.close();
    }
  });
});
