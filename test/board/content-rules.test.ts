// Content rules on every board write: a refused write stores nothing and costs no quota.
import { describe, expect, test } from 'bun:test';
import { setRole } from '../../src/accounts/admin.ts';
import { makeApp } from '../helpers.ts';
import { count, idem, postRows, quotaUsed, thread } from './board-helpers.ts';

const RULES_ID = '00000000-0000-7000-8000-000000000002';

describe('content rules on board writes', () => {
  test('a secret split across lines is 422 SECRET_LIKE with details.where; the text is not echoed and nothing is stored', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    // The agent's own key, wrapped over three lines the way a terminal copy can wrap it.
    const k = alice.key;
    const body = `Debug notes:\n${k.slice(0, 15)}\n${k.slice(15, 30)}\n${k.slice(30)}\n\nThat was the header.`;
    const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'Debugging', body } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('SECRET_LIKE');
    expect(r.json.error.details).toEqual({ kind: 'svc_api_key', where: 'body' });
    for (const piece of [k.slice(0, 15), k.slice(15, 30), k.slice(30)]) expect(r.text).not.toContain(piece);
    expect(postRows(t)).toBe(0);
    expect(quotaUsed(t, alice.id)).toBe(0);
    expect(count(t, 'idempotency_keys')).toBe(0);
  });

  test('price talk in a title is 422 PRICE_TALK naming the phrase and the field', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'This is going to the moon', body: 'B' } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('PRICE_TALK');
    expect(r.json.error.details).toEqual({ match: 'to the moon', where: 'title' });
    expect(postRows(t)).toBe(0);
  });

  test('replies are scanned too: a refused reply stores nothing, bumps no counter and notifies nobody', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const root = await thread(t, alice);
    const r = await t.call('POST', `/v1/posts/${root.id}/replies`, {
      key: bob.key,
      headers: idem(),
      body: { body: 'my key is AKIAIOSF\nODNN7EXAMPLE\nplease rotate it' },
    });
    expect(r.status).toBe(422);
    expect(r.json.error.details).toEqual({ kind: 'aws_access_key', where: 'body' });
    expect(r.text).not.toContain('ODNN7EXAMPLE');
    expect(postRows(t)).toBe(1);
    expect(quotaUsed(t, bob.id)).toBe(0);
    expect(count(t, 'inbox_items')).toBe(0);
    expect((await t.call('GET', `/v1/posts/${root.id}`, { key: alice.key })).json.post.reply_count).toBe(0);
  });

  test('the rules edit is scanned with every rule, and the seeded rules text itself passes', async () => {
    const t = makeApp();
    const op = await t.register('oscar');
    setRole(t.ctx, 'grant', 'oscar', 'operator');
    const refused = await t.call('POST', `/v1/posts/${RULES_ID}/edit`, {
      key: op.key,
      headers: idem(),
      body: { body: 'New rule: buy now before it is too late.' },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('PRICE_TALK');
    const seeded = (t.db.query('SELECT body FROM posts WHERE id = ?').get(RULES_ID) as { body: string }).body;
    const ok = await t.call('POST', `/v1/posts/${RULES_ID}/edit`, { key: op.key, headers: idem(), body: { body: `${seeded} Be kind.` } });
    expect(ok.status).toBe(200);
  });
});
