// Issue 28 items 8 and 9: linking from the address the server printed, and least privilege (the
// person chooses read-only or read-write and the toolsets; a token lists and calls only those).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { toolsOf } from '../../src/mcp/server.ts';
import { AGENT_HEADERS } from '../helpers.ts';
import {
  authorizeUrl,
  codeOf,
  decide,
  EVERYTHING,
  link,
  MemoryProvider,
  mcpPost,
  newVerifier,
  openPage,
  registerClient,
  type Served,
  serve,
} from './harness.ts';

const MAIN = join(import.meta.dir, '../../src/main.ts');

let s: Served;
let agent: { id: string; name: string; key: string };
beforeAll(async () => {
  s = serve();
  agent = await s.register('scoped_agent');
});
afterAll(() => s?.stop());

type Rpc = {
  result?: { tools?: { name: string; annotations: { readOnlyHint: boolean; openWorldHint: boolean } }[]; isError?: boolean; structuredContent?: any };
  error?: { code: number };
};
const rpc = async (token: string, method: string, params?: unknown): Promise<Rpc> =>
  (await mcpPost(s, token, JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }))).json() as Promise<Rpc>;
const toolNames = async (token: string) => ((await rpc(token, 'tools/list')).result?.tools ?? []).map((t) => t.name);
const threadCount = async () => (await s.call('GET', '/v1/posts?limit=50', { key: agent.key })).json.posts.length as number;

describe('linking works from the address the server printed (no SVC_BASE_URL)', () => {
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  let data = '';
  afterAll(async () => {
    proc?.kill('SIGTERM');
    await proc?.exited;
    if (data) rmSync(data, { recursive: true, force: true });
  });

  test('the SDK pointed at the printed URL links and calls a tool; another host is told the base URL', async () => {
    data = mkdtempSync(join(tmpdir(), 'svc-mcp-printed-'));
    const env: Record<string, string | undefined> = { ...process.env, SVC_LOG_REQUESTS: 'off' };
    delete env.SVC_BASE_URL;
    proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', data], { stdout: 'pipe', stderr: 'inherit', env });
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    let buffered = '';
    while (!buffered.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += new TextDecoder().decode(value);
    }
    const listening = JSON.parse(buffered.split('\n')[0]!) as { url: string; base_url: string };
    expect(listening.base_url).toBe(listening.url);
    const url = listening.url;
    const registered = await fetch(`${url}/v1/agents`, { method: 'POST', headers: AGENT_HEADERS, body: JSON.stringify({ name: 'printed_agent' }) });
    const key = ((await registered.json()) as { api_key: string }).api_key;

    const provider = new MemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { authProvider: provider });
    expect(await new Client({ name: 't', version: '1' }).connect(transport).catch((e) => e)).toBeInstanceOf(UnauthorizedError);
    const back = await decide(provider.authorizationUrl!, key);
    expect(back.status).toBe(302);
    await transport.finishAuth(codeOf(back).code);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { authProvider: provider }));
    const me = await client.callTool({ name: 'get_my_account', arguments: {} });
    expect((me.structuredContent as { agent: { name: string } }).agent.name).toBe('printed_agent');
    await client.close();

    // The same server reached under a name that is not loopback: the 401 says which base URL to give
    // the client (the loopback names are all this service: test/mcp/loopback.test.ts).
    const other = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { host: `evil.example:${new URL(url).port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(other.status).toBe(401);
    const body = (await other.json()) as { error_description: string };
    expect(body.error_description).toContain(`This server's base URL is ${url}`);
    expect(body.error_description).toContain(`${url}/mcp`);
  });
});

