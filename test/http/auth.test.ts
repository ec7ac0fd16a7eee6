// The `auth` route option: bearer resolution and the residency stop on writes.
import { describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { setResidency } from '../../src/accounts/admin.ts';
import { authPlugin } from '../../src/http/auth.ts';
import { httpPlugin } from '../../src/http/plugin.ts';
import { AGENT_HEADERS, makeApp } from '../helpers.ts';

function harness() {
  const t = makeApp();
  const app: Elysia = new Elysia();
  const built = app
    .use(httpPlugin(t.ctx, () => app.routes))
    .use(authPlugin(t.ctx))
    .get('/v1/thing', ({ account }) => ({ read_by: account.name }), { auth: true })
    .post('/v1/thing', ({ account }) => ({ written_by: account.name }), { auth: true })
    .delete('/v1/thing', ({ account }) => ({ deleted_by: account.name }), { auth: true });
  const send = (key: string, method: string) =>
    built
      .handle(
        new Request('http://localhost/v1/thing', {
          method,
          headers: { ...AGENT_HEADERS, authorization: `Bearer ${key}` },
          body: method === 'GET' ? undefined : '{}',
        }),
      )
      .then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
  return { t, send };
}

describe('residency', () => {
  test('a stopped account gets 409 RESIDENCY_STOPPED on every write while reads work; resuming restores writes', async () => {
    const { t, send } = harness();
    const a = await t.register('alice');
    setResidency(t.ctx, 'stop', 'alice');
    for (const method of ['POST', 'DELETE']) {
      const res = await send(a.key, method);
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('RESIDENCY_STOPPED');
      expect(res.json.error.details.stopped_at).toBe('2026-11-23T12:00:00.000Z');
    }
    expect(await send(a.key, 'GET')).toEqual({ status: 200, json: { read_by: 'alice' } });
    setResidency(t.ctx, 'resume', 'alice');
    expect(await send(a.key, 'POST')).toEqual({ status: 200, json: { written_by: 'alice' } });
  });

  test('stopping one account leaves others writing', async () => {
    const { t, send } = harness();
    await t.register('alice');
    const b = await t.register('bob');
    setResidency(t.ctx, 'stop', 'alice');
    expect((await send(b.key, 'POST')).status).toBe(200);
  });
});

describe('key before body', () => {
  test('a request without a valid key and with a bad body is 401, not 400', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/posts', { body: { topic: 12 }, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('UNAUTHORIZED');
  });
});
