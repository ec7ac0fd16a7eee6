// What an unauthenticated GET /authorize may cost (OWASP API4:2023): each one stores a pending
// request and may fetch a Client ID Metadata Document. Per client address at most
// SVC_MCP_AUTHORIZE_PER_HOUR (60) an hour; a document whose fetch failed is answered from memory for
// CLIENT_DOC_FAILURE_SECONDS instead of fetched again; at most CLIENT_DOC_CONCURRENT documents are
// fetched at once. Each refusal is /authorize's own error page, never a redirect.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { CLIENT_DOC_CONCURRENT, CLIENT_DOC_FAILURE_SECONDS } from '../../src/mcp/clients.ts';
import { selfSignedCert } from '../tls.ts';
import { authorizeUrl, decide, newVerifier, REDIRECT, registerClient, type Served, serve, trustOf } from './harness.ts';

const pendingRows = (s: Served) => (s.db.query('SELECT count(*) AS n FROM mcp_pending').get() as { n: number }).n;

const expectPage = async (res: Response, status: number, text: string) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toContain('text/html');
  expect(await res.text()).toContain(text);
};

describe('pending authorization requests per client address (SVC_MCP_AUTHORIZE_PER_HOUR, 60 by default)', () => {
  let s: Served;
  let clientId: string;
  beforeAll(async () => {
    // Behind a trusted proxy the address is the last X-Forwarded-For hop: each test's requests come from their own address.
    s = serve({ SVC_TRUST_PROXY: '1' });
    clientId = await registerClient(s);
  });
  afterAll(() => s?.stop());
  const open = (from: string) => fetch(authorizeUrl(s, clientId, newVerifier()), { redirect: 'manual', headers: { 'x-forwarded-for': from } });

  test('60 pages from one address, then a 429 page (Retry-After, no Location) that stores nothing', async () => {
    const before = pendingRows(s);
    for (let i = 0; i < 60; i++) {
      const res = await open('198.51.100.7');
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(pendingRows(s)).toBe(before + 60);
    const refused = await open('198.51.100.7');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
    await expectPage(refused, 429, 'Too many authorization requests');
    expect(pendingRows(s)).toBe(before + 60);
  });

  test('another address is not affected, and the first one is served again after the hour', async () => {
    const other = await open('198.51.100.8');
    expect(other.status).toBe(200);
    await other.text();
    s.clock.advance(3_600_000);
    const again = await open('198.51.100.7');
    expect(again.status).toBe(200);
    await again.text();
  });

  test('a refused request is never redirected, even to a redirect URI this browser trusts', async () => {
    const agent = await s.register('limit_agent');
    const trust = trustOf(await decide(authorizeUrl(s, clientId, newVerifier()), agent.key));
    const wrong = () =>
      fetch(authorizeUrl(s, clientId, newVerifier(), { response_type: 'token' }), {
        redirect: 'manual',
        headers: { 'x-forwarded-for': '198.51.100.9', cookie: trust },
      });
    // Within the limit, this browser is sent back to the client with the error.
    expect((await wrong()).status).toBe(302);
    for (let i = 0; i < 59; i++) await (await open('198.51.100.9')).text();
    const res = await wrong();
    await expectPage(res, 429, 'Too many authorization requests');
  });

  test('every answer matched the description', () => {
    expect(s.faults).toEqual([]);
  });
});

describe('Client ID Metadata Document fetches: failures remembered briefly, a cap on fetches at once', () => {
  let docs: ReturnType<typeof Bun.serve>;
  let s: Served;
  const fetched: string[] = [];
  // The /slow/ documents wait until the test lets them answer.
  let release: () => void = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  let slowArrived: () => void = () => {};
  const allSlowArrived = new Promise<void>((r) => {
    slowArrived = r;
  });
  const origin = () => `https://client.test:${docs.port}`;
  const lookup = async (host: string) => {
    if (host !== 'client.test') throw new Error(`ENOTFOUND ${host}`);
    return [{ address: '127.0.0.1', family: 4 }];
  };

  beforeAll(() => {
    const { cert, key } = selfSignedCert(['client.test']);
    docs = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      tls: { cert, key },
      async fetch(req) {
        const path = new URL(req.url).pathname;
        fetched.push(path);
        const doc = () =>
          Response.json({ client_id: `${origin()}${path}`, client_name: 'Doc client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
        if (path.startsWith('/slow/')) {
          if (fetched.filter((p) => p.startsWith('/slow/')).length === CLIENT_DOC_CONCURRENT) slowArrived();
          await released;
          return doc();
        }
        if (path.startsWith('/good/')) return doc();
        return new Response('no', { status: 404 });
      },
    });
    // A slow document's time budget is far longer than the test takes: nothing here depends on the machine's speed.
    s = serve(
      { SVC_FETCH_ALLOW_LOOPBACK: '1', SVC_MCP_CLIENT_DOC_TIMEOUT_MS: '60000', SVC_MCP_AUTHORIZE_PER_HOUR: '1000' },
      { given: { outbound: { clientDocuments: { ca: cert, lookup } } } },
    );
  });
  afterAll(() => {
    release();
    docs?.stop(true);
    s?.stop();
  });
  const open = (clientId: string) => fetch(authorizeUrl(s, clientId, newVerifier()), { redirect: 'manual' });
  const count = (path: string) => fetched.filter((p) => p === path).length;

  test(`a document that failed is not fetched again for ${CLIENT_DOC_FAILURE_SECONDS} s: the same page is answered from memory`, async () => {
    const id = `${origin()}/missing.json`;
    await expectPage(await open(id), 400, 'answered HTTP 404');
    await expectPage(await open(id), 400, 'answered HTTP 404');
    await expectPage(await open(id), 400, 'answered HTTP 404');
    expect(count('/missing.json')).toBe(1);
    s.clock.advance((CLIENT_DOC_FAILURE_SECONDS - 1) * 1000);
    await expectPage(await open(id), 400, 'answered HTTP 404');
    expect(count('/missing.json')).toBe(1);
    s.clock.advance(1000);
    await expectPage(await open(id), 400, 'answered HTTP 404');
    expect(count('/missing.json')).toBe(2);
  });

  test('near miss: a failure is remembered for its URL only; another document is fetched', async () => {
    const res = await open(`${origin()}/good/one.json`);
    expect(res.status).toBe(200);
    await res.text();
    expect(count('/good/one.json')).toBe(1);
  });

  test(`at most ${CLIENT_DOC_CONCURRENT} documents are fetched at once: one more is a 503 page and is not fetched; the same URL again is not fetched twice`, async () => {
    const slow = Array.from({ length: CLIENT_DOC_CONCURRENT }, (_, i) => open(`${origin()}/slow/${i}.json`));
    await allSlowArrived;
    // A ninth document while eight are under way: refused at once, nothing fetched, nothing remembered.
    const busy = await open(`${origin()}/slow/extra.json`);
    expect(busy.headers.get('retry-after')).toBe('5');
    await expectPage(busy, 503, 'try again in a few seconds');
    expect(count('/slow/extra.json')).toBe(0);
    // A document already being fetched is not fetched twice: this request shares that fetch.
    const same = open(`${origin()}/slow/0.json`);
    release();
    for (const res of [...(await Promise.all(slow)), await same]) {
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(count('/slow/0.json')).toBe(1);
    // Once they are done, the refused one is fetched (the refusal was not remembered as a failure).
    const later = await open(`${origin()}/slow/extra.json`);
    expect(later.status).toBe(200);
    await later.text();
    expect(count('/slow/extra.json')).toBe(1);
  });

  test('every answer matched the description', () => {
    expect(s.faults).toEqual([]);
  });
});
