// Client ID Metadata Documents: fetched with the SSRF-safe fetcher from a real https server on
// loopback (a self-signed certificate for client.test, a name only the injected resolver knows),
// checked (client_id equals its URL, redirect URIs match exactly) and cached; the SDK's client
// uses one when the server says it supports them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { selfSignedCert } from '../tls.ts';
import { authorizeUrl, codeOf, decide, MemoryProvider, newVerifier, openPage, REDIRECT, type Served, serve } from './harness.ts';

let docs: ReturnType<typeof Bun.serve>;
let s: Served;
let agent: { key: string };
let fetches = 0;
const origin = () => `https://client.test:${docs.port}`;

const names: Record<string, string[]> = { 'client.test': ['127.0.0.1'], 'private.test': ['10.0.0.5'] };
const lookup = async (host: string) => {
  const found = names[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found.map((address) => ({ address, family: 4 }));
};

beforeAll(async () => {
  const { cert, key } = selfSignedCert(['client.test']);
  docs = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { cert, key },
    fetch(req) {
      fetches++;
      const path = new URL(req.url).pathname;
      const doc = (clientId: string, more: Record<string, unknown> = {}) =>
        Response.json({ client_id: clientId, client_name: 'Doc <i>client</i>', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...more });
      if (path === '/good.json') return doc(`${origin()}/good.json`);
      if (path === '/liar.json') return doc(`${origin()}/good.json`);
      if (path === '/secret.json') return doc(`${origin()}/secret.json`, { token_endpoint_auth_method: 'client_secret_basic' });
      if (path === '/big.json') return doc(`${origin()}/big.json`, { padding: 'x'.repeat(10_000) });
      if (path === '/moved.json') return new Response(null, { status: 302, headers: { location: '/good.json' } });
      if (path === '/native.json') return doc(`${origin()}/native.json`, { redirect_uris: ['http://127.0.0.1/callback', 'https://app.example/cb'] });
      if (path === '/backslash.json') return doc(`${origin()}/backslash.json`, { redirect_uris: [REDIRECT, 'https://evil.example\\@good.example/'] });
      if (path === '/short-loopback.json') return doc(`${origin()}/short-loopback.json`, { redirect_uris: ['http://127.1/callback'] });
      return new Response('no', { status: 404 });
    },
  });
  s = serve({ SVC_FETCH_ALLOW_LOOPBACK: '1' }, { given: { outbound: { clientDocuments: { ca: cert, lookup } } } });
  agent = await s.register('doc_linked');
});

afterAll(() => {
  docs?.stop(true);
  s?.stop();
});

describe('the SDK client with a metadata document', () => {
  test('links without registering: the client id is the document URL, and tools work', async () => {
    const provider = new MemoryProvider(REDIRECT, { clientMetadataUrl: `${origin()}/good.json` });
    const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider });
    await new Client({ name: 't', version: '1' }).connect(transport).catch(() => {});
    expect(provider.client?.client_id).toBe(`${origin()}/good.json`);
    const page = await openPage(provider.authorizationUrl!);
    expect(page.html).toContain('Doc &lt;i&gt;client&lt;/i&gt;');
    const back = await decide(provider.authorizationUrl!, agent.key);
    await transport.finishAuth(codeOf(back).code);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider }));
    const me = await client.callTool({ name: 'get_my_account', arguments: {} });
    expect((me.structuredContent as { agent: { name: string } }).agent.name).toBe('doc_linked');
    await client.close();
    const list = await s.call('GET', '/v1/me/connections', { key: agent.key });
    expect(list.json.connections[0].client_id).toBe(`${origin()}/good.json`);
  });

  test('the document is cached: a second authorization does not fetch it again until the cache age', async () => {
    const before = fetches;
    expect((await fetch(authorizeUrl(s, `${origin()}/good.json`, newVerifier()), { redirect: 'manual' })).status).toBe(200);
    expect(fetches).toBe(before);
    s.clock.advance(3_601_000);
    expect((await fetch(authorizeUrl(s, `${origin()}/good.json`, newVerifier()), { redirect: 'manual' })).status).toBe(200);
    expect(fetches).toBe(before + 1);
  });
});

describe('documents that are refused (shown on the page, never redirected)', () => {
  const refused = async (clientId: string) => {
    const res = await fetch(authorizeUrl(s, clientId, newVerifier()), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    return res.text();
  };

  test('a document whose client_id differs from its URL', async () => {
    expect(await refused(`${origin()}/liar.json`)).toContain('another client_id');
  });

  test('a document at a private address', async () => {
    expect(await refused('https://private.test/client.json')).toContain('private_address');
  });

  test('a document that asks for a client secret, one too large, one that redirects, one missing', async () => {
    expect(await refused(`${origin()}/secret.json`)).toContain('client secret');
    expect(await refused(`${origin()}/big.json`)).toContain('too_large');
    await refused(`${origin()}/moved.json`);
    expect(await refused(`${origin()}/missing.json`)).toContain('404');
  });

  test('a redirect URI that is not in the document, even by a trailing slash', async () => {
    const res = await fetch(authorizeUrl(s, `${origin()}/good.json`, newVerifier(), { redirect_uri: `${REDIRECT}/` }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('redirect URIs of a metadata document', () => {
  test('a loopback http URI listed without a port matches at any port (RFC 8252 §7.3): the code goes back to that port', async () => {
    const id = `${origin()}/native.json`;
    const asked = 'http://127.0.0.1:49152/callback';
    const back = await decide(authorizeUrl(s, id, newVerifier(), { redirect_uri: asked }), agent.key);
    expect(back.status).toBe(302);
    const { code, location } = codeOf(back);
    expect(code).toBeTruthy();
    expect(`${location.origin}${location.pathname}`).toBe(asked);
  });

  test('near miss: an https URI of the same document at another port is not registered', async () => {
    const res = await fetch(authorizeUrl(s, `${origin()}/native.json`, newVerifier(), { redirect_uri: 'https://app.example:8443/cb' }), { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([400, null]);
    expect(await res.text()).toContain('Redirect URI not registered');
  });

  test('a document listing a URI with a backslash, or a loopback host spelt 127.1, is refused whole', async () => {
    const bad = async (id: string) => {
      const res = await fetch(authorizeUrl(s, id, newVerifier(), { redirect_uri: undefined }), { redirect: 'manual' });
      expect([res.status, res.headers.get('location')]).toEqual([400, null]);
      return res.text();
    };
    expect(await bad(`${origin()}/backslash.json`)).toContain('backslash');
    expect(await bad(`${origin()}/short-loopback.json`)).toContain('write it as &quot;127.0.0.1&quot;');
  });
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
});
