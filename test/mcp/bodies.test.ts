// The bodies the OAuth endpoints and /mcp read themselves keep the rules every route's body has:
// the read has a time budget (SVC_BODY_READ_SECONDS, 1 s here, answered 408 in the route's own
// format), and a client that hangs up mid-body is logged as 499, not as an internal fault. Through
// a real socket: a body that stops half-way is something only a socket can send.
import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test';
import { makeApp } from '../helpers.ts';
import { hangUp, stalledRequest } from '../http/raw-socket.ts';
import { until } from '../until.ts';
import { link, type Served, serve } from './harness.ts';

let s: Served;
let token = '';
let log: ReturnType<typeof spyOn<Console, 'log'>>;
let errors: ReturnType<typeof spyOn<Console, 'error'>>;

beforeAll(async () => {
  s = serve({ SVC_BODY_READ_SECONDS: '1', SVC_LOG_REQUESTS: 'errors', SVC_MCP_REGISTRATIONS_PER_HOUR: '40' });
  log = spyOn(console, 'log').mockImplementation(() => {});
  errors = spyOn(console, 'error').mockImplementation(() => {});
  const agent = await s.register('body_agent');
  token = (await link(s, agent.key)).tokens.access_token;
});
afterAll(() => {
  log?.mockRestore();
  errors?.mockRestore();
  s?.stop();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const mcpHeaders = () => ({ ...JSON_TYPE, accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` });

/** The request log lines (SVC_LOG_REQUESTS) of the request that carried `id` as its X-Request-Id. */
const linesOf = (id: string) =>
  log.mock.calls
    .map((c) => {
      try {
        return JSON.parse(String(c[0]));
      } catch {
        return null;
      }
    })
    .filter((l) => l?.request_id === id);
const faultsOf = (id: string) => errors.mock.calls.filter((c) => String(c[0]).includes(id));
let ids = 0;
const freshId = () => `body-test-${++ids}-${crypto.randomUUID().slice(0, 8)}`;

describe('a body that stops half-way is answered 408 once SVC_BODY_READ_SECONDS has passed', () => {
  test('POST /token: 408 invalid_request (RFC 6749 JSON) naming the budget', async () => {
    const r = await stalledRequest(s.url, 'POST', '/token', FORM, 'grant_type=authorization_code&code=');
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body)).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('within 1 seconds') });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  test('POST /register: 408 and no client is registered', async () => {
    const before = s.db.query('SELECT count(*) AS n FROM mcp_clients').get();
    const r = await stalledRequest(s.url, 'POST', '/register', JSON_TYPE, '{"redirect_uris":["https://stalled.example/cb"],');
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body).error).toBe('invalid_request');
    expect(s.db.query('SELECT count(*) AS n FROM mcp_clients').get()).toEqual(before);
  });

  test('POST /revoke: 408', async () => {
    const r = await stalledRequest(s.url, 'POST', '/revoke', FORM, 'token=');
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body).error).toBe('invalid_request');
  });

  test('POST /authorize (the consent form): 408 as a page', async () => {
    const r = await stalledRequest(s.url, 'POST', '/authorize', FORM, 'request_id=');
    expect(r.status).toBe(408);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.body).toContain('too slowly');
  });

  test('POST /mcp: 408 as a JSON-RPC error', async () => {
    const r = await stalledRequest(s.url, 'POST', '/mcp', mcpHeaders(), '{"jsonrpc":"2.0","id":1,');
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
  });

  describe('near misses: the same bodies sent whole over the same socket are answered as usual', () => {
    const whole = (path: string, headers: Record<string, string>, body: string) => stalledRequest(s.url, 'POST', path, headers, body, Buffer.byteLength(body));

    test('/revoke with a whole form: 200', async () => {
      expect((await whole('/revoke', FORM, 'token=nothing')).status).toBe(200);
    });

    test('/token with a whole form: its own 400 (an unknown code), not 408', async () => {
      const r = await whole('/token', FORM, 'grant_type=refresh_token&refresh_token=x&client_id=y');
      expect([r.status, JSON.parse(r.body).error]).toEqual([400, 'invalid_grant']);
    });

    test('/register with whole metadata: 201', async () => {
      expect((await whole('/register', JSON_TYPE, JSON.stringify({ redirect_uris: ['https://whole.example/cb'] }))).status).toBe(201);
    });

    test('/mcp with a whole message: 200', async () => {
      expect((await whole('/mcp', mcpHeaders(), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).status).toBe(200);
    });
  });
});

describe('a client that hangs up mid-body is logged as 499 CLIENT_CLOSED_REQUEST, never as a 500 fault', () => {
  const cases: [string, string, Record<string, string>, string][] = [
    ['/token', '/token', FORM, 'grant_type=authorization_code&code='],
    ['/register', '/register', JSON_TYPE, '{"redirect_uris":'],
    ['/revoke', '/revoke', FORM, 'token='],
    ['the consent form', '/authorize', FORM, 'request_id='],
    ['/mcp', '/mcp', {}, '{"jsonrpc":"2.0",'],
  ];
  for (const [name, path, headers, first] of cases) {
    test(name, async () => {
      const id = freshId();
      const taken = s.arrivals.length;
      const h = path === '/mcp' ? mcpHeaders() : headers;
      await hangUp(s.url, 'POST', path, { ...h, 'x-request-id': id }, first, () => s.arrivals.length > taken);
      await until(`the log line of ${path}`, () => linesOf(id).length > 0);
      expect(linesOf(id)).toEqual([
        {
          event: 'request',
          request_id: id,
          method: 'POST',
          path,
          status: 499,
          code: 'CLIENT_CLOSED_REQUEST',
          client: expect.any(String),
          duration_ms: expect.any(Number),
        },
      ]);
      expect(faultsOf(id)).toEqual([]);
    });
  }
});

describe("/mcp's own answers are logged with their real status", () => {
  test('SVC_LOG_REQUESTS=errors: a 401 without a token is logged as 401; a 200 is not logged', async () => {
    const ok = freshId();
    const refused = freshId();
    const call = (id: string, headers: Record<string, string>) =>
      fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { ...JSON_TYPE, accept: 'application/json, text/event-stream', 'x-request-id': id, ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }).then(async (r) => {
        await r.text();
        return r.status;
      });
    expect(await call(ok, { authorization: `Bearer ${token}` })).toBe(200);
    expect(await call(refused, {})).toBe(401);
    await until('the 401 to be logged', () => linesOf(refused).length > 0);
    expect(linesOf(refused)).toEqual([
      { event: 'request', request_id: refused, method: 'POST', path: '/mcp', status: 401, client: expect.any(String), duration_ms: expect.any(Number) },
    ]);
    expect(linesOf(ok)).toEqual([]);
  });

  test('SVC_LOG_REQUESTS=all: the 401 is one line with 401, not a 200', async () => {
    const t = makeApp({ SVC_LOG_REQUESTS: 'all' });
    const id = freshId();
    const res = await t.app.handle(
      new Request('http://svc.test/mcp', {
        method: 'POST',
        headers: { ...JSON_TYPE, accept: 'application/json, text/event-stream', 'x-request-id': id },
        body: '{}',
      }),
    );
    expect(res.status).toBe(401);
    await until('the 401 to be logged', () => linesOf(id).length > 0);
    expect(linesOf(id).map((l) => l.status)).toEqual([401]);
  });
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
});
