// GET /v1/search pages by keyset: the cursor carries the last result's score and seq, so pages
// put together are the ranking itself (equal scores included), a deep page costs what the first
// costs (the same statements, and no more work inside SQLite: test/db/vm-steps.ts), and a cursor
// of the earlier offset form still goes on.
import { describe, expect, test } from 'bun:test';
import { type StatementRun, statementsOf } from '../db/statements.ts';
import { workCounter } from '../db/vm-steps.ts';
import { decodeSearchCursor, encodeSearchCursor, searchWords } from '../../src/search/query.ts';
import { makeApp } from '../helpers.ts';
import { type Agent, deleteAccount, seedPost, type T } from './fixtures.ts';

const search = (t: T, who: Agent, params: Record<string, string>) => t.call('GET', `/v1/search?${new URLSearchParams(params)}`, { key: who.key });
const ids = (r: { json: { results: { id: string }[] } }) => r.json.results.map((x) => x.id);

/** The whole ranking of the live matches of `word`, straight from the index: best first, equal scores newest first. */
function ranking(t: T, word: string): { id: string; seq: number; score: number }[] {
  return t.db
    .query<{ id: string; seq: number; score: number }, [string]>(
      `SELECT p.id, p.seq, bm25(posts_fts, 10, 1) AS score FROM posts_fts JOIN posts p ON p.seq = posts_fts.rowid
        JOIN accounts a ON a.id = p.author_id
        WHERE posts_fts MATCH ? AND a.deleted_at IS NULL ORDER BY score, p.seq DESC`,
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

/** A cursor of the form served before keyset paging: `search:<offset>:<floor>:<ceiling>:<query hash>`. */
function offsetCursor(keysetCursor: string, offset: number): string {
  const parts = Buffer.from(keysetCursor, 'base64url').toString('utf8').split(':');
  // search:k:<score>:<seq>:<floor>:<ceiling>:<hash>
  return Buffer.from(`search:${offset}:${parts[4]}:${parts[5]}:${parts[6]}`).toString('base64url');
}

describe('GET /v1/search pages by keyset', () => {
  test('pages put together are the whole ranking: runs of equal scores are neither cut nor repeated', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    const ben = await t.register('ben');
    // Three runs of identical posts (equal bm25 scores) and a few distinct ones, interleaved in time.
    for (let i = 0; i < 25; i++) {
      seedPost(t, { author: ann, title: 'Notes', body: 'gannet colony count' });
      seedPost(t, { author: ann, title: 'Gannet', body: 'gannet' });
      if (i % 5 === 0) seedPost(t, { author: ann, title: 'Notes', body: `gannet seen ${'far '.repeat(i)}` });
      seedPost(t, { author: ann, title: 'Notes', body: 'a gannet and a gull' });
      if (i % 4 === 0) seedPost(t, { author: ben, title: 'Gannet gannet', body: 'gannet' }); // hidden below
    }
    deleteAccount(t, ben);
    const whole = ranking(t, 'gannet');
    expect(whole.length).toBe(80);
    expect(new Set(whole.map((r) => r.score)).size).toBeLessThan(20); // the runs are ties
    for (const limit of [1, 7, 25, 50]) {
      const { seen, pages } = await walk(t, ann, 'gannet', limit);
      expect(seen).toEqual(whole.map((r) => r.id));
      expect(pages).toBe(Math.ceil(80 / limit));
    }
  });

  test('posts written while paging move every score, and the walk still loses and repeats nothing', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    // One word once per post, bodies of many lengths: the ranking is by length (shorter first),
    // whatever the index's statistics; the scores themselves change with every post written.
    for (let i = 0; i < 40; i++) seedPost(t, { author: ann, title: 'Notes', body: `skua ${'over the water '.repeat(i % 13)}` });
    const whole = ranking(t, 'skua').map((r) => r.id);
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const r: Awaited<ReturnType<typeof search>> = await search(t, ann, { q: 'skua', limit: '6', ...(before ? { before } : {}) });
      seen.push(...ids(r));
      before = r.json.next_before;
      pages += 1;
      // Between pages: a long post holding the word (outside the walk's window) and one without it.
      seedPost(t, { author: ann, title: 'Skua', body: `skua ${'and more words '.repeat(20 + pages)}` });
      seedPost(t, { author: ann, title: 'Notes', body: 'gulls only '.repeat(pages) });
    } while (before !== null && pages < 20);
    expect(seen).toEqual(whole);
  });

  test('a cursor of the earlier offset form goes on where it stood, and the next cursor is a keyset one', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    for (let i = 0; i < 30; i++) seedPost(t, { author: ann, title: i % 3 ? 'Notes' : 'Puffin', body: `puffin ${i % 2 ? 'burrow' : ''}` });
    const whole = ranking(t, 'puffin').map((r) => r.id);
    const first = await search(t, ann, { q: 'puffin', limit: '4' });
    for (const offset of [0, 4, 13, 29]) {
      const r = await search(t, ann, { q: 'puffin', limit: '4', before: offsetCursor(first.json.next_before, offset) });
      expect(r.status).toBe(200);
      expect(ids(r)).toEqual(whole.slice(offset, offset + 4));
      if (r.json.next_before) expect(decodeSearchCursor(searchWords('puffin'), r.json.next_before).after).not.toBeNull();
      if (offset + 4 < whole.length) {
        const rest = await walk(t, ann, 'puffin', 4, r.json.next_before);
        expect([...ids(r), ...rest.seen]).toEqual(whole.slice(offset));
      }
    }
    // Past the end: an empty last page.
    const past = await search(t, ann, { q: 'puffin', limit: '4', before: offsetCursor(first.json.next_before, 40) });
    expect(past.json).toMatchObject({ results: [], next_before: null });
  });

  test('a malformed keyset cursor (a score that is not a number) is 400 INVALID_CURSOR', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    for (let i = 0; i < 3; i++) seedPost(t, { author: ann, body: 'tern' });
    const good = Buffer.from((await search(t, ann, { q: 'tern', limit: '1' })).json.next_before, 'base64url')
      .toString('utf8')
      .split(':');
    for (const score of ['7ff8000000000000', 'fff0000000000000', '12']) {
      const bad = Buffer.from([...good.slice(0, 2), score, ...good.slice(3)].join(':')).toString('base64url');
      const r = await search(t, ann, { q: 'tern', before: bad });
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
  const ranked = (log: StatementRun[]) => log.filter((l) => l.sql.includes('bm25('));

  test(`the second page and one ${MATCHES - 100} results deep run the same statements, with no more work inside SQLite`, async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    t.db.transaction(() => {
      const insert = t.db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < MATCHES; i++) {
        const id = crypto.randomUUID();
        insert.run(id, 'post', id, ann.id, 'general', i % 3 ? 'Notes' : 'Shearwater', `shearwater ${'at sea '.repeat(i % 17)}`, 0);
      }
    })();
    const whole = ranking(t, 'shearwater');
    const first = await page(t, ann);
    const second = await page(t, ann, first.answer.json.next_before);
    expect(ids(second.answer)).toEqual(whole.slice(20, 40).map((r) => r.id));
    // A cursor standing after the (MATCHES - 100)-th result, as the walk there would have been given.
    const at = whole[MATCHES - 101]!;
    const { floor, ceiling } = decodeSearchCursor(searchWords('shearwater'), first.answer.json.next_before);
    const deepCursor = encodeSearchCursor(searchWords('shearwater'), { after: { score: at.score, seq: at.seq }, floor, ceiling });
    const deep = await page(t, ann, deepCursor);
    expect(ids(deep.answer)).toEqual(whole.slice(MATCHES - 100, MATCHES - 80).map((r) => r.id));
    // The same statements: one ranking statement each, 26 rows (the page, one more, and 5 spare
    // for skipped candidates); the first page has its own (nothing to pass) and pins the newest seq.
    expect(deep.log.map((l) => l.sql)).toEqual(second.log.map((l) => l.sql));
    for (const p of [first, second, deep]) expect(ranked(p.log).map((l) => l.rows)).toEqual([26]);
    // Inside SQLite: the deep page's ranking does no more work than the second page's.
    const w = workCounter(t.db);
    try {
      const work = (p: { log: StatementRun[] }) => w.run(ranked(p.log)[0]!.sql, ranked(p.log)[0]!.params as (string | number)[]);
      const [one, two, far] = [work(first), work(second), work(deep)];
      console.log(`search ranking statement, ${MATCHES} matches, VM steps: first page ${one.vm}, second ${two.vm}, ${MATCHES - 100} deep ${far.vm}`);
      expect(far.rows).toBe(26);
      expect(far.vm).toBeLessThanOrEqual(two.vm);
    } finally {
      w.close();
    }
  });
});
