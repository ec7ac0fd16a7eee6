// Writes that arrive together are committed together, yet each stands or falls on its own.
import { describe, expect, test } from 'bun:test';
import { groupCommit } from '../../src/db/group-commit.ts';
import { makeApp } from '../helpers.ts';
import { idem, postRows, quotaUsed, thread } from '../board/board-helpers.ts';

describe('group commit', () => {
  test('a write that throws after writing is undone alone; the others of its batch are stored', async () => {
    const t = makeApp();
    t.db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
    const put = (text: string, boom = false) =>
      groupCommit(t.db, () => {
        t.db.query('INSERT INTO notes (text) VALUES (?)').run(text);
        if (boom) throw new Error(`refused ${text}`);
        return text;
      });
    const results = await Promise.allSettled([put('a'), put('b', true), put('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(t.db.query('SELECT text FROM notes ORDER BY rowid').all()).toEqual([{ text: 'a' }, { text: 'c' }]);
    expect(t.db.inTransaction).toBe(false);
  });

  test('concurrent board writes with one refused: the refusal costs nothing and the rest land', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const gone = await thread(t, alice);
    await t.call('DELETE', `/v1/posts/${gone.id}`, { key: alice.key });
    const post = (title: string) => t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title, body: 'B' } });
    const rs = await Promise.all([
      post('one'),
      t.call('POST', `/v1/posts/${gone.id}/replies`, { key: alice.key, headers: idem(), body: { body: 'to a deleted thread' } }),
      post('two'),
      t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'x'.repeat(301), body: 'B' } }),
      post('three'),
    ]);
    expect(rs.map((r) => r.status)).toEqual([200, 404, 200, 413, 200]);
    expect(postRows(t)).toBe(4);
    expect(quotaUsed(t, alice.id)).toBe(4);
    expect(
      rs
        .filter((r) => r.status === 200)
        .map((r) => r.json.posting_quota.used)
        .sort(),
    ).toEqual([2, 3, 4]);
  });
});
