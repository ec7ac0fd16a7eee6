// Issue 36.2: on a default install (no SVC_BASE_URL) localhost, 127.0.0.1 and [::1] are one
// service for the MCP SDK's own client: the protected-resource metadata, the issuer, `iss` and the
// 401 name the address the client used, and a token asked for under one name is good under the
// others (src/http/origin.ts, src/mcp/oauth.ts). Any other Host gets the default base URL; with
// SVC_BASE_URL set, the other names keep their refusal.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { codeOf, decide, MemoryProvider, type Served, serve } from './harness.ts';

const NAMES = ['localhost', '127.0.0.1', '[::1]'];

let s: Served;
let port: string;
let agent: { key: string };
const tokens = new Map<string, string>();
const at = (name: string) => `http://${name}:${port}`;

/** The SDK's whole first connection at `base`/mcp: 401, discovery, registration, approval, token, a tool call. */
async function linkWithSdk(base: string) {
  const provider = new MemoryProvider();
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  expect(await new Client({ name: 't', version: '1' }).connect(transport).catch((e) => e)).toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl!.origin).toBe(base);
  const back = await decide(provider.authorizationUrl!, agent.key);
  expect(back.status).toBe(302);
  expect(codeOf(back).location.searchParams.get('iss')).toBe(base);
  await transport.finishAuth(codeOf(back).code);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
  const me = await client.callTool({ name: 'get_my_account', arguments: {} });
  await client.close();
  return { me: me.structuredContent as { agent: { name: string } }, token: provider.saved!.access_token };
}

const toolsList = (base: string, token: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('a default install: every loopback name is this service', () => {
  beforeAll(async () => {
    s = serve({}, { defaultInstall: true });
    port = new URL(s.url).port;
    agent = await s.register('loopback_agent');
  });
  afterAll(() => s?.stop());

  for (const name of NAMES) {
    test(`the SDK pointed at http://${name}:PORT/mcp links and calls a tool`, async () => {
      const linked = await linkWithSdk(at(name));
      expect(linked.me.agent.name).toBe('loopback_agent');
      tokens.set(name, linked.token);
    });

    test(`the metadata and the 401 at ${name} name ${name}`, async () => {
      const base = at(name);
      const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as { resource: string; authorization_servers: string[] };
      expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
      const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
      expect([as.issuer, as.authorization_endpoint, as.token_endpoint]).toEqual([base, `${base}/authorize`, `${base}/token`]);
      const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toStartWith(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
      expect(((await res.json()) as { error_description: string }).error_description).not.toContain('base URL');
    });
  }

  test('a token asked for under one loopback name is good under the others (one service, one database)', async () => {
    for (const minted of NAMES) {
      for (const used of NAMES) {
        const res = await toolsList(at(used), tokens.get(minted)!);
        expect([minted, used, res.status]).toEqual([minted, used, 200]);
        await res.text();
      }
    }
  });

  test('a browser Origin at /mcp must be the name the request came to', async () => {
    const token = tokens.get('localhost')!;
    const ok = await toolsList(at('localhost'), token, { origin: at('localhost') });
    expect(ok.status).toBe(200);
    await ok.text();
    const other = await toolsList(at('localhost'), token, { origin: at('127.0.0.1') });
    expect(other.status).toBe(403);
    await other.text();
  });

  // A Host header names no service by itself: only the three loopback names at the server's port do.
  for (const host of ['evil.example', `localhost.evil.example:PORT`, 'evil.example:PORT', 'localhost:1', '127.0.0.2:PORT']) {
    test(`near miss: Host ${host} is not "this service"; the default base URL is named`, async () => {
      const h = host.replace('PORT', port);
      const prm = (await (await fetch(`${s.url}/.well-known/oauth-protected-resource/mcp`, { headers: { host: h } })).json()) as { resource: string };
      expect(prm.resource).toBe(`${s.url}/mcp`);
      const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { host: h, 'content-type': 'application/json' }, body: '{}' });
      expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${s.url}/`);
      expect(((await res.json()) as { error_description: string }).error_description).toContain(`This server's base URL is ${s.url}`);
    });
  }

  test('a resource under another name than loopback is invalid_target at the token endpoint', async () => {
    const res = await fetch(`${at('localhost')}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'y', resource: `http://evil.example:${port}/mcp` }).toString(),
    });
    const body = (await res.json()) as { error: string; error_description: string };
    expect([res.status, body.error]).toEqual([400, 'invalid_target']);
    expect(body.error_description).toContain(`only for ${at('localhost')}/mcp`);
  });

  test('every answer matched the description', () => {
    expect(s.faults).toEqual([]);
  });
});

describe('with SVC_BASE_URL set, the other loopback names keep their refusal', () => {
  let given: Served;
  beforeAll(async () => {
    given = serve(); // SVC_BASE_URL=http://127.0.0.1:PORT
    agent = await given.register('given_agent');
  });
  afterAll(() => given?.stop());

  test('the SDK at localhost refuses the metadata (it names 127.0.0.1), and the 401 says which URL to use', async () => {
    const localhost = `http://localhost:${new URL(given.url).port}`;
    const provider = new MemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(`${localhost}/mcp`), { authProvider: provider });
    const err = await new Client({ name: 't', version: '1' }).connect(transport).catch((e) => e);
    expect(String(err)).toContain(`Protected resource ${given.url}/mcp does not match expected ${localhost}/mcp`);
    const res = await fetch(`${localhost}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(((await res.json()) as { error_description: string }).error_description).toContain(`This server's base URL is ${given.url}`);
  });

  test('the SDK at the base URL links', async () => {
    expect((await linkWithSdk(given.url)).me.agent.name).toBe('given_agent');
  });

  test('every answer matched the description', () => {
    expect(given.faults).toEqual([]);
  });
});
