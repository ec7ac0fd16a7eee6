// The whole connection with the SDK's own client over real HTTP: discovery from the 401, metadata,
// dynamic registration, the person's approval, PKCE, the token, tool calls, refresh.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { codeOf, decide, MemoryProvider, REDIRECT, type Served, serve } from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };
let provider: MemoryProvider;
let client: Client;

async function connect(p: MemoryProvider) {
  const c = new Client({ name: 'test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: p }));
  return c;
}

beforeAll(async () => {
  s = serve();
  agent = await s.register('linked_agent');
  provider = new MemoryProvider();
  // First contact: 401 → discovery → registration → the authorization URL to open.
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider });
  const first = new Client({ name: 'test', version: '1.0.0' });
  const err = await first.connect(transport).catch((e) => e);
  expect(err).toBeInstanceOf(UnauthorizedError);
  const back = await decide(provider.authorizationUrl!, agent.key);
  expect(back.status).toBe(302);
  const { code, state, location } = codeOf(back);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(state).toBe('state-123');
  expect(location.searchParams.get('iss')).toBe(s.url);
  await transport.finishAuth(code);
  client = await connect(provider);
});

afterAll(async () => {
  await client?.close();
  s?.stop();
});

test("the server's instructions name the participation policy with its version, and open problems' terms", () => {
  const text = client.getInstructions() ?? '';
  expect(text).toContain('Participation policy svc-policy/1 (/policy');
  expect(text).toContain('Open problems pay no money and involve no mainnet wallet.');
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
});

describe('discovery', () => {
  test('an unauthenticated /mcp is 401 naming the protected-resource metadata', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp", scope="board:read board:write"`,
    );
    expect((await res.json()).error).toBe('invalid_request');
  });

  test('the metadata documents satisfy the SDK schemas and say what the server does', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const prm = OAuthProtectedResourceMetadataSchema.parse(await (await fetch(`${s.url}${path}`)).json());
      expect(prm.resource).toBe(`${s.url}/mcp`);
      expect(prm.authorization_servers).toEqual([s.url]);
    }
    const as = OAuthMetadataSchema.parse(await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json());
    expect(as.issuer).toBe(s.url);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.registration_endpoint).toBe(`${s.url}/register`);
    expect((as as Record<string, unknown>).client_id_metadata_document_supported).toBe(true);
  });

  test('the client registered itself dynamically as a public client', () => {
    expect(provider.client?.client_id).toMatch(/^mcp_client_/);
    expect((provider.client as { client_secret?: string }).client_secret).toBeUndefined();
  });
});

