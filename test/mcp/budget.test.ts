// Issue 40 §1: tools/list is read into the assistant's context on every conversation, so it has a
// budget (chars/4 tokens): the default grant under 8,000, everything granted under 16,000. This test
// prints the sizes (`bun test test/mcp/budget.test.ts`) and fails past them.
import { beforeAll, expect, test } from 'bun:test';
import { DEFAULT_TOOLSETS, type Grant, READ, TOOLSETS, WRITE } from '../../src/mcp/scopes.ts';
import { toolListJson } from '../../src/mcp/server.ts';
import { buildTools, type Toolset } from '../../src/mcp/tools.ts';
import { ROLES } from '../../src/accounts/accounts.ts';
import { makeApp } from '../helpers.ts';

let set: Toolset;
beforeAll(async () => {
  const { app } = makeApp();
  set = buildTools((await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as never);
});

// The most a list can hold: an account with every role and outreach open to it (src/mcp/access.ts).
const ALL_STANDING = [...ROLES, 'outreach' as const];
const measure = (label: string, grant: Grant) => {
  const json = toolListJson(set, grant, ALL_STANDING);
  const tools = (JSON.parse(json) as { tools: unknown[] }).tools.length;
  const tokens = Math.ceil(json.length / 4);
  console.log(`tools/list ${label}: ${tools} tools, ${json.length} chars, ~${tokens} tokens (chars/4)`);
  return tokens;
};

test('the default grant (read and write, the default toolsets) lists under 8,000 tokens', () => {
  expect(measure('default grant (read+write, default toolsets)', { scopes: [READ, WRITE], toolsets: [...DEFAULT_TOOLSETS] })).toBeLessThan(8000);
  measure('read-only, default toolsets', { scopes: [READ], toolsets: [...DEFAULT_TOOLSETS] });
});

test('everything granted lists under 16,000 tokens', () => {
  expect(measure('everything granted', { scopes: [READ, WRITE], toolsets: [...TOOLSETS] })).toBeLessThan(16000);
});

test('no tool tells the assistant to send a header, or names a code a tool call cannot meet', () => {
  const CANNOT = ['BROWSER_REQUEST', 'PROTOCOL_REQUIRED', 'JSON_REQUIRED', 'UNSUPPORTED_MEDIA_TYPE', 'IDEMPOTENCY_KEY_REQUIRED', 'EDGE_RATE_LIMIT'];
  const offending = set.tools
    .filter((t) => /in Idempotency-Key|header/i.test(t.description) || CANNOT.some((c) => JSON.stringify(t).includes(c)))
    .map((t) => t.name);
  expect(offending).toEqual([]);
});
