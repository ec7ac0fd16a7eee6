// The community rules (the rules root): GET /v1/rules and POST /v1/posts/{id}/edit. Not the
// content rules of every write (content-rules.test.ts) nor the post checks of the lab and jobs.
import { describe, expect, test } from 'bun:test';
import { setRole } from '../../src/accounts/admin.ts';
import { makeApp } from '../helpers.ts';
import { idem, quotaUsed, reply, thread } from './board-helpers.ts';

const RULES_ID = '00000000-0000-7000-8000-000000000002';

describe('GET /v1/rules', () => {
  test('shows the seeded rules, never edited, with an empty discussion and the viewer', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const r = await t.call('GET', '/v1/rules', { key: alice.key });
    expect(r.status).toBe(200);
    expect(r.json.rules).toEqual({ id: RULES_ID, body: expect.stringContaining('public and untrusted'), edited_at: null, edited_by: null });
    expect(r.json.discussion).toEqual([]);
    expect(r.json.viewer.voting).toMatchObject({ daily_limit: 30, remaining: 30 });
  });

  test('replies to the rules root form the discussion, oldest first; the rules root stays out of the thread feed', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const a = await reply(t, alice, RULES_ID, { body: 'Proposal: add a rule about links' });
    t.clock.advance(1000);
    const b = await reply(t, alice, RULES_ID, { body: '+1: agreed' });
    const r = await t.call('GET', '/v1/rules', { key: alice.key });
    expect(r.json.discussion.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    expect(r.json.discussion[0]).toMatchObject({ kind: 'reply', topic: 'rules', thread_id: RULES_ID });
    expect(r.json.discussion_truncated).toBe(false);
    expect((await t.call('GET', '/v1/posts', { key: alice.key })).json.posts).toEqual([]);
    const rulesTopic = await t.call('GET', '/v1/posts?topic=rules', { key: alice.key });
    expect(rulesTopic.json.posts.map((p: { id: string }) => p.id)).toEqual([RULES_ID]);
  });
});

describe('POST /v1/posts/{id}/edit', () => {
  test('an operator replaces the rules text; edited_at and edited_by follow; no posting quota is used', async () => {
    const t = makeApp();
    const op = await t.register('oscar');
    setRole(t.ctx, 'grant', 'oscar', 'operator');
    t.clock.set('2026-11-23T13:00:00Z');
    const r = await t.call('POST', `/v1/posts/${RULES_ID}/edit`, { key: op.key, headers: idem(), body: { body: 'Rule one: measure first.' } });
    expect(r.status).toBe(200);
    expect(r.json.post).toMatchObject({ id: RULES_ID, title: 'Rules', body: 'Rule one: measure first.', edited_at: '2026-11-23T13:00:00.000Z', author: 'svc' });
    const rules = await t.call('GET', '/v1/rules', { key: op.key });
    expect(rules.json.rules).toEqual({ id: RULES_ID, body: 'Rule one: measure first.', edited_at: '2026-11-23T13:00:00.000Z', edited_by: 'oscar' });
    expect(quotaUsed(t, op.id)).toBe(0);
  });

  test('an owner may edit too, and the latest editor is named', async () => {
    const t = makeApp();
    const op = await t.register('oscar');
    const owner = await t.register('olive');
    setRole(t.ctx, 'grant', 'oscar', 'operator');
    setRole(t.ctx, 'grant', 'olive', 'owner');
    await t.call('POST', `/v1/posts/${RULES_ID}/edit`, { key: op.key, headers: idem(), body: { body: 'v1' } });
    t.clock.advance(60_000);
    expect((await t.call('POST', `/v1/posts/${RULES_ID}/edit`, { key: owner.key, headers: idem(), body: { body: 'v2' } })).status).toBe(200);
    const rules = (await t.call('GET', '/v1/rules', { key: op.key })).json.rules;
    expect(rules).toMatchObject({ body: 'v2', edited_by: 'olive' });
  });

  test('anyone else is 403 NOT_ALLOWED naming the role, and the text stays', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    setRole(t.ctx, 'grant', 'alice', 'editor');
    const r = await t.call('POST', `/v1/posts/${RULES_ID}/edit`, { key: alice.key, headers: idem(), body: { body: 'Anything goes.' } });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('NOT_ALLOWED');
    expect(r.json.error.details.role).toBe('operator');
    expect((await t.call('GET', '/v1/rules', { key: alice.key })).json.rules.edited_at).toBeNull();
  });

  test('other posts are 400 NOT_EDITABLE, even for an operator and even for the author; unknown ids are 404', async () => {
    const t = makeApp();
    const op = await t.register('oscar');
    setRole(t.ctx, 'grant', 'oscar', 'operator');
    const own = await thread(t, op);
    const r = await t.call('POST', `/v1/posts/${own.id}/edit`, { key: op.key, headers: idem(), body: { body: 'changed' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('NOT_EDITABLE');
    expect(r.json.error.details.editable_id).toBe(RULES_ID);
    const unknown = await t.call('POST', `/v1/posts/${crypto.randomUUID()}/edit`, { key: op.key, headers: idem(), body: { body: 'x' } });
    expect(unknown.status).toBe(404);
  });

  test('an edit needs an Idempotency-Key; a replay answers the first edit and the lookup finds the rules root', async () => {
    const t = makeApp();
    const op = await t.register('oscar');
    setRole(t.ctx, 'grant', 'oscar', 'operator');
    const path = `/v1/posts/${RULES_ID}/edit`;
    expect((await t.call('POST', path, { key: op.key, body: { body: 'v1' } })).json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const key = crypto.randomUUID();
    const first = await t.call('POST', path, { key: op.key, headers: idem(key), body: { body: 'v1' } });
    t.clock.advance(5000);
    const again = await t.call('POST', path, { key: op.key, headers: idem(key), body: { body: 'v1' } });
    expect(again.json).toEqual(first.json);
    expect((await t.call('POST', path, { key: op.key, headers: idem(key), body: { body: 'v2' } })).status).toBe(409);
    const found = await t.call('GET', '/v1/me/publications/lookup', { key: op.key, headers: idem(key) });
    expect(found.json).toMatchObject({ found: true, id: RULES_ID, thread_id: RULES_ID });
  });
});
