// The board feed option (01-core-board): GET /v1/posts and GET /v1/activity add publication
// activity only when pubs_limit, pubs_before or pubs_after is given, on its own cursor.
import { describe, expect, test } from 'bun:test';
import { envelope, pubsApp } from '../pubs/harness.ts';

async function seeded() {
  const h = await pubsApp();
  for (const title of ['A thread', 'Another thread']) {
    const post = await h.t.call('POST', '/v1/posts', {
      key: h.author.key,
      body: { topic: 'general', title, body: 'b' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(post.status).toBe(200);
  }
  const a = await h.submit(envelope({ title: 'a' }));
  await h.vote(h.reviewers[0]!.key, a.json.revision_id); // approved + published (grace rule)
  const b = await h.submit(envelope({ title: 'b' }));
  await h.t.call('POST', `/v1/pubs/posts/${a.json.item_id}/withdraw`, { key: h.author.key, body: {} });
  // activity, newest first: withdrawn a, submitted b, published a, approved a, submitted a
  return { ...h, a, b, k: h.reviewers[1]!.key };
}

const FEEDS = ['/v1/posts', '/v1/activity'];

describe('the board feed option', () => {
  for (const path of FEEDS) {
    test(`${path} without the option is unchanged: no pubs member`, async () => {
      const { t, k } = await seeded();
      const r = await t.call('GET', `${path}?limit=5`, { key: k });
      expect(r.status).toBe(200);
      expect('pubs' in r.json).toBe(false);
    });

    test(`${path}?pubs_limit=2 adds the newest publication activity and pages it on its own cursor`, async () => {
      const { t, k, a, b } = await seeded();
      const r = await t.call('GET', `${path}?pubs_limit=2`, { key: k });
      expect(r.status).toBe(200);
      expect(r.json.pubs.items.map((e: any) => [e.kind, e.item_id])).toEqual([
        ['withdrawn', a.json.item_id],
        ['submitted', b.json.item_id],
      ]);
      // The board part is the same as without the option.
      const plain = await t.call('GET', path, { key: k });
      const { pubs: _, ...rest } = r.json;
      expect(rest).toEqual(plain.json);
      const older = await t.call('GET', `${path}?pubs_before=${r.json.pubs.next_before}`, { key: k });
      expect(older.json.pubs.items.map((e: any) => e.kind)).toEqual(['published', 'approved', 'submitted']);
      expect(older.json.pubs.next_before).toBeNull();
      // Nothing newer yet: an empty page; then a new submission appears after the cursor.
      const none = await t.call('GET', `${path}?pubs_after=${r.json.pubs.next_after}`, { key: k });
      expect(none.json.pubs.items).toEqual([]);
      const c = await t.call('POST', '/v1/pubs/posts', { key: k, body: envelope({ title: 'c' }) });
      const newer = await t.call('GET', `${path}?pubs_after=${r.json.pubs.next_after}`, { key: k });
      expect(newer.json.pubs.items.map((e: any) => [e.kind, e.revision_id])).toEqual([['submitted', c.json.revision_id]]);
    });

    test(`${path}: a pubs cursor of GET /v1/pubs/activity works; crossed cursors are 400 INVALID_CURSOR both ways`, async () => {
      const { t, k } = await seeded();
      const pubsCursor = (await t.call('GET', '/v1/pubs/activity?limit=1', { key: k })).json.next_before;
      const boardCursor = (await t.call('GET', `${path}?limit=1`, { key: k })).json.next_before;
      const otherBoard = (await t.call('GET', `${path === '/v1/posts' ? '/v1/activity' : '/v1/posts'}?limit=1`, { key: k })).json.next_before;
      expect(typeof pubsCursor).toBe('string');
      expect(typeof boardCursor).toBe('string');
      expect((await t.call('GET', `${path}?pubs_before=${pubsCursor}`, { key: k })).json.pubs.items.length).toBe(4);
      for (const q of [`pubs_before=${boardCursor}`, `pubs_after=${boardCursor}`, `pubs_before=${otherBoard}`, `before=${pubsCursor}`, `after=${pubsCursor}`]) {
        const r = await t.call('GET', `${path}?${q}`, { key: k });
        expect(`${q.split('=')[0]}: ${r.status} ${r.json.error?.code}`).toBe(`${q.split('=')[0]}: 400 INVALID_CURSOR`);
      }
      const both = await t.call('GET', `${path}?pubs_before=${pubsCursor}&pubs_after=${pubsCursor}`, { key: k });
      expect(both.json.error.code).toBe('INVALID_CURSOR');
      // Both feeds' own cursors together still work.
      const together = await t.call('GET', `${path}?before=${boardCursor}&pubs_before=${pubsCursor}`, { key: k });
      expect(together.status).toBe(200);
    });

    test(`${path}: pubs_limit outside 1..100 is 400 INVALID_LIMIT naming pubs_limit; 100 passes`, async () => {
      const { t, k } = await seeded();
      for (const bad of ['0', '101', 'x', '-1']) {
        const r = await t.call('GET', `${path}?pubs_limit=${bad}`, { key: k });
        expect(r.status).toBe(400);
        expect(r.json.error.code).toBe('INVALID_LIMIT');
        expect(r.json.error.details.field).toBe('pubs_limit');
        expect(r.json.error.message).toBe('pubs_limit must be a whole number from 1 to 100.');
      }
      expect((await t.call('GET', `${path}?pubs_limit=100`, { key: k })).json.pubs.items.length).toBe(5);
    });
  }

  test('an operator-hidden article leaves the publication activity', async () => {
    const { t, k, a } = await seeded();
    t.db.query('UPDATE pubs_items SET hidden_at = 1 WHERE id = ?').run(a.json.item_id);
    const r = await t.call('GET', '/v1/activity?pubs_limit=10', { key: k });
    expect(r.json.pubs.items.map((e: any) => e.kind)).toEqual(['submitted']);
  });
});
