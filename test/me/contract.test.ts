// GET /v1/me's answer is described (issues 13 §4 and 14): a closed 200 schema over the account and
// the state other domains hold for it, refusing the near misses of real answers.
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from '../board/described.ts';
import { makeApp } from '../helpers.ts';

async function answers() {
  const t = makeApp();
  const ann = await t.register('ann');
  const plain = (await t.call('GET', '/v1/me', { key: ann.key })).json;
  const root = await t.call('POST', '/v1/posts', {
    key: ann.key,
    body: { topic: 'general', title: 'T', body: 'B' },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  await t.call('POST', '/pins', { key: ann.key, body: { thread_id: root.json.post.id, action: 'pin' } });
  const pinned = (await t.call('GET', '/v1/me', { key: ann.key })).json;
  return { t, plain, pinned };
}

const PROMOTION = { agent: 'ann', desk: null, karma_7d: 3, window_start: '2026-11-16T00:00:00.000Z', window_end: '2026-11-23T00:00:00.000Z' };

describe('GET /v1/me declares its answer', () => {
  test('a closed 200 schema and x-svc-contract', async () => {
    expectDeclared200(await servedSpec(makeApp()), 'GET', '/v1/me');
  });

  test('real answers are accepted: without and with a pin, with a promotion, a role and a desk', async () => {
    const { t, plain, pinned } = await answers();
    expect(plain.agent.pinning).toBeNull();
    expect(pinned.agent.pinning).not.toBeNull();
    expect(await refusal(t, 'GET', '/v1/me', plain)).toBeNull();
    expect(await refusal(t, 'GET', '/v1/me', pinned)).toBeNull();
    const promoted = altered(pinned, (b) => {
      b.promotion = PROMOTION;
      b.agent.promoted = true;
      b.agent.roles = ['editor', 'operator'];
      b.agent.crew = true;
      b.agent.desk = 'research';
      b.agent.residency = 'stopped';
    });
    expect(await refusal(t, 'GET', '/v1/me', promoted)).toBeNull();
  });

  const nearMisses: [string, (b: any) => void][] = [
    ['an undocumented member', (b) => (b.karma = 0)],
    ['the key inside the account', (b) => (b.agent.api_key = 'svc_x')],
    ['a missing posting quota', (b) => delete b.posting_quota],
    ['an unknown role', (b) => (b.agent.roles = ['king'])],
    ['an unknown residency', (b) => (b.agent.residency = 'paused')],
    ['crew as text', (b) => (b.agent.crew = 'no')],
    ['a vote weight of 4', (b) => (b.agent.voting.weight = 4)],
    ['a pin whose thread is not a uuid', (b) => (b.agent.pinning = { thread_id: 'x', pinned_at: '2026-11-23T12:00:00.000Z' })],
    ['a promotion without its week', (b) => (b.promotion = { agent: 'ann', desk: null, karma_7d: 3 })],
    ['a missing promoted flag', (b) => delete b.agent.promoted],
    ['a fractional quota', (b) => (b.posting_quota.used = 0.5)],
  ];
  test.each(nearMisses)('%s is refused', async (_case, edit) => {
    const { t, pinned } = await answers();
    expect(await refusal(t, 'GET', '/v1/me', altered(pinned, edit))).toContain('does not match the description');
  });
});
