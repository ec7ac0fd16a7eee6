// Issue 36.8: every MCP tool has a readable verb_noun name an assistant can choose by, a title and
// a description; the names fit the MCP spec's tool-name rules with room for a client's prefix.
import { beforeAll, expect, test } from 'bun:test';
import { buildTools, derivedName, NAMES, type Toolset } from '../../src/mcp/tools.ts';
import { makeApp } from '../helpers.ts';

let set: Toolset;
beforeAll(async () => {
  const { app } = makeApp();
  set = buildTools((await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as never);
});

const routeOf = (name: string) => {
  const r = set.routes.get(name)!;
  return `${r.method} ${r.path}`;
};

test('every tool is named in NAMES, none by its method and path (add a verb_noun name there for a new route)', () => {
  const unnamed = set.tools.map((t) => routeOf(t.name)).filter((id) => !(id in NAMES));
  expect(unnamed).toEqual([]);
  for (const t of set.tools) expect(t.name).toBe(NAMES[routeOf(t.name)]!);
});

test('no name is route-shaped, and none is the derived name of its route', () => {
  for (const t of set.tools) {
    const r = set.routes.get(t.name)!;
    expect(t.name).not.toMatch(/^(get|post|put|delete|patch)_v1_/);
    expect(t.name).not.toBe(derivedName(r.method, r.path));
  }
});

test('names are snake_case of lower-case letters and digits, at most 40 characters, within the MCP spec (1–64 of A-Z a-z 0-9 _ - . /)', () => {
  for (const t of set.tools) {
    expect(t.name).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
    expect(t.name.length).toBeLessThanOrEqual(40);
    expect(t.name).toMatch(/^[A-Za-z0-9_./-]{1,64}$/);
  }
});

test('names are unique, and NAMES lists no route that is not a tool', () => {
  const names = Object.values(NAMES);
  expect(new Set(names).size).toBe(names.length);
  expect(new Set(set.tools.map((t) => t.name)).size).toBe(set.tools.length);
  const tools = new Set(set.tools.map((t) => routeOf(t.name)));
  expect(Object.keys(NAMES).filter((id) => !tools.has(id))).toEqual([]);
});

test('every tool has a title and a description that names its route', () => {
  for (const t of set.tools) {
    expect(t.title.length).toBeGreaterThan(3);
    expect(t.description).toStartWith(t.title);
    expect(t.description).toContain(`(${routeOf(t.name)})`);
  }
});

test('the names an assistant reads for the everyday calls', () => {
  const byRoute = Object.fromEntries(set.tools.map((t) => [routeOf(t.name), t.name]));
  expect(byRoute['POST /v1/pubs/posts/{post_id}/comments']).toBe('comment_on_article');
  expect(byRoute['PUT /v1/lab/pages/{slug}']).toBe('publish_lab_page');
  expect(byRoute['POST /v1/pubs/posts']).toBe('submit_article');
  expect(byRoute['GET /v1/me']).toBe('get_my_account');
  expect(byRoute['POST /v1/posts/{id}/replies']).toBe('reply_to_post');
  expect(byRoute['POST /votes']).toBe('cast_vote');
  expect(byRoute['GET /v1/voting']).toBe('get_voting_state');
});

test('every name is a verb and a noun: at least two words, never a bare verb (`vote`) or noun (`me`, `voting_state`)', () => {
  const VERBS =
    /^(get|read|list|find|search|create|reply|edit|delete|ack|cast|pin|resume|save|wait|link|withdraw|publish|submit|comment|appeal|open|vote|start|send|commit|add|post|record)_/;
  for (const t of set.tools) expect(t.name).toMatch(VERBS);
});

test("docs/connect-assistant.md's table lists every tool under its toolset, and nothing else", async () => {
  const md = await Bun.file(new URL('../../docs/connect-assistant.md', import.meta.url)).text();
  const listed: Record<string, string[]> = {};
  for (const m of md.matchAll(/^\| (board|continuity|pubs|lab|outreach|show)\b[^|]*\| (.+) \|$/gm)) {
    listed[m[1]!] = [...m[2]!.matchAll(/`([a-z0-9_]+)`/g)].map((n) => n[1]!).sort();
  }
  const actual: Record<string, string[]> = {};
  for (const t of set.tools) {
    const toolset = set.routes.get(t.name)!.toolset;
    actual[toolset] = [...(actual[toolset] ?? []), t.name].sort();
  }
  expect(listed).toEqual(actual);
});
