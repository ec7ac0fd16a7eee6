// What bench/run.ts's `mcp-*` scenarios need to call /mcp as an assistant does: an OAuth access
// token for a bench agent (the whole flow over HTTP, as the person and the client do it: register
// the client, open the consent page, paste the board key, approve, exchange the code with PKCE),
// and the exact POST a client sends for one tool call over the streamable HTTP transport
// (stateless: no session; JSON-RPC `tools/call`; Accept listing application/json and
// text/event-stream; the protocol version header; the bearer).

/** The protocol version the bench's client announces (one the SDK's server supports). */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

/** The JSON-RPC body of one `tools/call`. */
export const mcpCallBody = (name: string, args: Record<string, unknown> = {}, id: number | string = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** The headers of a POST to /mcp with `token`. */
export const mcpHeaders = (token: string): Record<string, string> => ({
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': MCP_PROTOCOL_VERSION,
});

/**
 * What a tools/call answer says: the tool's result is a real one (not a JSON-RPC error, not a tool
 * error) and its structured content, or why not.
 */
export function toolOutcome(status: number, text: string): { ok: true; structured: unknown } | { ok: false; why: string } {
  if (status !== 200) return { ok: false, why: `HTTP ${status}: ${text.slice(0, 300)}` };
  let j: { error?: unknown; result?: { isError?: boolean; structuredContent?: unknown; content?: unknown } };
  try {
    j = JSON.parse(text);
  } catch {
    return { ok: false, why: `not JSON: ${text.slice(0, 300)}` };
  }
  if (j.error !== undefined) return { ok: false, why: `JSON-RPC error ${JSON.stringify(j.error).slice(0, 300)}` };
  if (!j.result || !Array.isArray(j.result.content)) return { ok: false, why: `no tool result: ${text.slice(0, 300)}` };
  if (j.result.isError) return { ok: false, why: `tool error ${JSON.stringify(j.result.structuredContent ?? j.result.content).slice(0, 300)}` };
  return { ok: true, structured: j.result.structuredContent };
}

/** Members that say when an answer was made, not what it says: two answers of the same read differ there. */
export const WHEN_MEMBERS: readonly string[] = ['as_of'];

/** Whether two answers (parsed JSON) are the same read, WHEN_MEMBERS aside. */
export function sameRead(a: unknown, b: unknown): boolean {
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => !WHEN_MEMBERS.includes(k))
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;
  return Bun.deepEquals(strip(a), strip(b), true);
}

const REDIRECT = 'http://127.0.0.1:53682/callback';
const form = (url: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });

/**
 * An access token for the agent holding `apiKey` on the server at `url` (its base URL, the tokens'
 * audience), with read and write and every toolset granted (what the consent page offers).
 */
export async function mcpToken(url: string, apiKey: string): Promise<string> {
  const reg = await fetch(`${url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'svc bench', token_endpoint_auth_method: 'none' }),
  });
  if (reg.status !== 201) throw new Error(`MCP link: /register answered ${reg.status}: ${await reg.text()}`);
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const challenge = new Bun.CryptoHasher('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${url}/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'bench',
    resource: `${url}/mcp`,
  }))
    authorize.searchParams.set(k, v);
  const page = await fetch(authorize, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`MCP link: the consent page answered ${page.status}: ${html.slice(0, 300)}`);
  const field = (name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const toolsets = Object.fromEntries(['board', 'pubs', 'continuity', 'lab', 'outreach', 'show'].map((t) => [`toolset_${t}`, 'on']));
  const back = await form(
    `${url}/authorize`,
    { request_id: field('request_id'), csrf_token: field('csrf_token'), api_key: apiKey, decision: 'approve', access: 'write', ...toolsets },
    { cookie },
  );
  const code = new URL(back.headers.get('location') ?? 'http://invalid/').searchParams.get('code');
  if (!code) throw new Error(`MCP link: approving answered ${back.status} ${back.headers.get('location') ?? ''}: ${(await back.text()).slice(0, 300)}`);
  const token = await form(`${url}/token`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
    resource: `${url}/mcp`,
  });
  if (token.status !== 200) throw new Error(`MCP link: /token answered ${token.status}: ${await token.text()}`);
  return ((await token.json()) as { access_token: string }).access_token;
}
