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

// docs/decisions.md#content-rules: every string field of the body is scanned. A member the route does not know
// (a client's meta.* object, a stray notes field) never reaches the scan: since issue 28 item 1 it
// is refused by name (400 INVALID_REQUEST, src/http/members.ts) before the content rules run, and
// its value, a key included, is never echoed. The secret rule still reads every known member.
describe('members a board write does not know are refused by name, their values never echoed', () => {
  // The AWS documentation's example key id: what the secret rule catches.
  const KEY_LIKE = 'AKIAIOSFODNN7EXAMPLE';
  // Long and random-looking, but a uuid and a bare sha256 are no secrets (docs/decisions.md#content-rules).
  const UUID = '0195f3a4-1c2d-7e8f-9a0b-1c2d3e4f5a6b';
  const SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
  const nested = (value: string) => ({ meta: { source: { notes: ['first', value] } } });
  /** The details.fields[] entry naming `field`. */
  const entry = (json: any, field: string) => (json?.error?.details?.fields ?? []).find((f: any) => f.field === field);

  type Send = (extra: Record<string, unknown>, body?: string) => Promise<{ status: number; json: any; text: string }>;
  // Each write's setup (an author, a thread to reply in, an operator) runs before the counts are taken.
  const writes: [name: string, setup: (t: ReturnType<typeof makeApp>) => Promise<Send>][] = [
    [
      'a new thread',
      async (t) => {
        const alice = await t.register('alice');
        return (extra, body = 'B') =>
          t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'Notes', body, ...extra } });
      },
    ],
    [
      'a reply',
      async (t) => {
        const alice = await t.register('alice');
        const root = await thread(t, alice);
        return (extra, body = 'B') => t.call('POST', `/v1/posts/${root.id}/replies`, { key: alice.key, headers: idem(), body: { body, ...extra } });
      },
    ],
    [
      'the rules edit',
      async (t) => {
        const op = await t.register('oscar');
        setRole(t.ctx, 'grant', 'oscar', 'operator');
        return (extra, body = 'Be kind.') => t.call('POST', `/v1/posts/${RULES_ID}/edit`, { key: op.key, headers: idem(), body: { body, ...extra } });
      },
    ],
  ];
  const rulesBody = (t: ReturnType<typeof makeApp>) => (t.db.query('SELECT body FROM posts WHERE id = ?').get(RULES_ID) as { body: string }).body;

  for (const [name, setup] of writes) {
    test(`${name}: a key-like string deep in an unknown meta is 400 INVALID_REQUEST naming meta, not the key; in body it is 422 SECRET_LIKE; nothing is stored`, async () => {
      const t = makeApp();
      const send = await setup(t);
      const [posts, keys, rules] = [count(t, 'posts'), count(t, 'idempotency_keys'), rulesBody(t)];
      const r = await send(nested(KEY_LIKE));
      expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(entry(r.json, 'meta')).toMatchObject({ in: 'body', problem: 'unknown_member' });
      expect(r.json.error.details.fields.map((f: any) => f.field)).toEqual(['meta']);
      expect(r.text).not.toContain(KEY_LIKE);
      // The same key in a member the route knows: the secret rule reads it.
      const known = await send({}, `notes: ${KEY_LIKE}`);
      expect([known.status, known.json.error.details]).toEqual([422, { kind: 'aws_access_key', where: 'body' }]);
      expect(known.text).not.toContain(KEY_LIKE);
      expect(count(t, 'posts')).toBe(posts);
      expect(rulesBody(t)).toBe(rules);
      expect(count(t, 'idempotency_keys')).toBe(keys);
    });

    test(`${name}: a uuid and a sha256 in meta are refused the same way (the value plays no part); in body they pass (near miss)`, async () => {
      const t = makeApp();
      const send = await setup(t);
      const posts = count(t, 'posts');
      const r = await send({ meta: { source: { notes: [UUID, SHA256] } } });
      expect([r.status, r.json.error.code, entry(r.json, 'meta')?.problem]).toEqual([400, 'INVALID_REQUEST', 'unknown_member']);
      expect(r.text).not.toContain(SHA256);
      expect(r.text).not.toContain(UUID);
      expect(count(t, 'posts')).toBe(posts);
      const known = await send({}, `Be kind. ${UUID} ${SHA256}`);
      expect(known.status, known.text).toBe(200);
      expect(count(t, 'posts WHERE body LIKE ?', `%${SHA256}%`)).toBe(1);
    });
  }

  test('a stray top-level member is refused by name, the key in it not echoed; the same text in body is 422 SECRET_LIKE', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const r = await t.call('POST', '/v1/posts', {
      key: alice.key,
      headers: idem(),
      body: { topic: 'general', title: 'T', body: 'B', notes: `mine: ${alice.key}` },
    });
    expect([r.status, r.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(entry(r.json, 'notes')).toMatchObject({ in: 'body', problem: 'unknown_member', accepted: ['topic', 'title', 'body'] });
    expect(r.text).not.toContain(alice.key);
    const known = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(), body: { topic: 'general', title: 'T', body: `mine: ${alice.key}` } });
    expect([known.status, known.json.error.details]).toEqual([422, { kind: 'svc_api_key', where: 'body' }]);
    expect(known.text).not.toContain(alice.key);
    expect(postRows(t)).toBe(0);
    expect(quotaUsed(t, alice.id)).toBe(0);
  });

  test('an unknown member is refused before the Idempotency-Key is taken: the same key without it then writes once, and replays', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const key = crypto.randomUUID();
    const refused = await t.call('POST', '/v1/posts', {
      key: alice.key,
      headers: idem(key),
      body: { topic: 'general', title: 'T', body: 'B', meta: { a: UUID } },
    });
    expect([refused.status, entry(refused.json, 'meta')?.problem]).toEqual([400, 'unknown_member']);
    expect(count(t, 'idempotency_keys')).toBe(0);
    const first = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body: { topic: 'general', title: 'T', body: 'B' } });
    const again = await t.call('POST', '/v1/posts', { key: alice.key, headers: idem(key), body: { topic: 'general', title: 'T', body: 'B' } });
    expect(first.status, first.text).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json.post.id).toBe(first.json.post.id);
    expect(postRows(t)).toBe(1);
  });
});
