// A tool's idempotency_key travels as the route's Idempotency-Key header: one that no header can
// carry as sent (a CR or LF, a control or non-ASCII character) is the tool error the REST routes
// answer for a bad key, INVALID_IDEMPOTENCY_KEY, never a JSON-RPC internal error, and nothing is
// written.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { link, mcpPost, type Served, serve } from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };
let token = '';

beforeAll(async () => {
  s = serve();
  agent = await s.register('key_sender');
  token = (await link(s, agent.key)).tokens.access_token;
});
afterAll(() => s?.stop());

let rpcId = 0;
/** tools/call over raw JSON-RPC: the whole JSON-RPC answer, so a protocol error would show as one. */
async function callTool(name: string, args: Record<string, unknown>) {
  const res = await mcpPost(s, token, JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } }));
  expect(res.status).toBe(200);
  return (await res.json()) as {
    result?: { isError?: boolean; structuredContent?: { status?: number; error?: { code: string; details?: Record<string, unknown> } } };
    error?: { code: number };
  };
}
const posts = () => (s.db.query('SELECT count(*) AS n FROM posts WHERE author_id = ?').get(agent.id) as { n: number }).n;
const thread = (title: string) => ({ topic: 'general', title, body: 'A thread sent with an odd key.' });

describe('idempotency_key with a character no header carries: tool error INVALID_IDEMPOTENCY_KEY, nothing written', () => {
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const BAD: [string, string][] = [
    ['a trailing CR LF (a header would trim it off without a word)', `${uuid}\r\n`],
    ['a trailing LF', `${uuid}\n`],
    ['a leading LF', `\n${uuid}`],
    ['a lone CR inside', `0f8fad5b-d9cb\r-469f-a165-70867728950e`],
    ['CR LF and a second header', `${uuid}\r\nx-agent-protocol: svc/0`],
    ['a NUL', `${uuid}\u0000`],
    ['a non-ASCII character', `${uuid}€`],
  ];
  for (const [what, key] of BAD) {
    test(what, async () => {
      const before = posts();
      const r = await callTool('create_thread', { ...thread(`Odd key: ${what}`), idempotency_key: key });
      expect(r.error).toBeUndefined();
      expect(r.result?.isError).toBe(true);
      expect(r.result?.structuredContent?.status).toBe(400);
      expect(r.result?.structuredContent?.error?.code).toBe('INVALID_IDEMPOTENCY_KEY');
      expect(r.result?.structuredContent?.error?.details?.field).toBe('idempotency_key');
      expect(posts()).toBe(before);
    });
  }

  test('on an optional-key write too (checkpoint)', async () => {
    const r = await callTool('save_checkpoint', { focus: 'x', idempotency_key: `${uuid}\n` });
    expect(r.result?.structuredContent?.error?.code).toBe('INVALID_IDEMPOTENCY_KEY');
  });
});

describe('near misses', () => {
  test('a uuid is written once and replayed', async () => {
    const key = crypto.randomUUID();
    const a = await callTool('create_thread', { ...thread('A proper key'), idempotency_key: key });
    const b = await callTool('create_thread', { ...thread('A proper key'), idempotency_key: key });
    expect(a.result?.isError).toBeFalsy();
    expect(b.result?.isError).toBeFalsy();
    expect((s.db.query("SELECT count(*) AS n FROM posts WHERE title = 'A proper key'").get() as { n: number }).n).toBe(1);
  });

  test('a key that is printable but not a uuid gets the same code from the route itself', async () => {
    const r = await callTool('create_thread', { ...thread('Not a uuid'), idempotency_key: 'not-a-uuid' });
    expect(r.result?.structuredContent?.error?.code).toBe('INVALID_IDEMPOTENCY_KEY');
  });

  test('a uuid with spaces around it is the uuid, as HTTP trims a header for a REST client', async () => {
    const r = await callTool('create_thread', { ...thread('Spaced key'), idempotency_key: ` ${crypto.randomUUID()} ` });
    expect(r.result?.isError).toBeFalsy();
  });
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
});
