// The route options a route declares its needs with (src/http/route-needs.ts): its body budget and
// its family, read by the shared conventions from the declaration alone. Checked on made-up routes
// mounted behind the real conventions, so that nothing here depends on a domain's path.
import { describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { createApp } from '../../src/app.ts';
import type { Domain } from '../../src/context.ts';
import { FamilyIndex } from '../../src/http/families.ts';
import { routeNeeds } from '../../src/http/route-needs.ts';
import { AGENT_HEADERS, BASE, makeApp, readResponse } from '../helpers.ts';

const Text = v.object({ text: v.string() });

const PROBE: Domain = {
  name: 'probe',
  routes: () =>
    new Elysia({ name: 'probe' })
      .use(routeNeeds)
      .post('/v1/probe/large', ({ body }) => ({ size: JSON.stringify(body).length }), { body: Text, bodyBudget: { bytes: 200_000, chars: 150_000 } })
      .post('/v1/probe/plain', ({ body }) => ({ size: JSON.stringify(body).length }), { body: Text })
      .get('/probe/:id', ({ params }) => ({ id: params.id }), { family: 'page' })
      .get('/probe-read', () => ({ read: true }), { family: 'agent-read' })
      .post('/probe-read', () => ({ written: true }), { family: 'agent' }),
};

function probeApp(env: Record<string, string> = {}) {
  const { ctx } = makeApp(env);
  const app = createApp(ctx, [PROBE]);
  const send = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
    readResponse(await app.handle(new Request(`${BASE}${path}`, { method, body: init.body, headers: init.headers })));
  return { app, send };
}

const bodyOf = (bytes: number) => JSON.stringify({ text: 'x'.repeat(bytes - 12) });

describe('bodyBudget', () => {
  test("a route's declared budget replaces the service-wide one (64 KB) for that route only", async () => {
    const { send } = probeApp();
    const body = bodyOf(100_000);
    const large = await send('POST', '/v1/probe/large', { body, headers: AGENT_HEADERS });
    expect([large.status, large.json.size]).toEqual([200, body.length]);
    const plain = await send('POST', '/v1/probe/plain', { body, headers: AGENT_HEADERS });
    expect([plain.status, plain.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(plain.json.error.details).toMatchObject({ max_request_bytes: 64 * 1024, max_text_chars: 20_000 });
  });

  test('past the declared budget: 413 naming it (and its text budget), refused before the rest is read', async () => {
    const { send } = probeApp();
    const over = await send('POST', '/v1/probe/large', { body: bodyOf(250_000), headers: AGENT_HEADERS });
    expect([over.status, over.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(over.json.error.details).toMatchObject({ max_request_bytes: 200_000, max_text_chars: 150_000 });
    expect(over.headers.get('connection')).toBe('close');
  });
});

describe('family', () => {
  test('a declared page family takes the read limit, at its routes and at a missing address under them', async () => {
    const { send } = probeApp({ SVC_PUBLIC_READS_PER_MINUTE: '2' });
    expect((await send('GET', '/probe/1')).status).toBe(200);
    expect((await send('GET', '/probe/1/missing')).status).toBe(404);
    const limited = await send('GET', '/probe/2');
    expect([limited.status, limited.json.error.code]).toEqual([429, 'EDGE_RATE_LIMIT']);
  });

  test('a keyless agent read: no protocol header needed to read, an agent call for a write; /v1 stays agent undeclared', async () => {
    const { send } = probeApp();
    expect((await send('GET', '/probe-read', { headers: { accept: '*/*' } })).status).toBe(200);
    const write = await send('POST', '/probe-read', { body: '{}', headers: { 'content-type': 'application/json' } });
    expect([write.status, write.json.error.code]).toEqual([400, 'PROTOCOL_REQUIRED']);
    const unknown = await send('GET', '/v1/nothing-here', { headers: { accept: 'application/json' } });
    expect([unknown.status, unknown.json.error.code]).toEqual([400, 'PROTOCOL_REQUIRED']);
  });

  test('the index: declared families, the page subtree, the spec prefixes; two families at one address stop it', () => {
    const route = (method: string, path: string, family?: string) => ({ method, path, hooks: family ? { family } : {} });
    const index = new FamilyIndex(() => [
      route('GET', '/pages/:id', 'page'),
      route('GET', '/pages'),
      route('POST', '/api/things/guest', 'guest'),
      route('GET', '/keyless', 'agent-read'),
      route('POST', '/token', 'oauth'),
      route('GET', '/shelf/', 'page'),
      route('GET', '/shelf/:id', 'page'),
    ]);
    expect(
      [
        ['GET', '/pages/1'],
        ['GET', '/pages/1/2'],
        ['GET', '/pages'],
        ['OPTIONS', '/api/things/guest'],
        ['GET', '/api/things'],
        ['HEAD', '/keyless'],
        ['DELETE', '/keyless'],
        ['POST', '/token'],
        ['POST', '/token/'],
        ['GET', '/v1/anything'],
        ['GET', '/elsewhere'],
        ['POST', '/api/things/guest/'],
        ['GET', '/keyless/'],
        ['GET', '/shelf/'],
        ['GET', '/shelf'],
        ['GET', '/shelf/1/'],
        ['GET', '/pages/'],
      ].map(([m, p]) => index.of(m!, p!)),
      // A route's path with its trailing slash toggled is the router's address of that route: its family.
    ).toEqual([
      'page',
      'page',
      'other',
      'guest',
      'public',
      'agent-read',
      'agent',
      'oauth',
      'oauth',
      'agent',
      'other',
      'guest',
      'agent-read',
      'page',
      'page',
      'page',
      'page',
    ]);
    const clash = new FamilyIndex(() => [route('GET', '/x', 'page'), route('POST', '/x', 'guest')]);
    expect(() => clash.of('GET', '/x')).toThrow('the routes at /x declare two families: page and guest');
  });
});
