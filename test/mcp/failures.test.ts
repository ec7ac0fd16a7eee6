// The refusals of the authorization server and of /mcp, each next to the near miss that passes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  authorizeUrl,
  codeOf,
  decide,
  EVERYTHING,
  exchangeCode,
  form,
  link,
  mcpStatus,
  newVerifier,
  openPage,
  REDIRECT,
  registerClient,
  type Served,
  s256,
  serve,
  trustOf,
} from './harness.ts';

let s: Served;
let agent: { id: string; name: string; key: string };

beforeAll(async () => {
  s = serve({ SVC_MCP_REGISTRATIONS_PER_HOUR: '40' });
  agent = await s.register('tool_user');
});
afterAll(() => s?.stop());

const tokenCall = (params: Record<string, string>) => form(`${s.url}/token`, params);
const resource = () => `${s.url}/mcp`;

async function approvedCode(clientId: string, verifier: string) {
  const back = await decide(authorizeUrl(s, clientId, verifier), agent.key);
  expect(back.status).toBe(302);
  return codeOf(back).code;
}

describe('PKCE and the code', () => {
  test('a wrong code_verifier is invalid_grant and spends the code: the right one after it is invalid_grant too (RFC 9700)', async () => {
    const owner = await s.register('pkce_owner');
    const id = await registerClient(s);
    const verifier = newVerifier();
    const back = await decide(authorizeUrl(s, id, verifier), owner.key);
    const { code } = codeOf(back);
    const wrong = await exchangeCode(s, id, code, newVerifier());
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
    const right = await exchangeCode(s, id, code, verifier);
    expect(right.status).toBe(400);
    expect((await right.json()).error).toBe('invalid_grant');
    // The connection the code was approved for never got a token: it is not listed as linked.
    expect((await s.call('GET', '/v1/me/connections', { key: owner.key })).json.connections).toEqual([]);
  });

  test('near miss: the right code_verifier first gets the tokens (nothing before it spent the code)', async () => {
    const id = await registerClient(s);
    const verifier = newVerifier();
    const code = await approvedCode(id, verifier);
    const right = await exchangeCode(s, id, code, verifier);
    expect(right.status).toBe(200);
    const tokens = await right.json();
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
  });

  test('near miss: a refusal before the PKCE check (another client_id) leaves the code usable', async () => {
    const id = await registerClient(s);
    const other = await registerClient(s);
    const verifier = newVerifier();
    const code = await approvedCode(id, verifier);
    const wrongClient = await exchangeCode(s, id, code, verifier, { client_id: other });
    expect((await wrongClient.json()).error).toBe('invalid_grant');
    expect((await exchangeCode(s, id, code, verifier)).status).toBe(200);
  });

  test('plain PKCE is refused back to a client this browser approved, with state; a missing challenge too', async () => {
    const id = await registerClient(s);
    const verifier = newVerifier();
    const headers = { cookie: trustOf(await decide(authorizeUrl(s, id, newVerifier()), agent.key)) };
    const plain = await fetch(authorizeUrl(s, id, verifier, { code_challenge: verifier, code_challenge_method: 'plain' }), { redirect: 'manual', headers });
    expect(plain.status).toBe(302);
    expect(codeOf(plain).error).toBe('invalid_request');
    expect(codeOf(plain).state).toBe('st');
    const none = await fetch(authorizeUrl(s, id, verifier, { code_challenge: undefined, code_challenge_method: undefined }), { redirect: 'manual', headers });
    expect(codeOf(none).error).toBe('invalid_request');
    const s256ok = await fetch(authorizeUrl(s, id, verifier), { redirect: 'manual' });
    expect(s256ok.status).toBe(200);
  });

  test('a code used twice is refused and revokes the tokens issued from it', async () => {
    const id = await registerClient(s);
    const verifier = newVerifier();
    const code = await approvedCode(id, verifier);
    const first = await (await exchangeCode(s, id, code, verifier)).json();
    expect(await mcpStatus(s, first.access_token)).toBe(200);
    const again = await exchangeCode(s, id, code, verifier);
    expect((await again.json()).error).toBe('invalid_grant');
    expect(await mcpStatus(s, first.access_token)).toBe(401);
  });

  test('an expired code is refused', async () => {
    const id = await registerClient(s);
    const verifier = newVerifier();
    const code = await approvedCode(id, verifier);
    s.clock.advance(121_000);
    const res = await exchangeCode(s, id, code, verifier);
    expect((await res.json()).error).toBe('invalid_grant');
  });
});

