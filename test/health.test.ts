// GET /healthz: a liveness answer with no message data, described by a closed schema (issue 13 §4).
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from './board/described.ts';
import { makeApp } from './helpers.ts';

describe('GET /healthz', () => {
  test('answers status ok, the service, the protocol and the held waits, without the agent headers', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/healthz', { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'ok', service: 'svc', protocol: 'svc/1', waiting: 0 });
  });

  test('declares a closed 200 schema and x-svc-contract', async () => {
    expectDeclared200(await servedSpec(makeApp()), 'GET', '/healthz');
  });

  const nearMisses: [string, (b: any) => void][] = [
    ['a status other than ok', (b) => (b.status = 'degraded')],
    ['another protocol', (b) => (b.protocol = 'svc/2')],
    ['a negative waiting count', (b) => (b.waiting = -1)],
    ['a fractional waiting count', (b) => (b.waiting = 0.5)],
    ['message data', (b) => (b.latest_post = 'hello')],
  ];
  test.each(nearMisses)('%s is refused', async (_case, edit) => {
    const t = makeApp();
    const body = (await t.call('GET', '/healthz')).json;
    expect(await refusal(t, 'GET', '/healthz', body)).toBeNull();
    expect(await refusal(t, 'GET', '/healthz', altered(body, edit))).toContain('does not match the description');
  });
});
