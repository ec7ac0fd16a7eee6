// The one home of "live" (src/db/live.ts): which posts and accounts each fragment lets through,
// on a board holding every way of not being live, and the exact text the partial indexes need.
import type { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { accountStore } from '../../src/accounts/store.ts';
import { deleted, liveAccount, liveInLiveThread, livePost, livePostUnderRoot, liveRoot, notDeleted } from '../../src/db/live.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';

const T = 1_700_000_000_000;

function board(): Database {
  const db = openMemoryDatabase();
  migrate(db);
  const account = (id: string) =>
    db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(id, id, id, `hash-${id}`, T);
  account('alive');
  account('gone');
  account('revoked');
  db.query('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(T, 'gone');
  // Revocation is an account's other way out: it sets deleted_at too.
  accountStore(db).revoke.run(T, 'revoked');
  const post = (id: string, kind: 'post' | 'reply', thread: string, author: string, deletedAt: number | null = null) =>
    db
      .query("INSERT INTO posts (id, kind, thread_id, author_id, topic, body, created_at, deleted_at) VALUES (?, ?, ?, ?, 'fixture', 'text', ?, ?)")
      .run(id, kind, thread, author, T, deletedAt);
  post('root', 'post', 'root', 'alive');
  post('reply', 'reply', 'root', 'alive');
  post('reply-by-gone', 'reply', 'root', 'gone');
  post('reply-deleted', 'reply', 'root', 'alive', T);
  post('root-by-revoked', 'post', 'root-by-revoked', 'revoked');
  post('reply-under-revoked', 'reply', 'root-by-revoked', 'alive');
  post('root-deleted', 'post', 'root-deleted', 'alive', T);
  // Deleting a root deletes its replies in the same write; a reply left over shows the root check.
  post('reply-under-deleted', 'reply', 'root-deleted', 'alive');
  return db;
}

const db = board();
const posts = (where: string) =>
  (
    db
      .query(
        `SELECT p.id FROM posts p JOIN accounts a ON a.id = p.author_id JOIN posts root ON root.id = p.thread_id
         WHERE p.topic = 'fixture' AND ${where} ORDER BY p.seq`,
      )
      .all() as { id: string }[]
  ).map((r) => r.id);

describe('which posts each fragment lets through', () => {
  test.each([
    ['notDeleted', notDeleted('p'), ['root', 'reply', 'reply-by-gone', 'root-by-revoked', 'reply-under-revoked', 'reply-under-deleted']],
    ['deleted', deleted('p'), ['reply-deleted', 'root-deleted']],
    ['livePost', livePost(), ['root', 'reply', 'reply-under-revoked', 'reply-under-deleted']],
    ['liveRoot', liveRoot(), ['root']],
    ['livePostUnderRoot', livePostUnderRoot(), ['root', 'reply']],
    ['liveInLiveThread', liveInLiveThread(), ['root', 'reply']],
  ])('%s', (_, where, ids) => {
    expect(posts(where)).toEqual(ids);
  });

  test('a live account is neither deleted nor revoked', () => {
    const ids = db.query(`SELECT id FROM accounts a WHERE a.id IN ('alive', 'gone', 'revoked') AND ${liveAccount('a')} ORDER BY id`).all();
    expect(ids).toEqual([{ id: 'alive' }]);
  });

  test('other aliases are honoured', () => {
    const ids = db
      .query(`SELECT t.id FROM posts t JOIN accounts ta ON ta.id = t.author_id WHERE t.topic = 'fixture' AND ${liveRoot('t', 'ta')} ORDER BY t.seq`)
      .all();
    expect(ids).toEqual([{ id: 'root' }]);
  });
});

describe('the text the partial indexes match', () => {
  test.each([
    ['notDeleted()', notDeleted(), 'deleted_at IS NULL'],
    ["notDeleted('p')", notDeleted('p'), 'p.deleted_at IS NULL'],
    ["deleted('d')", deleted('d'), 'd.deleted_at IS NOT NULL'],
    ['liveAccount()', liveAccount(), 'deleted_at IS NULL'],
    ['livePost()', livePost(), 'p.deleted_at IS NULL AND a.deleted_at IS NULL'],
    ['liveRoot()', liveRoot(), "p.kind = 'post' AND p.deleted_at IS NULL AND a.deleted_at IS NULL"],
    [
      'livePostUnderRoot()',
      livePostUnderRoot(),
      'p.deleted_at IS NULL AND a.deleted_at IS NULL AND root.deleted_at IS NULL AND EXISTS (SELECT 1 FROM accounts root_a WHERE root_a.id = root.author_id AND root_a.deleted_at IS NULL)',
    ],
  ])('%s', (_, text, expected) => {
    expect(text).toBe(expected);
  });

  // The same condition written another way loses the partial indexes: why the text is kept.
  test.each([
    ['the fragment', liveRoot(), true],
    ['an equivalent condition in other words', "p.kind = 'post' AND coalesce(p.deleted_at, 0) = 0 AND a.deleted_at IS NULL", false],
  ])('a page of live roots by %s reads a live partial index or not', (_, where, indexed) => {
    const plan = db
      .query(`EXPLAIN QUERY PLAN SELECT p.id FROM posts p JOIN accounts a ON a.id = p.author_id WHERE ${where} ORDER BY p.seq DESC LIMIT 20`)
      .all() as {
      detail: string;
    }[];
    expect(plan.some((r) => /USING (COVERING )?INDEX posts_live/.test(r.detail))).toBe(indexed);
  });
});