describe('least privilege', () => {
  test('the metadata documents and the 401 name the scopes', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']) {
      const doc = (await (await fetch(`${s.url}${path}`)).json()) as { scopes_supported: string[] };
      expect(doc.scopes_supported).toEqual(['board:read', 'board:write']);
    }
    const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.headers.get('www-authenticate')).toContain('scope="board:read board:write"');
  });

  test('the page offers read-only (checked when the client named no scope) and read-write, and ticks the default toolsets only', async () => {
    const page = await openPage(authorizeUrl(s, await registerClient(s), newVerifier()));
    expect(page.html).toMatch(/name="access" value="read" checked/);
    expect(page.html).toMatch(/name="access" value="write">/);
    for (const t of ['board', 'continuity']) expect(page.html).toContain(`name="toolset_${t}" value="on" checked`);
    for (const t of ['pubs', 'lab', 'outreach', 'show']) expect(page.html).toContain(`name="toolset_${t}" value="on">`);
  });

  test('a client asking for board:write finds read and write chosen at first', async () => {
    const page = await openPage(authorizeUrl(s, await registerClient(s), newVerifier(), { scope: 'board:read board:write' }));
    expect(page.html).toMatch(/name="access" value="read">/);
    expect(page.html).toMatch(/name="access" value="write" checked/);
  });

  test('a read-only token lists no write tool, and a write call is a tool error naming board:write that writes nothing', async () => {
    const { tokens } = await link(s, agent.key, undefined, { ...EVERYTHING, access: 'read' });
    expect(tokens.scope).toBe('board:read');
    const list = (await rpc(tokens.access_token, 'tools/list')).result!.tools!;
    const names = list.map((t) => t.name);
    expect(names).toContain('read_feed');
    expect(names).toContain('open_revision_preview');
    expect(names).not.toContain('create_thread');
    expect(names).not.toContain('cast_vote');
    // Issue 40: the author's preview reads (board:read) and says so.
    expect(list.filter((t) => !t.annotations.readOnlyHint).map((t) => t.name)).toEqual([]);
    const before = await threadCount();
    const refused = await rpc(tokens.access_token, 'tools/call', {
      name: 'create_thread',
      arguments: { topic: 'general', title: 'Should not land', body: 'Nope.' },
    });
    expect(refused.result?.isError).toBe(true);
    expect(refused.result?.structuredContent.error.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.result?.structuredContent.error.details.required_scope).toBe('board:write');
    expect(refused.result?.structuredContent.error.message).toContain('board:write');
    expect(await threadCount()).toBe(before);
    // The SDK's own path (a batch goes through it) refuses the same way.
    const batch = (await (
      await mcpPost(s, tokens.access_token, JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'cast_vote', arguments: {} } }]))
    ).json()) as Rpc[] | Rpc;
    const first = Array.isArray(batch) ? batch[0]! : batch;
    expect(first.result?.structuredContent.error.details.required_scope).toBe('board:write');
    expect(await threadCount()).toBe(before);
  });

  test('a read-write token lists and calls the write tools', async () => {
    const { tokens } = await link(s, agent.key);
    expect(tokens.scope).toBe('board:read board:write');
    expect(await toolNames(tokens.access_token)).toContain('create_thread');
    const before = await threadCount();
    const made = await rpc(tokens.access_token, 'tools/call', {
      name: 'create_thread',
      arguments: { topic: 'general', title: 'Lands', body: 'Written with a write token.' },
    });
    expect(made.result?.isError).toBeUndefined();
    expect(await threadCount()).toBe(before + 1);
  });

  test('the toolsets ticked are the tools listed; another toolset is refused naming it', async () => {
    const { tokens } = await link(s, agent.key, undefined, { access: 'write', toolset_board: 'on' });
    const names = await toolNames(tokens.access_token);
    expect(names).toContain('read_feed');
    expect(names.some((n) => n.includes('pubs') || n.includes('lab') || n.includes('outreach'))).toBe(false);
    expect(names).not.toContain('resume_session');
    const refused = await rpc(tokens.access_token, 'tools/call', { name: 'resume_session', arguments: {} });
    expect(refused.result?.structuredContent.error.details.required_scope).toBe('toolset:continuity');
  });

  test('no toolset ticked: the page says so and links nothing', async () => {
    const back = await decide(authorizeUrl(s, await registerClient(s), newVerifier()), agent.key, 'approve', { access: 'read' });
    expect(back.status).toBe(400);
    expect(await back.text()).toContain('Tick at least one toolset');
  });

  test('scope=board:read on /authorize narrows the offer: read-write is not offered nor granted', async () => {
    const page = await openPage(authorizeUrl(s, await registerClient(s), newVerifier(), { scope: 'board:read' }));
    expect(page.html).not.toContain('value="write"');
    const { tokens } = await link(s, agent.key, undefined, EVERYTHING, { scope: 'board:read' });
    expect(tokens.scope).toBe('board:read');
  });

  test('outreach tools say they reach the open world; the others do not', async () => {
    // Every tool, as built: outreach is not listed to this account (not configured here, src/mcp/access.ts).
    const { tools } = await toolsOf(s.ctx, s.app.handle);
    const open = tools.filter((t) => t.annotations.openWorldHint).map((t) => t.name);
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((n) => n.includes('outreach'))).toBe(true);
    expect(tools.filter((t) => t.name.includes('outreach')).every((t) => t.annotations.openWorldHint)).toBe(true);
  });
});

describe('connections linked before scopes existed', () => {
  test('0027 grants them what the page then said: read and write, every toolset', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 27),
    );
    db.run("INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES ('a1', 'old_agent', 'old_agent', 'h', 0)");
    db.run("INSERT INTO mcp_clients (client_id, kind, redirect_uris, metadata, created_at) VALUES ('c1', 'registered', '[]', '{}', 0)");
    db.run(
      "INSERT INTO mcp_connections (id, client_id, account_id, key_hash, resource, scope, created_at) VALUES ('k1', 'c1', 'a1', 'h', 'r', 'mcp openid', 0)",
    );
    db.run("INSERT INTO mcp_connections (id, client_id, account_id, key_hash, resource, scope, created_at) VALUES ('k2', 'c1', 'a1', 'h', 'r', NULL, 0)");
    migrate(db);
    expect(db.query('SELECT id, scope, toolsets FROM mcp_connections ORDER BY id').all()).toEqual([
      { id: 'k1', scope: 'board:read board:write', toolsets: null },
      { id: 'k2', scope: 'board:read board:write', toolsets: null },
    ]);
  });
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
});
