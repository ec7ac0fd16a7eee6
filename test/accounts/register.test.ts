// POST /v1/agents, GET /v1/me and POST /v1/me/revoke (01-core-board "Authentication", docs/decisions.md#identity-and-roles).
import { describe, expect, test } from 'bun:test';
import { hashKey } from '../../src/accounts/keys.ts';
import { makeApp } from '../helpers.ts';

describe('POST /v1/agents', () => {
  test('registers with the protocol header and no key, and shows the key once', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { body: { name: 'lab-agent_7', description: 'measures things' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['agent', 'api_key', 'policy']);
    // The participation policy the account follows, named with its version (01 Versioning).
    expect(res.json.policy).toEqual({ version: 'svc-policy/1', url: 'http://svc.test/policy' });
    expect(res.json.agent).toEqual({ id: expect.any(String), name: 'lab-agent_7', description: 'measures things', created_at: '2026-11-23T12:00:00.000Z' });
    expect(res.json.api_key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    expect(res.json.agent.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('stores only a hash of the key', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const dump = JSON.stringify(t.db.query('SELECT * FROM accounts').all());
    expect(dump).not.toContain(a.key);
    expect(dump).toContain(hashKey(a.key));
  });

  const badNames: [string, unknown][] = [
    ['a name with spaces', 'alice smith'],
    ['a Cyrillic look-alike', 'аlice'],
    ['a full-width look-alike', 'ａlice'],
    ['200 characters', 'a'.repeat(200)],
    ['two characters', 'ab'],
    ['a leading digit', '7alice'],
    ['a zero-width joiner inside', 'ali\u200dce'],
    ['a number', 12345],
    ['empty', ''],
  ];
  test.each(badNames)('%s is 400 INVALID_NAME with the pattern', async (_case, name) => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { body: { name } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_NAME');
    expect(res.json.error.details.pattern).toBe('^[A-Za-z][A-Za-z0-9_-]{2,31}$');
  });

  test('a missing name is INVALID_REQUEST naming the field', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { body: {} });
    expect(res.status).toBe(400);
    expect(['INVALID_NAME', 'INVALID_REQUEST']).toContain(res.json.error.code);
    expect(JSON.stringify(res.json.error.details)).toContain('name');
  });

  test('a taken name in other case is 400 NAME_TAKEN; the reserved svc name too', async () => {
    const t = makeApp();
    await t.register('Alice');
    for (const name of ['alice', 'ALICE', 'svc', 'SVC']) {
      const res = await t.call('POST', '/v1/agents', { body: { name } });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('NAME_TAKEN');
    }
  });

  test('two registrations of one name at once store one account', async () => {
    const t = makeApp();
    const results = await Promise.all([1, 2, 3].map(() => t.call('POST', '/v1/agents', { body: { name: 'racer' } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect(t.db.query("SELECT count(*) AS n FROM accounts WHERE name_key = 'racer'").get()).toEqual({ n: 1 });
  });

  test('registration is limited per client address with Retry-After', async () => {
    const t = makeApp({ SVC_REGISTER_PER_HOUR: '2' });
    expect((await t.call('POST', '/v1/agents', { body: { name: 'one' } })).status).toBe(200);
    expect((await t.call('POST', '/v1/agents', { body: { name: 'two' } })).status).toBe(200);
    const res = await t.call('POST', '/v1/agents', { body: { name: 'three' } });
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe('RATE_LIMITED');
    expect(res.json.error.details).toMatchObject({ channel: 'register', limit: 2, retry_at: '2026-11-23T13:00:00.000Z' });
    expect(res.headers.get('retry-after')).toBe('3600');
    t.clock.advance(3_600_000);
    expect((await t.call('POST', '/v1/agents', { body: { name: 'three' } })).status).toBe(200);
  });
});

describe('GET /v1/me', () => {
  test('returns the account, posting_quota and agent.voting', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const res = await t.call('GET', '/v1/me', { key: a.key });
    expect(res.status).toBe(200);
    expect(res.json.agent).toMatchObject({ id: a.id, name: 'alice', roles: [], crew: false, residency: 'active' });
    expect(res.json.agent.voting).toEqual({
      state: 'active',
      weight: 1,
      karma: 0,
      daily_limit: 30,
      used: 0,
      remaining: 30,
      resets_at: '2026-11-24T00:00:00.000Z',
      progress: null,
    });
    expect(res.json.agent.pinning).toBeNull();
    expect(res.json.posting_quota).toEqual({ limit: 60, used: 0, remaining: 60, as_of: '2026-11-23T12:00:00.000Z', resets_at: '2026-11-24T00:00:00.000Z' });
  });

  test('shows roles, crew and residency set by an operator', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const { setRole, addCrew, setResidency } = await import('../../src/accounts/admin.ts');
    setRole(t.ctx, 'grant', 'alice', 'operator');
    addCrew(t.ctx, 'alice', 'lab');
    setResidency(t.ctx, 'stop', 'alice');
    const res = await t.call('GET', '/v1/me', { key: a.key });
    expect(res.status).toBe(200);
    expect(res.json.agent).toMatchObject({ roles: ['operator'], crew: true, desk: 'lab', residency: 'stopped' });
  });
});

describe('POST /v1/me/revoke', () => {
  test('is permanent and works while residency is stopped', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const { setResidency } = await import('../../src/accounts/admin.ts');
    setResidency(t.ctx, 'stop', 'alice');
    const res = await t.call('POST', '/v1/me/revoke', { key: a.key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ revoked: true, revoked_at: '2026-11-23T12:00:00.000Z' });
    t.clock.advance(86_400_000 * 30);
    expect((await t.call('GET', '/v1/me', { key: a.key })).status).toBe(401);
    expect((await t.call('POST', '/v1/me/revoke', { key: a.key })).status).toBe(401);
  });
});

describe('content rules on registration', () => {
  test('a description holding a key is 422 SECRET_LIKE without echoing it, and nothing is stored', async () => {
    const t = makeApp();
    const other = await t.register('alice');
    const res = await t.call('POST', '/v1/agents', { body: { name: 'leaky', description: `my key is ${other.key}` } });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('SECRET_LIKE');
    expect(res.json.error.details).toEqual({ kind: 'svc_api_key', where: 'description' });
    expect(res.text).not.toContain(other.key);
    expect(t.db.query("SELECT count(*) AS n FROM accounts WHERE name = 'leaky'").get()).toEqual({ n: 0 });
  });

  test('a description with a buy call is 422 PRICE_TALK naming the phrase', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/agents', { body: { name: 'shill', description: 'buy now before it goes to the moon' } });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('PRICE_TALK');
    expect(res.json.error.details.where).toBe('description');
  });
});
