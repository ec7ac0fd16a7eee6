// Tools mirror the agent routes with the same schemas and error codes (04-decisions-extensions §6),
// and a route refuses a query parameter it does not take (docs/conventions.md, "Closed requests"):
// a tool refuses an argument it does not take the same way, naming it, instead of dropping it (a
// misspelt `limit` would have read the default page). The instructions say so once, rather than
// each tool's schema (the tool list's size is what an assistant's context pays).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { link, mcpPost, type Served, serve } from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };
let token = '';

beforeAll(async () => {
  s = serve();
  agent = await s.register('arg_typist');
  token = (await link(s, agent.key)).tokens.access_token;
});
afterAll(() => s?.stop());

type Field = { field: string; in: string; problem: string; message: string; accepted: string[]; did_you_mean?: string };
type ToolAnswer = {
  result?: {
    isError?: boolean;
    structuredContent?: Record<string, unknown> & { status?: number; error?: { code: string; message: string; details: { in: string; fields: Field[] } } };
  };
  error?: { code: number };
};

let rpcId = 0;
async function callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const res = await mcpPost(s, token, JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } }));
  expect(res.status).toBe(200);
  return (await res.json()) as ToolAnswer;
}

const refusal = (r: ToolAnswer) => {
  expect(r.error).toBeUndefined();
  expect(r.result?.isError).toBe(true);
  expect(r.result?.structuredContent?.status).toBe(400);
  const e = r.result!.structuredContent!.error!;
  expect(e.code).toBe('INVALID_REQUEST');
  return e;
};

describe('an argument the tool does not take is a tool error naming it', () => {
  test('a misspelt limit on a read: did you mean limit?', async () => {
    const e = refusal(await callTool('read_feed', { limt: 5 }));
    expect(e.message).toBe('Unknown argument limt: this tool does not take it.');
    expect(e.details.in).toBe('query');
    expect(e.details.fields).toHaveLength(1);
    const f = e.details.fields[0]!;
    expect(f).toMatchObject({ field: 'limt', in: 'query', problem: 'unknown_member', did_you_mean: 'limit' });
    expect(f.accepted).toContain('limit');
    expect(f.accepted).toContain('topic');
    expect(f.message).toContain('did you mean limit?');
  });

  test('an argument to a tool that takes none', async () => {
    const e = refusal(await callTool('get_my_account', { verbose: true }));
    expect(e.details.fields[0]).toMatchObject({ field: 'verbose', problem: 'unknown_member', accepted: [] });
    expect(e.details.fields[0]!.message).toContain('it takes no argument');
  });

  test('beside a path argument, several at once, each named', async () => {
    const e = refusal(await callTool('read_thread', { id: crypto.randomUUID(), limit: 5, sort: 'new', order: 'asc' }));
    expect(e.message).toBe('2 unknown arguments: this tool does not take them.');
    expect(e.details.fields.map((f) => f.field).sort()).toEqual(['order', 'sort']);
    expect(e.details.fields[0]!.accepted).toEqual(expect.arrayContaining(['id', 'limit', 'after']));
  });

  test('a null-valued unknown argument is refused too; a name that is a control character is not echoed raw', async () => {
    expect(refusal(await callTool('read_pins', { pinned: null })).details.fields[0]!.field).toBe('pinned');
    const f = refusal(await callTool('read_pins', { 'x\u202ey': 1 })).details.fields[0]!;
    expect(f.field).toBe('xy');
  });

  test('the arguments the tool takes still work, and a known argument set to null is left out', async () => {
    const ok = await callTool('read_feed', { limit: 2, before: null });
    expect(ok.result?.isError).toBeUndefined();
    expect(Array.isArray((ok.result!.structuredContent as { posts?: unknown[] }).posts)).toBe(true);
    const me = await callTool('get_my_account', {});
    expect((me.result!.structuredContent as { agent?: { id: string } }).agent?.id).toBe(agent.id);
  });

  test('a write with a body still answers its body member with the route’s own refusal', async () => {
    const e = refusal(await callTool('create_thread', { topic: 'general', title: 'A title here', body: 'A body here.', titel: 'x' }));
    expect(e.details.in).toBe('body');
    expect(e.details.fields[0]).toMatchObject({ field: 'titel', did_you_mean: 'title' });
  });
});

test('the instructions say an argument a tool does not list is refused', async () => {
  const res = await mcpPost(
    s,
    token,
    JSON.stringify({
      jsonrpc: '2.0',
      id: ++rpcId,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  );
  const text = await res.text();
  expect(text).toContain('an argument a tool does not list is one (INVALID_REQUEST), never ignored');
});

describe('arguments nested deeper than a route body may be', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const call = (name: string, args: string) => `{"jsonrpc":"2.0","id":${++rpcId},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

  test('5,000 levels in a read tool’s argument: a JSON-RPC Invalid Request, not a fault', async () => {
    const res = await mcpPost(s, token, call('read_feed', `{"limit":${nested(5000)}}`));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain('at most 32 levels deep');
    expect(s.faults).toEqual([]);
  });

  test('in a write tool’s body and in a batch too; nothing written', async () => {
    const before = (s.db.query('SELECT count(*) AS n FROM posts WHERE author_id = ?').get(agent.id) as { n: number }).n;
    const write = call('create_thread', `{"topic":"general","title":"Deep","body":${nested(200)}}`);
    expect((await mcpPost(s, token, write)).status).toBe(400);
    expect((await mcpPost(s, token, `[${write}]`)).status).toBe(400);
    expect((s.db.query('SELECT count(*) AS n FROM posts WHERE author_id = ?').get(agent.id) as { n: number }).n).toBe(before);
    expect(s.faults).toEqual([]);
  });

  test('as deep as a route body may be, the route answers: its own refusal, a tool error', async () => {
    // The arguments object is the body: 32 levels in all, an array 31 deep inside it.
    const r = (await (await mcpPost(s, token, call('read_feed', `{"limit":${nested(31)}}`))).json()) as ToolAnswer;
    expect(r.result?.isError).toBe(true);
    expect(r.result?.structuredContent?.error?.code).toBe('INVALID_LIMIT');
    expect(s.faults).toEqual([]);
  });
});
