// A read's tool call runs its route's handler in-process (src/mcp/dispatch.ts) instead of sending
// the route's Request through the whole app a second time: the same answer, byte for byte, counted
// as the route's pass counted it; anything that path would not answer exactly as the route would
// (a refused parameter, a path another route takes, a handler's error) and every write still goes
// through the app, with its rules and quotas.
import { standingOf, usable } from '../../src/mcp/access.ts';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { createApp } from '../../src/app.ts';
import { PROCESS_METRICS } from '../../src/lib/metrics.ts';
import { directReadOf, directReads, readDirect } from '../../src/mcp/dispatch.ts';
import { toolsOf } from '../../src/mcp/server.ts';
import type { ToolRoute } from '../../src/mcp/tools.ts';
import { link, mcpPost, type Served, serve } from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };
let token: string;
let threadId: string;
/** `METHOD /path?query` of every request the app handled itself, the tool calls' own included. */
const passes: string[] = [];

beforeAll(async () => {
  s = serve();
  agent = await s.register('dispatch_user');
  token = (await link(s, agent.key)).tokens.access_token;
  const root = await s.call('POST', '/v1/posts', {
    key: agent.key,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { topic: 'general', title: 'A thread to read', body: 'Read over MCP and over REST.' },
  });
  expect(root.status).toBe(200);
  threadId = root.json.post?.id ?? root.json.id;
  const handle = s.app.handle;
  s.app.handle = (request: Request) => {
    const u = new URL(request.url);
    passes.push(`${request.method} ${u.pathname}${u.search}`);
    return handle(request);
  };
});
afterAll(() => s?.stop());
afterEach(() => {
  directReads.on = true;
  expect(s.faults).toEqual([]);
});

let id = 0;
/** A tools/call over HTTP: the JSON-RPC answer's text, and the app's passes it made besides the /mcp request itself. */
async function callTool(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; inner: string[] }> {
  const from = passes.length;
  const res = await mcpPost(s, token, JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } }));
  expect(res.status).toBe(200);
  const text = await res.text();
  // (The tool list is built once, from the service's own /openapi.json, on the first call.)
  return { text, inner: passes.slice(from).filter((p) => p !== 'POST /mcp' && p !== 'GET /openapi.json') };
}
const resultOf = (text: string) =>
  (JSON.parse(text) as { result: { isError?: boolean; structuredContent?: Record<string, unknown>; _meta: { status: number } } }).result;
const withoutId = (text: string) => text.replace(/"id":\d+\}$/, '');

/** The agent requests answered 200, from the process's metrics (after the answers already sent are counted: Elysia counts them a turn later). */
async function agent200(): Promise<number> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  const line = PROCESS_METRICS.render()
    .split('\n')
    .find((l) => l.startsWith('svc_http_requests_total{') && l.includes('family="agent"') && l.includes('status="200"'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('a read tool call', () => {
  test('runs its route without a second pass through the app, and answers what the route answers', async () => {
    for (const [name, args, path] of [
      ['get_my_account', {}, '/v1/me'],
      ['read_thread', { id: threadId }, `/v1/posts/${threadId}`],
    ] as const) {
      const { text, inner } = await callTool(name, args);
      expect(inner).toEqual([]);
      const rest = await s.call('GET', path, { key: agent.key });
      expect(rest.status).toBe(200);
      const result = resultOf(text);
      expect(result.isError).toBeUndefined();
      expect(result._meta.status).toBe(200);
      expect(result.structuredContent).toEqual(rest.json);
    }
  });

  test('its answer is the same bytes as through the whole app', async () => {
    for (const [name, args] of [
      ['get_my_account', {}],
      ['read_thread', { id: threadId }],
      ['read_feed', { limit: 5 }],
      ['read_rules', {}],
    ] as const) {
      const direct = await callTool(name, args);
      directReads.on = false;
      const through = await callTool(name, args);
      directReads.on = true;
      expect(through.inner.length).toBe(1);
      expect(withoutId(direct.text)).toBe(withoutId(through.text));
    }
  });

  test('every read run directly answers the same bytes as through the whole app, whatever the tool', async () => {
    // Every tool whose route dispatch.ts would run itself, called with the arguments a path needs
    // (an id: this thread's, or an account: this agent's) and none else, run directly and then
    // through the app. Reads that change what the next read answers (resume records the visit)
    // are called through the app first, so both calls see the same state.
    const toolset = await toolsOf(s.ctx, s.app.handle);
    // (Not the long poll, which holds its answer until the board moves.)
    // (Nor a tool the agent cannot use: it is not listed to it, src/mcp/access.ts.)
    const standing = standingOf(s.ctx, agent.id);
    const eligible = [...toolset.routes].filter(
      ([name, route]) => directReadOf(s.app, route) !== null && route.path !== '/v1/continuity/wait' && usable(standing, name, route.path),
    );
    expect(eligible.length).toBeGreaterThan(10);
    const argsFor = (route: ToolRoute): Record<string, unknown> =>
      Object.fromEntries(route.pathParams.map((p) => [p, /name|agent/.test(p) ? agent.name : threadId]));
    const compared: string[] = [];
    for (const [name, route] of eligible) {
      const args = argsFor(route);
      directReads.on = false;
      await callTool(name, args); // settles any state the read itself changes
      const through = await callTool(name, args);
      directReads.on = true;
      const direct = await callTool(name, args);
      if (direct.inner.length > 0) continue; // answered through the app (an error for these arguments): nothing to compare
      expect({ name, text: withoutId(direct.text) }).toEqual({ name, text: withoutId(through.text) });
      compared.push(name);
    }
    expect(compared).toContain('get_my_account');
    expect(compared.length).toBeGreaterThan(10);
  });

  test('is counted as the agent request the route answered', async () => {
    const before = await agent200();
    await callTool('get_my_account');
    expect(await agent200()).toBe(before + 1);
  });
});

describe('what goes through the whole app', () => {
  test("a handler's error: the route's own code, from the route's own pass", async () => {
    const missing = '01a21a70-3e40-73b9-8ddb-50151349b87d';
    const { text, inner } = await callTool('read_thread', { id: missing });
    expect(inner).toEqual([`GET /v1/posts/${missing}`]);
    const rest = await s.call('GET', `/v1/posts/${missing}`, { key: agent.key });
    const result = resultOf(text);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: { code: rest.json.error.code, message: rest.json.error.message, details: rest.json.error.details },
      status: rest.status,
    });
  });

  test('a query the route refuses: its validation error', async () => {
    const { text, inner } = await callTool('read_feed', { limit: 1000 });
    expect(inner).toEqual(['GET /v1/posts?limit=1000']);
    const rest = await s.call('GET', '/v1/posts?limit=1000', { key: agent.key });
    expect(rest.status).toBe(400);
    const result = resultOf(text);
    expect(result._meta.status).toBe(400);
    expect(result.structuredContent).toEqual({
      error: { code: rest.json.error.code, message: rest.json.error.message, details: rest.json.error.details },
      status: 400,
    });
  });

  test('a path another route takes (GET /v1/ext/{id} with id "wanted" is GET /v1/ext/wanted)', async () => {
    const { text, inner } = await callTool('read_mirror_post', { id: 'wanted' });
    expect(inner).toEqual(['GET /v1/ext/wanted']);
    const rest = await s.call('GET', '/v1/ext/wanted', { key: agent.key });
    expect(resultOf(text)._meta.status).toBe(rest.status);
  });

  test('a write, which still counts against its quota', async () => {
    const quota = async () => (await s.call('GET', '/v1/me', { key: agent.key })).json.posting_quota;
    const before = JSON.stringify(await quota());
    expect(before).toContain('used');
    const { text, inner } = await callTool('create_thread', { topic: 'general', title: 'Written over MCP', body: 'Counted like any post.' });
    expect(inner).toEqual(['POST /v1/posts']);
    expect(resultOf(text).isError).toBeUndefined();
    expect(JSON.stringify(await quota())).not.toBe(before);
  });
});