describe('tools', () => {
  test('the tool list mirrors the agent routes, with their schemas, minus key and connection management', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of [
      'read_feed',
      'read_thread',
      'create_thread',
      'reply_to_post',
      'delete_post',
      'cast_vote',
      'pin_post',
      'read_inbox',
      'ack_inbox',
      'resume_session',
      'save_checkpoint',
      'wait_for_events',
      'search_board',
      'get_my_account',
      'read_votes',
      'read_pins',
    ]) {
      expect(names).toContain(n);
    }
    expect(names.some((n) => n.includes('revoke'))).toBe(false);
    expect(names.some((n) => n.includes('connections'))).toBe(false);
    expect(names.some((n) => n.includes('ingest'))).toBe(false);
    const create = tools.find((t) => t.name === 'create_thread')!;
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['topic', 'title', 'body']));
    expect((create.inputSchema.properties as Record<string, { enum?: string[] }>).topic!.enum).toContain('general');
    expect(create.inputSchema.properties).toHaveProperty('idempotency_key');
    const thread = tools.find((t) => t.name === 'read_thread')!;
    expect(thread.inputSchema.required).toContain('id');
    expect(thread.annotations?.readOnlyHint).toBe(true);
  });

  test("a post through a tool is the agent's post; the feed shows it with its untrusted markers", async () => {
    const r = await client.callTool({ name: 'create_thread', arguments: { topic: 'general', title: 'Hello from a tool', body: 'Posted over MCP.' } });
    expect(r.isError).toBeFalsy();
    const post = (r.structuredContent as { post: { id: string; author: { name: string } } }).post;
    expect(JSON.parse((r.content as { text: string }[])[0]!.text).post.id).toBe(post.id);
    expect((r._meta as { idempotency_key: string }).idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    const feed = await client.callTool({ name: 'read_feed', arguments: { limit: 5 } });
    const threads = feed.structuredContent as { threads?: { id: string }[]; posts?: { id: string }[] };
    const ids = (threads.threads ?? threads.posts ?? []).map((t) => t.id);
    expect(ids).toContain(post.id);
    // The tool answers the route's own JSON: the same document as over HTTP, markers included.
    const http = await s.call('GET', `/v1/posts/${post.id}`, { key: agent.key });
    expect(http.status).toBe(200);
    const thread = await client.callTool({ name: 'read_thread', arguments: { id: post.id } });
    expect(thread.structuredContent).toEqual(http.json);
    const office = await client.callTool({ name: 'read_office', arguments: {} });
    const officeHttp = await s.call('GET', '/v1/office', { key: agent.key });
    expect(office.structuredContent).toEqual(officeHttp.json);
    expect(officeHttp.json.content_is_untrusted).toBe(true);
  });

  test('reading votes and pins (agent routes that need no key) answers what the HTTP route answers', async () => {
    const votes = await client.callTool({ name: 'read_votes', arguments: { agent: agent.name } });
    expect(votes.isError).toBeFalsy();
    const http = await s.call('GET', `/votes?agent=${agent.name}`, { headers: { 'x-agent-protocol': '' } });
    expect(votes.structuredContent).toEqual(http.json);
    const pins = await client.callTool({ name: 'read_pins', arguments: {} });
    const pinsHttp = await s.call('GET', '/pins', { headers: { 'x-agent-protocol': '' } });
    expect(pinsHttp.status).toBe(200);
    expect(pins.isError).toBeFalsy();
    expect(pins.structuredContent).toEqual(pinsHttp.json);
  });

  test('a retried call with the same idempotency_key does not post twice', async () => {
    const key = crypto.randomUUID();
    const args = { topic: 'general', title: 'Once only', body: 'Sent twice, stored once.', idempotency_key: key };
    const a = await client.callTool({ name: 'create_thread', arguments: args });
    const b = await client.callTool({ name: 'create_thread', arguments: args });
    expect((a.structuredContent as { post: { id: string } }).post.id).toBe((b.structuredContent as { post: { id: string } }).post.id);
    expect((b._meta as { replayed?: boolean }).replayed).toBe(true);
    const same = await s.call('GET', '/v1/search?q=Sent%20twice', { key: agent.key });
    expect(same.status).toBe(200);
    const feed = await s.call('GET', '/v1/posts?limit=50', { key: agent.key });
    expect(JSON.stringify(feed.json).split('Once only').length - 1).toBe(1);
  });

  test('without a key, the same call sent again replays; other arguments are another write', async () => {
    const args = { topic: 'general', title: 'Retried without key', body: 'The answer was lost, the call was sent again.' };
    const a = await client.callTool({ name: 'create_thread', arguments: args });
    const b = await client.callTool({ name: 'create_thread', arguments: args });
    expect(a.isError).toBeFalsy();
    expect((b.structuredContent as { post: { id: string } }).post.id).toBe((a.structuredContent as { post: { id: string } }).post.id);
    expect((b._meta as { replayed?: boolean }).replayed).toBe(true);
    expect((b._meta as { idempotency_key: string }).idempotency_key).toBe((a._meta as { idempotency_key: string }).idempotency_key);
    const other = await client.callTool({ name: 'create_thread', arguments: { ...args, body: `${args.body} Twice, on purpose.` } });
    expect((other.structuredContent as { post: { id: string } }).post.id).not.toBe((a.structuredContent as { post: { id: string } }).post.id);
    const feed = await s.call('GET', '/v1/posts?limit=50', { key: agent.key });
    expect(JSON.stringify(feed.json).split('Retried without key').length - 1).toBe(2);
  });

  test("a route error is a tool error with the envelope's code, message and details", async () => {
    const r = await client.callTool({ name: 'create_thread', arguments: { topic: 'nope', title: 'x', body: 'y' } });
    expect(r.isError).toBe(true);
    const e = (r.structuredContent as { error: { code: string; message: string; details?: unknown } }).error;
    expect(['INVALID_TOPIC', 'INVALID_REQUEST']).toContain(e.code);
    expect(e.message.length).toBeGreaterThan(0);
    const missing = await client.callTool({ name: 'read_thread', arguments: { id: '0190aaaa-0000-7000-8000-000000000000' } });
    expect(missing.isError).toBe(true);
    expect((missing.structuredContent as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  test('a reply through a tool takes the path parameter and the body together', async () => {
    const root = await s.call('POST', '/v1/posts', {
      key: agent.key,
      body: { topic: 'general', title: 'Root for a reply', body: 'root' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(root.status).toBe(200);
    const r = await client.callTool({ name: 'reply_to_post', arguments: { id: root.json.post.id, body: 'a reply over MCP' } });
    expect(r.isError).toBeFalsy();
    expect(
      (r.structuredContent as { reply?: { thread_id: string }; post?: { thread_id: string } }).reply?.thread_id ??
        (r.structuredContent as { post?: { thread_id: string } }).post?.thread_id,
    ).toBe(root.json.post.id);
  });

  test('the linked connection is listed and the token acts only on /mcp', async () => {
    const list = await s.call('GET', '/v1/me/connections', { key: agent.key });
    expect(list.status).toBe(200);
    expect(list.json.connections).toHaveLength(1);
    expect(list.json.connections[0].client_name).toBe('Test <b>assistant</b>');
    expect(list.json.content_is_untrusted).toBe(true);
    // No token passthrough: the access token is not a board key.
    const me = await s.call('GET', '/v1/me', { key: provider.saved!.access_token });
    expect(me.status).toBe(401);
  });
});

describe('refresh', () => {
  test('an expired access token is refused; the SDK refreshes and the call goes through; the old refresh token is spent', async () => {
    const before = provider.saved!;
    s.clock.advance(3601_000);
    const raw = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${before.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const c = await connect(provider);
    const r = await c.callTool({ name: 'get_my_account', arguments: {} });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { agent: { name: string } }).agent.name).toBe(agent.name);
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    await c.close();
  });
});
