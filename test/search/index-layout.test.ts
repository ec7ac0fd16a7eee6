// The full-text index without word positions (schema/0040_posts_fts_detail_none.sql): a database
// indexed the old way is indexed again from its live posts, the index's tokenizer is the one
// src/search/tokens-store.ts cuts queries with, and a word that would be a phrase is never sent as one.
import { describe, expect, test } from 'bun:test';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { matchExpression, searchWords } from '../../src/search/query.ts';
import { INDEX_TOKENIZER } from '../../src/search/tokens-store.ts';
import { send, signedIn } from '../admin/console-harness.ts';
import { makeApp } from '../helpers.ts';
import { seedPost } from './fixtures.ts';

const SYSTEM = '00000000-0000-7000-8000-000000000001';
const v40 = MIGRATIONS.findIndex((m) => m.name === '0040_posts_fts_detail_none.sql');

function boardAt39() {
  const db = openMemoryDatabase();
  migrate(db, MIGRATIONS.slice(0, v40));
  const put = db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const post = (id: string, title: string, body: string, deleted: number | null = null) =>
    put.run(id, 'post', id, SYSTEM, 'general', title, body, 1_000, deleted);
  post('00000000-0000-7000-8000-00000000a001', 'Relay latency', 'p99 went down after the relay change');
  post('00000000-0000-7000-8000-00000000a002', 'नमस्ते', 'दुनिया relay');
  post('00000000-0000-7000-8000-00000000a003', 'Gone relay', 'deleted before the upgrade', 2_000);
  return db;
}

const found = (db: ReturnType<typeof openMemoryDatabase>, q: string) =>
  db
    .query<{ id: string }, [string]>('SELECT p.id FROM posts_fts f JOIN posts p ON p.seq = f.rowid WHERE posts_fts MATCH ? ORDER BY f.rowid')
    .all(matchExpression(searchWords(q)))
    .map((r) => r.id.slice(-4));

describe('0040: the index keeps which posts hold a word, not where', () => {
  test('an index of 0039 is built again from the live posts; the deleted one stays out', () => {
    const db = boardAt39();
    expect(found(db, 'relay')).toEqual(['a001', 'a002']);
    migrate(db);
    expect(found(db, 'relay')).toEqual(['a001', 'a002']);
    expect(found(db, 'relays')).toEqual(['a001', 'a002']);
    expect(found(db, 'नमस्ते')).toEqual(['a002']);
    expect(found(db, 'gone')).toEqual([]);
    // Merges stay with the worker (0039's setting is set again on the new index).
    expect(db.query("SELECT v FROM posts_fts_config WHERE k = 'automerge'").get()).toEqual({ v: 0 });
  });

  test('the index is declared without positions, with the tokenizer queries are cut by', () => {
    const db = openMemoryDatabase();
    migrate(db);
    const { sql } = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'posts_fts'").get()!;
    expect(sql).toContain('detail = none');
    expect(sql).toContain(`tokenize = "porter ${INDEX_TOKENIZER}"`);
    // A quoted phrase of two words is refused by such an index: queries never send one.
    expect(() => db.query('SELECT rowid FROM posts_fts WHERE posts_fts MATCH \'"a b"\'').all()).toThrow(/phrase/);
  });
});

describe('GET /v1/search and the pieces of a word', () => {
  // Two posts, one of which should be found by q; the ids /v1/search answers, the found one's first.
  async function searched(q: string, hit: string, miss: string) {
    const t = makeApp();
    const ann = await t.register('ann');
    const found = seedPost(t, { author: ann, title: 'hit', body: hit });
    seedPost(t, { author: ann, title: 'miss', body: miss });
    const r = await t.call('GET', `/v1/search?q=${encodeURIComponent(q)}`, { key: ann.key });
    expect(r.status).toBe(200);
    return { found, ids: r.json.results.map((x: { id: string }) => x.id) };
  }

  test('a word in Devanagari finds its post, and not one that holds only its first letters', async () => {
    const { found, ids } = await searched('नमस्ते', 'नमस्ते दुनिया', 'नमस त');
    expect(ids).toEqual([found]);
  });

  test('a word the index holds as two pieces finds the posts that hold both, wherever they are', async () => {
    const { found, ids } = await searched('x\u20ddy', 'first y then x', 'only x here');
    expect(ids).toEqual([found]);
  });
});

describe("the console's board search reads words as the search route does", () => {
  test('punctuation inside what the operator types is never a phrase the index cannot answer', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const ann = await t.register('ann');
    const hit = seedPost(t, { author: ann, title: 'zeppelin-launch', body: 'p99=12ms after the change' });
    seedPost(t, { author: ann, title: 'zeppelin', body: 'no launch numbers' });
    for (const q of ['zeppelin-launch', 'p99=12ms', '"zeppelin launch"']) {
      const page = await send(t, 'GET', `/console/board?q=${encodeURIComponent(q)}`, { cookie: s.cookie });
      expect(page.status).toBe(200);
      expect(page.text).toContain(hit);
    }
  });
});
