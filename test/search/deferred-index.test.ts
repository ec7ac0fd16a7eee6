// A group commit's batch indexes its posts once, after its writes (schema/0042_posts_fts_batched.sql,
// src/search/deferred-index.ts): one segment a batch, the index exactly what the committed writes
// say, a write rolled back to its savepoint indexed nowhere, and nothing left behind.
import { describe, expect, test } from 'bun:test';
import { groupCommit } from '../../src/db/group-commit.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { deferPostsIndexInBatches } from '../../src/search/deferred-index.ts';

const SYSTEM = '00000000-0000-7000-8000-000000000001';
const idOf = (n: number) => `00000000-0000-7000-9000-${String(n).padStart(12, '0')}`;

function board(deferred: boolean) {
  const db = openMemoryDatabase();
  migrate(db);
  if (deferred) deferPostsIndexInBatches(db);
  const put = db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const post = (n: number, body: string) => {
    const id = idOf(n);
    put.run(id, 'post', id, SYSTEM, 'general', `title ${n}`, body, 1_000);
    return id;
  };
  const segments = () => db.query<{ n: number }, []>('SELECT count(DISTINCT id >> 37) AS n FROM posts_fts_data WHERE id >= 137438953472').get()!.n;
  const found = (word: string) =>
    db
      .query<{ id: string }, [string]>('SELECT p.id FROM posts_fts f JOIN posts p ON p.seq = f.rowid WHERE posts_fts MATCH ? ORDER BY f.rowid')
      .all(`"${word}"`)
      .map((r) => (r.id.startsWith('00000000-0000-7000-9000-') ? Number(r.id.slice(-12)) : r.id));
  const leftovers = () =>
    db.query<{ n: number }, []>('SELECT (SELECT count(*) FROM posts_fts_pending) + (SELECT count(*) FROM posts_fts_deferral) AS n').get()!.n;
  return { db, post, segments, found, leftovers };
}

describe("a batch's posts indexed once, after its writes", () => {
  test('ten writes in one batch: one segment, every post found, nothing left behind', async () => {
    const b = board(true);
    const before = b.segments();
    await Promise.all(Array.from({ length: 10 }, (_, i) => groupCommit(b.db, () => b.post(i + 1, `batched word${i}`))));
    expect(b.segments()).toBe(before + 1);
    expect(b.found('batched')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(b.found('word7')).toEqual([8]);
    expect(b.leftovers()).toBe(0);
  });

  test('without it each write is a segment (FTS5 writes its terms out at every savepoint)', async () => {
    const b = board(false);
    const before = b.segments();
    await Promise.all(Array.from({ length: 10 }, (_, i) => groupCommit(b.db, () => b.post(i + 1, `batched word${i}`))));
    expect(b.segments()).toBe(before + 10);
  });

  test('edits, deletions and a write that fails, in one batch: the index is what was committed', async () => {
    const b = board(true);
    await groupCommit(b.db, () => b.post(1, 'vanishing soon'));
    const writes = [
      groupCommit(b.db, () => b.post(2, 'first draft')),
      groupCommit(b.db, () => b.db.query("UPDATE posts SET body = 'second draft' WHERE id = ?").run(idOf(2))),
      groupCommit(b.db, () => b.db.query('UPDATE posts SET deleted_at = 5 WHERE id = ?').run(idOf(1))),
      groupCommit(b.db, () => {
        b.post(3, 'unwritten words');
        throw new Error('refused after its insert');
      }),
      groupCommit(b.db, () => b.post(4, 'kept draft')),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(b.found('draft')).toEqual([2, 4]);
    expect(b.found('first')).toEqual([]);
    expect(b.found('second')).toEqual([2]);
    expect(b.found('vanishing')).toEqual([]);
    expect(b.found('unwritten')).toEqual([]);
    expect(b.leftovers()).toBe(0);
    b.db.query("INSERT INTO posts_fts (posts_fts, rank) VALUES ('integrity-check', 0)").run();
  });

  test('a writer outside the group commit indexes at once', () => {
    const b = board(true);
    b.post(1, 'direct write');
    expect(b.found('direct')).toEqual([1]);
    expect(b.leftovers()).toBe(0);
  });
});
