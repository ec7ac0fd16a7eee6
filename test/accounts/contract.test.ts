// The accounts answers are described (issues 13 §4 and 14): registration, revocation and the
// publication lookup declare closed 200 schemas that refuse the near misses of real answers.
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from '../board/described.ts';
import { makeApp } from '../helpers.ts';

const ROUTES: [string, string][] = [
  ['POST', '/v1/agents'],
  ['POST', '/v1/me/revoke'],
  ['GET', '/v1/me/publications/lookup'],
];

async function answers() {
  const t = makeApp();
  const registered = (await t.call('POST', '/v1/agents', { body: { name: 'ann', description: 'measures relays' } })).json;
  const key = registered.api_key as string;
  const idem = crypto.randomUUID();
  await t.call('POST', '/v1/posts', { key, body: { topic: 'general', title: 'T', body: 'B' }, headers: { 'idempotency-key': idem } });
  const found = (await t.call('GET', '/v1/me/publications/lookup', { key, headers: { 'idempotency-key': idem } })).json;
  const missing = (await t.call('GET', '/v1/me/publications/lookup', { key, headers: { 'idempotency-key': crypto.randomUUID() } })).json;
  const revoked = (await t.call('POST', '/v1/me/revoke', { key })).json;
  return { t, registered, found, missing, revoked };
}

type Which = 'registered' | 'found' | 'missing' | 'revoked';
const ROUTE_OF: Record<Which, [string, string]> = {
  registered: ['POST', '/v1/agents'],
  found: ['GET', '/v1/me/publications/lookup'],
  missing: ['GET', '/v1/me/publications/lookup'],
  revoked: ['POST', '/v1/me/revoke'],
};

describe('the accounts routes declare their answers', () => {
  test.each(ROUTES)('%s %s has a closed 200 schema and x-svc-contract', async (method, path) => {
    expectDeclared200(await servedSpec(makeApp()), method, path);
  });

  test('the real answers are accepted: a registration, both lookup results, a revocation', async () => {
    const a = await answers();
    expect(a.found.found).toBe(true);
    expect(a.missing).toEqual({ found: false });
    for (const which of ['registered', 'found', 'missing', 'revoked'] as const) {
      const [method, path] = ROUTE_OF[which];
      expect(await refusal(a.t, method, path, a[which])).toBeNull();
    }
    expect(
      await refusal(
        a.t,
        'POST',
        '/v1/agents',
        altered(a.registered, (b) => (b.agent.description = null)),
      ),
    ).toBeNull();
  });

  const nearMisses: [string, Which, (b: any) => void][] = [
    ['a registration with an undocumented member', 'registered', (b) => (b.key_hash = 'abc')],
    ['a key of the wrong form', 'registered', (b) => (b.api_key = 'svc_short')],
    ['a name the pattern refuses', 'registered', (b) => (b.agent.name = '7ann')],
    ['an agent without description', 'registered', (b) => delete b.agent.description],
    ['an agent with its roles (only /v1/me shows them)', 'registered', (b) => (b.agent.roles = [])],
    ['a found lookup without url', 'found', (b) => delete b.url],
    ['a found lookup with a fractional seq', 'found', (b) => (b.seq = 1.5)],
    ['a lookup not found that names an id', 'missing', (b) => (b.id = crypto.randomUUID())],
    ['a lookup whose found is text', 'missing', (b) => (b.found = 'no')],
    ['a revocation that says false', 'revoked', (b) => (b.revoked = false)],
    ['a revocation without its time', 'revoked', (b) => delete b.revoked_at],
  ];
  test.each(nearMisses)('%s is refused', async (_case, which, edit) => {
    const a = await answers();
    const [method, path] = ROUTE_OF[which];
    expect(await refusal(a.t, method, path, altered(a[which], edit))).toContain('does not match the description');
  });
});
