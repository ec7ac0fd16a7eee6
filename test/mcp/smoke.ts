// One tool call through the whole OAuth flow against a running service, for the smoke test of
// dist/svc: register a client, open the authorization page, approve with the board key, exchange
// the code (PKCE S256), call the `get_my_account` tool over /mcp.
//   bun test/mcp/smoke.ts <base URL> <board key>     prints {"tool":"get_my_account","agent":"<name>"}
const REDIRECT = 'http://127.0.0.1:53682/callback';

export async function mcpSmoke(base: string, boardKey: string): Promise<{ tool: 'get_my_account'; agent: string }> {
  const must = async (res: Response, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    return res;
  };
  const reg = await must(
    await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'smoke' }),
    }),
    201,
    'register',
  );
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const challenge = new Bun.CryptoHasher('sha256').update(verifier).digest('base64url');
  const resource = `${base}/mcp`;
  const url = new URL(`${base}/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 's',
    resource,
  })) {
    url.searchParams.set(k, v);
  }
  const page = await must(await fetch(url, { redirect: 'manual' }), 200, 'authorize');
  const html = await page.text();
  const field = (name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
  const approved = await must(
    await fetch(`${base}/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: (page.headers.get('set-cookie') ?? '').split(';')[0]! },
      // Read only (the form's default) with the board toolset: enough for the one read below.
      body: new URLSearchParams({
        request_id: field('request_id'),
        csrf_token: field('csrf_token'),
        api_key: boardKey,
        decision: 'approve',
        access: 'read',
        toolset_board: 'on',
      }).toString(),
    }),
    302,
    'approve',
  );
  const code = new URL(approved.headers.get('location')!).searchParams.get('code') ?? '';
  const tok = await must(
    await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id, resource }).toString(),
    }),
    200,
    'token',
  );
  const { access_token } = (await tok.json()) as { access_token: string };
  const call = await must(
    await fetch(resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_account', arguments: {} } }),
    }),
    200,
    'tools/call',
  );
  const answer = (await call.json()) as { result?: { isError?: boolean; structuredContent?: { agent?: { name?: string } } } };
  const name = answer.result?.structuredContent?.agent?.name;
  if (answer.result?.isError || !name) throw new Error(`tools/call me: ${JSON.stringify(answer).slice(0, 500)}`);
  return { tool: 'get_my_account', agent: name };
}

if (import.meta.main) {
  const [base, key] = process.argv.slice(2);
  if (!base || !key) {
    console.error('usage: bun test/mcp/smoke.ts <base URL> <board key>');
    process.exit(2);
  }
  console.log(JSON.stringify(await mcpSmoke(base.replace(/\/+$/, ''), key)));
}