describe('the router decides', () => {
  test('a concrete path another route matches is not run by the parameter route', async () => {
    // Two reads: /v1/things/special is its own route; any other /v1/things/X is the parameter route.
    const things = {
      name: 'things',
      routes: () =>
        new Elysia({ name: 'things' }).get('/v1/things/special', () => ({ special: true })).get('/v1/things/:id', ({ params }) => ({ id: params.id })),
    };
    const app = createApp(s.ctx, [things]);
    const route: ToolRoute = {
      method: 'GET',
      path: '/v1/things/{id}',
      pathParams: ['id'],
      queryParams: [],
      headerKey: null,
      bodyKey: false,
      hasBody: false,
      nestedBody: null,
      scope: 'board:read',
      toolset: 'board',
    };
    const read = directReadOf(app, route);
    expect(read).not.toBeNull();
    const call = (id: string) => ({
      request: new Request(`${s.url}/v1/things/${id}`),
      path: `/v1/things/${id}`,
      params: { id },
      query: {},
    });
    expect((await readDirect(s.ctx, app, read!, call('plain'), null))?.text).toBe('{"id":"plain"}');
    // The router answers /v1/things/special with its own route: the direct read steps aside.
    expect(await readDirect(s.ctx, app, read!, call('special'), null)).toBeNull();
    expect(
      await (await app.handle(new Request(`${s.url}/v1/things/special`, { headers: { 'x-agent-protocol': 'svc/1', accept: 'application/json' } }))).json(),
    ).toEqual({
      special: true,
    });
  });
});

describe('the request log', () => {
  test('with SVC_LOG_REQUESTS=all, a direct read logs the line its route pass logged', async () => {
    const logged = serve({ SVC_LOG_REQUESTS: 'all' });
    try {
      const a = await logged.register('dispatch_logged');
      const t = (await link(logged, a.key)).tokens.access_token;
      const lines: Record<string, unknown>[] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => {
        if (typeof args[0] === 'string' && args[0].startsWith('{"event":"request"')) lines.push(JSON.parse(args[0]));
        else log(...args);
      };
      try {
        for (const on of [true, false]) {
          directReads.on = on;
          const res = await mcpPost(
            logged,
            t,
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_account', arguments: {} } }),
          );
          expect(res.status).toBe(200);
          await res.text();
          // The route pass logs after its answer is sent (a turn later).
          for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        console.log = log;
        directReads.on = true;
      }
      const me = lines.filter((l) => l.path === '/v1/me');
      expect(me.length).toBe(2);
      const shape = (l: Record<string, unknown>) => ({ ...l, request_id: typeof l.request_id, duration_ms: typeof l.duration_ms });
      expect(shape(me[0]!)).toEqual(shape(me[1]!));
      expect(me[0]).toMatchObject({ event: 'request', method: 'GET', path: '/v1/me', status: 200 });
    } finally {
      logged.stop();
    }
  });
});
