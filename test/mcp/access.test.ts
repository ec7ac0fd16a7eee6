// Issue 40 §1: only the tools the account can use are listed (roles, outreach configured), a call to
// another is "unknown tool", and tools/list changes (notifications/tools/list_changed) when a role
// is granted or revoked. Driven by the real MCP SDK client.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { setRole } from '../../src/accounts/admin.ts';
import { runAdmin } from '../../src/admin/cli.ts';
import { codeOf, decide, MemoryProvider, type Served, serve } from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };
let client: Client;
const changes: string[] = [];

beforeAll(async () => {
  s = serve();
  agent = await s.register('access_agent');
  const provider = new MemoryProvider();
  const first = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider });
  expect(await new Client({ name: 't', version: '1' }).connect(first).catch((e) => e)).toBeInstanceOf(UnauthorizedError);
  const back = await decide(provider.authorizationUrl!, agent.key); // every toolset, read and write
  await first.finishAuth(codeOf(back).code);
  client = new Client({ name: 't', version: '1' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async (n) => {
    changes.push(n.method);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider }));
});
afterAll(async () => {
  await client?.close();
  s?.stop();
  expect(s.faults).toEqual([]);
});

const names = async () => (await client.listTools()).tools.map((t) => t.name);
const unknown = (name: string) => client.callTool({ name, arguments: { id: crypto.randomUUID() } }).catch((e: Error) => e.message);

test('a tool whose route needs a role or outreach the account lacks is not listed, and is an unknown tool', async () => {
  expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
  const listed = await names();
  expect(listed).toContain('read_feed');
  for (const gone of ['edit_rules', 'record_show_posted', 'record_show_metrics', 'read_mirror_original', 'withdraw_mirror_post', 'send_outreach_email']) {
    expect(listed).not.toContain(gone);
    expect(await unknown(gone)).toContain(`Unknown tool: "${gone}"`);
  }
  expect(await unknown('no_such_tool')).toContain('Unknown tool: "no_such_tool"');
  expect(changes).toEqual([]);
});

test('a role granted sends list_changed once and lists its tools; revoked, they go', async () => {
  setRole(s.ctx, 'grant', agent.name, 'reporter');
  const listed = await names();
  expect(changes).toEqual(['notifications/tools/list_changed']);
  expect(listed).toContain('record_show_posted');
  expect(listed).toContain('record_show_metrics');
  expect(listed).not.toContain('edit_rules');
  // Listed now, the call reaches the route (which answers about the Show post, not the tool).
  const called = await client.callTool({ name: 'record_show_posted', arguments: { id: crypto.randomUUID(), url: 'https://example.com/x' } });
  expect(JSON.stringify(called)).not.toContain('Unknown tool');
  expect(changes.length).toBe(1); // nothing changed since: no second notification

  setRole(s.ctx, 'revoke', agent.name, 'reporter');
  setRole(s.ctx, 'grant', agent.name, 'operator');
  const after = await names();
  expect(changes.length).toBe(2);
  expect(after).not.toContain('record_show_posted');
  expect(after).toContain('edit_rules');
  expect(after).toContain('withdraw_mirror_post');
  expect(await unknown('record_show_metrics')).toContain('Unknown tool');
});

test('outreach tools are listed once outreach is configured and the account is a resident, and go when the residency stops', async () => {
  const before = changes.length;
  await runAdmin(s.ctx, ['outreach', 'configure', '--domain', 'svc.example', '--mailbox', 'outreach', '--postal-address', '1 Example Street, Berlin']);
  expect(await names()).not.toContain('send_outreach_email'); // configured, but not a resident: no change
  expect(changes.length).toBe(before);
  await runAdmin(s.ctx, ['resident', 'add', agent.name]);
  const listed = await names();
  expect(changes.length).toBe(before + 1);
  expect(listed.filter((n) => n.includes('outreach')).length).toBe(5);
  await runAdmin(s.ctx, ['residency', 'stop', agent.name]);
  expect((await names()).some((n) => n.includes('outreach'))).toBe(false);
  expect(changes.length).toBe(before + 2);
});
