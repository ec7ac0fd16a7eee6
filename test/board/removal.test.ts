// `svc admin posts remove|restore`: an operator's removal leaves every public read at once, the
// author is told why, nothing is deleted and a restore puts back exactly what was taken.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { makeApp } from '../helpers.ts';
import { count, idem, quotaUsed, reply, thread } from './board-helpers.ts';

async function board() {
  const t = makeApp();
  const ann = await t.register('ann');
  const bob = await t.register('bob');
  const root = await thread(t, ann, { title: 'Spammy zeppelin offer', body: 'Buy zeppelin tickets now, @bob.' });
  const r1 = await reply(t, bob, root.id, { body: 'A zeppelin reply from bob.' });
  const r2 = await reply(t, ann, root.id, { body: 'Another zeppelin reply.' });
  const other = await thread(t, bob, { title: 'A fine thread', body: 'Nothing to see.' });
  return { t, ann, bob, root, r1, r2, other };
}

const snapshot = (t: ReturnType<typeof makeApp>) =>
  t.db.query('SELECT id, deleted_at, reply_count, score, edited_at, created_at, body FROM posts ORDER BY seq').all();

describe('svc admin posts remove', () => {
  test('a removed root leaves every read at once, its replies with it', async () => {
    const { t, ann, bob, root, r1, other } = await board();
    // Warm the cached public documents first: the removal must not wait for their age.
    expect((await t.call('GET', '/api/activity')).text).toContain(root.id);
    expect((await t.call('GET', `/api/thread/${root.id}`)).status).toBe(200);
    expect((await t.call('GET', `/threads/${root.id}`)).status).toBe(200);
    const used = quotaUsed(t, ann.id);

    const out = runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', 'Spam: ticket selling.']) as any;
    expect(out).toMatchObject({ post_id: root.id, kind: 'post', removed: true, posts_removed: 3, reason: 'Spam: ticket selling.' });

    expect((await t.call('GET', '/api/activity')).text).not.toContain(root.id);
    expect((await t.call('GET', `/api/thread/${root.id}`)).status).toBe(404);
    expect((await t.call('GET', `/threads/${root.id}`)).status).toBe(404);
    expect((await t.call('GET', `/threads/${r1.id}`)).status).toBe(404);
    const list = await t.call('GET', '/v1/posts', { key: bob.key });
    expect(list.text).not.toContain(root.id);
    expect(list.text).toContain(other.id);
    expect((await t.call('GET', '/v1/search?q=zeppelin', { key: bob.key })).json.results).toEqual([]);
    expect((await t.call('GET', '/v1/inbox', { key: bob.key })).text).not.toContain(root.id);
    expect((await t.call('GET', '/v1/inbox', { key: ann.key })).text).not.toContain(r1.id);
    expect((await t.call('GET', '/feeds/activity.atom')).text).not.toContain(root.id);
    // Others: 404, as for any deleted post; the author: 410 with the reason.
    expect((await t.call('GET', `/v1/posts/${root.id}`, { key: bob.key })).json.error.code).toBe('NOT_FOUND');
    const seen = await t.call('GET', `/v1/posts/${root.id}`, { key: ann.key });
    expect([seen.status, seen.json.error.code]).toEqual([410, 'POST_REMOVED']);
    expect(seen.json.error.details).toMatchObject({ removed_by: 'operator', reason: 'Spam: ticket selling.' });
    const seenReply = await t.call('GET', `/v1/posts/${r1.id}`, { key: bob.key });
    expect([seenReply.status, seenReply.json.error.details.removal_of]).toEqual([410, root.id]);
    // The author can neither delete nor reply to it; the quota is not refunded.
    expect((await t.call('DELETE', `/v1/posts/${root.id}`, { key: ann.key })).status).toBe(404);
    expect((await t.call('POST', `/v1/posts/${root.id}/replies`, { key: bob.key, body: { body: 'hi' }, headers: idem() })).status).toBe(404);
    expect(quotaUsed(t, ann.id)).toBe(used);
  });

  test('restore puts back exactly what was taken; a reply the author deleted before stays deleted', async () => {
    const { t, ann, bob, root, r2 } = await board();
    expect((await t.call('DELETE', `/v1/posts/${r2.id}`, { key: ann.key })).status).toBe(200);
    const before = snapshot(t);
    expect((runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', 'spam']) as any).posts_removed).toBe(2);
    expect((await t.call('GET', '/api/activity')).text).not.toContain(root.id);
    expect(runAdmin(t.ctx, ['posts', 'restore', root.id])).toMatchObject({ post_id: root.id, restored: true, posts_restored: 2 });
    expect(snapshot(t)).toEqual(before);
    expect((await t.call('GET', '/api/activity')).text).toContain(root.id);
    expect((await t.call('GET', `/v1/posts/${root.id}`, { key: bob.key })).json.replies).toHaveLength(1);
    expect(count(t, 'board_removals')).toBe(0);
  });

  test('a removed reply lowers the reply count; restoring it raises it; it cannot come back while its thread is removed', async () => {
    const { t, bob, root, r1 } = await board();
    runAdmin(t.ctx, ['posts', 'remove', r1.id, '--reason', 'off topic']);
    const thread1 = await t.call('GET', `/v1/posts/${root.id}`, { key: bob.key });
    expect([thread1.json.post.reply_count, thread1.json.replies.length]).toEqual([1, 1]);
    runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', 'spam']);
    expect(() => runAdmin(t.ctx, ['posts', 'restore', r1.id])).toThrow('restore the thread first');
    runAdmin(t.ctx, ['posts', 'restore', root.id]);
    expect((await t.call('GET', `/v1/posts/${root.id}`, { key: bob.key })).json.post.reply_count).toBe(1);
    runAdmin(t.ctx, ['posts', 'restore', r1.id]);
    const back = await t.call('GET', `/v1/posts/${root.id}`, { key: bob.key });
    expect([back.json.post.reply_count, back.json.replies.length]).toEqual([2, 2]);
  });

  test('mistakes: no reason, an unknown id, the rules root, removing twice, restoring what was not removed', async () => {
    const { t, root } = await board();
    expect(() => runAdmin(t.ctx, ['posts', 'remove', root.id])).toThrow('needs --reason');
    expect(() => runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', '   '])).toThrow('needs a reason');
    expect(() => runAdmin(t.ctx, ['posts', 'remove', 'nope', '--reason', 'x'])).toThrow('POST_ID');
    expect(() => runAdmin(t.ctx, ['posts', 'remove', crypto.randomUUID(), '--reason', 'x'])).toThrow('No thread or reply');
    expect(() => runAdmin(t.ctx, ['posts', 'restore', root.id])).toThrow('No operator removal');
    // The reason is public: it passes the content rules an agent's text does.
    expect(() => runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', 'This is going to the moon'])).toThrow(
      expect.objectContaining({ code: 'PRICE_TALK' }),
    );
    expect(() => runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', 'key AKIAIOSFODNN7EXAMPLE'])).toThrow(
      expect.objectContaining({ code: 'SECRET_LIKE' }),
    );
    expect(count(t, 'board_removals')).toBe(0);
    runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', 'spam']);
    expect(runAdmin(t.ctx, ['posts', 'remove', root.id, '--reason', 'again'])).toMatchObject({ already_removed: true, reason: 'spam' });
    expect(count(t, "audit_log WHERE action = 'posts remove'")).toBe(1);
  });
});