describe('redirect URIs', () => {
  test('a redirect URI differing by a trailing slash is shown as a problem, never redirected to', async () => {
    const id = await registerClient(s);
    const res = await fetch(authorizeUrl(s, id, newVerifier(), { redirect_uri: `${REDIRECT}/` }), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('Redirect URI not registered');
  });

  test("at the token endpoint another redirect_uri than the request's is invalid_grant", async () => {
    const id = await registerClient(s);
    const verifier = newVerifier();
    const code = await approvedCode(id, verifier);
    const res = await exchangeCode(s, id, code, verifier, { redirect_uri: `${REDIRECT}/` });
    expect((await res.json()).error).toBe('invalid_grant');
  });

  test('registration refuses http redirect URIs off loopback and fragments; accepts https and loopback', async () => {
    for (const uri of ['http://example.com/cb', 'https://example.com/cb#x', 'javascript:alert(1)']) {
      const res = await fetch(`${s.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [uri] }),
      });
      expect(res.status).toBe(400);
      expect(['invalid_redirect_uri', 'invalid_client_metadata']).toContain((await res.json()).error);
    }
    const ok = await fetch(`${s.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://example.com/cb', 'http://localhost:7777/cb'], token_endpoint_auth_method: 'client_secret_basic' }),
    });
    expect(ok.status).toBe(201);
    const body = await ok.json();
    expect(body.token_endpoint_auth_method).toBe('none');
    expect(body.client_secret).toBeUndefined();
  });

  test('an unknown client is shown as a problem', async () => {
    const res = await fetch(authorizeUrl(s, 'mcp_client_nobody', newVerifier()), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('the resource (audience)', () => {
  test('another resource or none at /authorize is invalid_target, sent back to a client this browser approved', async () => {
    const id = await registerClient(s);
    const trust = trustOf(await decide(authorizeUrl(s, id, newVerifier()), agent.key));
    for (const r of ['https://other.example/mcp', `${s.url}/mcp/`, undefined]) {
      const res = await fetch(authorizeUrl(s, id, newVerifier(), { resource: r }), { redirect: 'manual', headers: { cookie: trust } });
      expect(res.status).toBe(302);
      expect(codeOf(res).error).toBe('invalid_target');
    }
  });

  test('another resource at the token endpoint is invalid_target', async () => {
    const id = await registerClient(s);
    const verifier = newVerifier();
    const code = await approvedCode(id, verifier);
    const res = await exchangeCode(s, id, code, verifier, { resource: 'https://other.example/mcp' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_target');
  });

  test('a token is refused on the agent routes and a board key is refused on /mcp', async () => {
    const { tokens } = await link(s, agent.key);
    expect((await s.call('GET', '/v1/me', { key: tokens.access_token })).status).toBe(401);
    expect((await s.call('GET', '/v1/me', { key: tokens.refresh_token })).status).toBe(401);
    expect(await mcpStatus(s, agent.key)).toBe(401);
    expect(await mcpStatus(s, tokens.refresh_token)).toBe(401);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
  });

  test('a browser Origin other than the service is refused on /mcp', async () => {
    const { tokens } = await link(s, agent.key);
    expect(await mcpStatus(s, tokens.access_token, { origin: 'https://evil.example' })).toBe(403);
    expect(await mcpStatus(s, tokens.access_token, { origin: s.url })).toBe(200);
  });
});

describe('token lifetimes and refresh', () => {
  test('an access token expires after an hour, not before', async () => {
    const { tokens } = await link(s, agent.key);
    s.clock.advance(3599_000);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    s.clock.advance(1_000);
    expect(await mcpStatus(s, tokens.access_token)).toBe(401);
  });

  test('a reused refresh token revokes the family: the tokens of the rotation stop working too', async () => {
    const { clientId, tokens } = await link(s, agent.key);
    const refresh = (rt: string) => tokenCall({ grant_type: 'refresh_token', refresh_token: rt, client_id: clientId, resource: resource() });
    const second = await refresh(tokens.refresh_token);
    expect(second.status).toBe(200);
    const rotated = await second.json();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(await mcpStatus(s, rotated.access_token)).toBe(200);
    const reuse = await refresh(tokens.refresh_token);
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    expect(await mcpStatus(s, rotated.access_token)).toBe(401);
    expect((await refresh(rotated.refresh_token)).status).toBe(400);
  });

  test('a refresh by another client or for another resource is refused', async () => {
    const { tokens } = await link(s, agent.key);
    const other = await registerClient(s);
    const a = await tokenCall({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: other, resource: resource() });
    expect((await a.json()).error).toBe('invalid_grant');
    const { clientId, tokens: t2 } = await link(s, agent.key);
    const b = await tokenCall({ grant_type: 'refresh_token', refresh_token: t2.refresh_token, client_id: clientId, resource: 'https://other.example/mcp' });
    expect((await b.json()).error).toBe('invalid_target');
  });

  test('a refresh may leave resource out (RFC 8707 §2.2): the new token is still bound to /mcp', async () => {
    const { clientId, tokens } = await link(s, agent.key);
    const r = await tokenCall({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(r.status).toBe(200);
    const fresh = await r.json();
    expect(await mcpStatus(s, fresh.access_token)).toBe(200);
    expect((await s.call('GET', '/v1/me', { key: fresh.access_token })).status).toBe(401);
  });

  test('an unknown grant type is unsupported_grant_type', async () => {
    const res = await tokenCall({ grant_type: 'password', username: 'x', password: 'y' });
    expect((await res.json()).error).toBe('unsupported_grant_type');
  });
});

describe('revocation', () => {
  test('revoking an access token ends it; revoking a refresh token ends the connection', async () => {
    const { clientId, tokens } = await link(s, agent.key);
    expect((await form(`${s.url}/revoke`, { token: tokens.access_token, client_id: clientId })).status).toBe(200);
    expect(await mcpStatus(s, tokens.access_token)).toBe(401);
    const refreshed = await (
      await tokenCall({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, resource: resource() })
    ).json();
    expect(await mcpStatus(s, refreshed.access_token)).toBe(200);
    expect((await form(`${s.url}/revoke`, { token: refreshed.refresh_token, client_id: clientId })).status).toBe(200);
    expect(await mcpStatus(s, refreshed.access_token)).toBe(401);
    // An unknown token is answered 200 too; a missing one is invalid_request.
    expect((await form(`${s.url}/revoke`, { token: 'nothing' })).status).toBe(200);
    expect((await form(`${s.url}/revoke`, {})).status).toBe(400);
  });

  test('another client cannot revoke a token', async () => {
    const { tokens } = await link(s, agent.key);
    const other = await registerClient(s);
    expect((await form(`${s.url}/revoke`, { token: tokens.access_token, client_id: other })).status).toBe(200);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
  });

  test('the agent lists and revokes its connections; another agent cannot', async () => {
    const fresh = await s.register('conn_owner');
    const { tokens } = await link(s, fresh.key);
    const list = await s.call('GET', '/v1/me/connections', { key: fresh.key });
    expect(list.json.connections).toHaveLength(1);
    const id = list.json.connections[0].id;
    const stranger = await s.register('stranger');
    expect((await s.call('DELETE', `/v1/me/connections/${id}`, { key: stranger.key })).status).toBe(404);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    const del = await s.call('DELETE', `/v1/me/connections/${id}`, { key: fresh.key });
    expect(del.status).toBe(200);
    expect(del.json.revoked).toBe(true);
    expect(await mcpStatus(s, tokens.access_token)).toBe(401);
    expect((await s.call('GET', '/v1/me/connections', { key: fresh.key })).json.connections).toHaveLength(0);
    expect((await s.call('DELETE', `/v1/me/connections/${id}`, { key: fresh.key })).status).toBe(404);
  });

  test('a revoked board key revokes every token linked to it, refresh included', async () => {
    const owner = await s.register('key_revoker');
    const { clientId, tokens } = await link(s, owner.key);
    expect(await mcpStatus(s, tokens.access_token)).toBe(200);
    expect((await s.call('POST', '/v1/me/revoke', { key: owner.key })).status).toBe(200);
    expect(await mcpStatus(s, tokens.access_token)).toBe(401);
    const res = await tokenCall({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, resource: resource() });
    expect((await res.json()).error).toBe('invalid_grant');
    // And a revoked key cannot be linked.
    const id = await registerClient(s);
    const page = await decide(authorizeUrl(s, id, newVerifier()), owner.key);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('revoked');
  });
});

describe('the authorization page', () => {
  test('strict CSP, no script, the client name escaped as untrusted text', async () => {
    const res = await fetch(`${s.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: '<script>alert(1)</script>Evil' }),
    });
    const { client_id } = await res.json();
    const page = await openPage(authorizeUrl(s, client_id, newVerifier()));
    expect(page.res.status).toBe(200);
    const csp = page.res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(page.html).not.toContain('<script');
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;Evil');
    expect(page.html).toContain('untrusted');
    expect(page.cookie).toMatch(/^svc_oauth_csrf=/);
    expect(page.res.headers.get('set-cookie')).toContain('HttpOnly');
  });

  test('a form without the matching CSRF cookie is refused; a wrong key shows the page again', async () => {
    const id = await registerClient(s);
    const page = await openPage(authorizeUrl(s, id, newVerifier()));
    const post = (cookie: string, csrf: string, key: string) =>
      fetch(`${s.url}/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ request_id: page.requestId, csrf_token: csrf, api_key: key, decision: 'approve', ...EVERYTHING }).toString(),
      });
    expect((await post('', page.csrf, agent.key)).status).toBe(403);
    expect((await post('svc_oauth_csrf=forged', 'forged', agent.key)).status).toBe(403);
    const wrongKey = await post(page.cookie, page.csrf, 'svc_0000000000000000000000000000000000000000');
    expect(wrongKey.status).toBe(400);
    expect(await wrongKey.text()).toContain('not a valid board key');
    const ok = await post(page.cookie, page.csrf, agent.key);
    expect(ok.status).toBe(302);
    expect(codeOf(ok).code).toMatch(/^mcpc_/);
    // The form is spent.
    expect((await post(page.cookie, page.csrf, agent.key)).status).toBe(400);
  });

  test('deny sends access_denied with the state; an expired form is refused', async () => {
    const id = await registerClient(s);
    const denied = await decide(authorizeUrl(s, id, newVerifier()), agent.key, 'deny');
    expect(denied.status).toBe(302);
    expect(codeOf(denied).error).toBe('access_denied');
    expect(codeOf(denied).state).toBe('st');
    const page = await openPage(authorizeUrl(s, id, newVerifier()));
    s.clock.advance(11 * 60_000);
    const late = await fetch(`${s.url}/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
      body: new URLSearchParams({ request_id: page.requestId, csrf_token: page.csrf, api_key: agent.key, decision: 'approve' }).toString(),
    });
    expect(late.status).toBe(400);
  });

  test('the board key is never stored: no table holds it', () => {
    const tables = s.db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'mcp_%'").all();
    for (const { name } of tables) {
      const rows = s.db.query<Record<string, unknown>, []>(`SELECT * FROM ${name}`).all();
      expect(JSON.stringify(rows)).not.toContain(agent.key);
    }
  });
});

test('registrations are rate-limited per address', async () => {
  const limited = serve({ SVC_MCP_REGISTRATIONS_PER_HOUR: '2' });
  try {
    await registerClient(limited);
    await registerClient(limited);
    const third = await fetch(`${limited.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('3600');
    limited.clock.advance(3_600_001);
    expect(await registerClient(limited)).toMatch(/^mcp_client_/);
    expect(limited.faults).toEqual([]);
  } finally {
    limited.stop();
  }
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
  void s256;
});

test('the smoke function (for dist/svc) links and calls one tool', async () => {
  const { mcpSmoke } = await import('./smoke.ts');
  const who = await s.register('smoke_agent');
  expect(await mcpSmoke(s.url, who.key)).toEqual({ tool: 'get_my_account', agent: 'smoke_agent' });
  expect(s.faults).toEqual([]);
});
