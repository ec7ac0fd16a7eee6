// /authorize is no open redirector: a client may name only https redirect URIs or loopback http
// ones (RFC 8252), refused at /register with invalid_redirect_uri (RFC 7591); a problem with the
// client or its redirect URI is shown on a page and never redirected; any other problem is sent back
// to the registered URI with error and state (RFC 6749 §4.1.2.1) only in a browser that approved
// that client with that URI before (src/mcp/trust.ts), and shown on a page everywhere else.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mcpStore } from '../../src/mcp/store.ts';
import { authorizeUrl, codeOf, decide, newVerifier, REDIRECT, registerClient, type Served, serve, trustOf } from './harness.ts';

let s: Served;
beforeAll(() => {
  s = serve({ SVC_MCP_REGISTRATIONS_PER_HOUR: '100' });
});
afterAll(() => s?.stop());

const register = (redirect_uris: string[]) =>
  fetch(`${s.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris }) }).then(async (r) => ({
    status: r.status,
    json: await r.json(),
  }));
const clients = () => (s.db.query('SELECT count(*) AS n FROM mcp_clients').get() as { n: number }).n;

describe('/register: https or loopback http redirect URIs only (invalid_redirect_uri otherwise)', () => {
  const REFUSED: [string, string][] = [
    ['a reverse-domain private-use scheme', 'com.example.app:/oauth/callback'],
    ['a custom scheme', 'myapp://callback'],
    ['http on a public host', 'http://evil.example/cb'],
    ['http on a name that starts like localhost', 'http://localhost.evil.example/cb'],
    ['http on another 127/8 address than 127.0.0.1', 'http://127.0.0.2:8080/cb'],
    ['http on a private address', 'http://192.168.1.10/cb'],
    ['https with a user name that reads as another host', 'https://good.example@evil.example/cb'],
    ['a websocket URI', 'ws://localhost:8080/cb'],
  ];
  for (const [what, uri] of REFUSED) {
    test(`${what} (${uri}) is refused and nothing is registered`, async () => {
      const before = clients();
      const r = await register([uri]);
      expect([r.status, r.json.error]).toEqual([400, 'invalid_redirect_uri']);
      expect(r.json.error_description).toContain('redirect URI');
      expect(clients()).toBe(before);
    });
  }

  test('one bad URI among good ones refuses the registration', async () => {
    const r = await register(['https://app.example/cb', 'com.example.app:/cb']);
    expect([r.status, r.json.error]).toEqual([400, 'invalid_redirect_uri']);
  });

  const ACCEPTED: [string, string][] = [
    ['https', 'https://app.example/oauth/callback'],
    ['https with a port and a query', 'https://app.example:8443/cb?x=1'],
    ['loopback IPv4 with a port (RFC 8252)', 'http://127.0.0.1:53682/callback'],
    ['loopback IPv4 without a port', 'http://127.0.0.1/callback'],
    ['loopback IPv6 with a port', 'http://[::1]:8080/callback'],
    ['localhost with a port (accepted: the clients in use register it)', 'http://localhost:7777/callback'],
  ];
  for (const [what, uri] of ACCEPTED) {
    test(`near miss: ${what} (${uri}) is registered`, async () => {
      const r = await register([uri]);
      expect(r.status).toBe(201);
      expect(r.json.redirect_uris).toEqual([uri]);
    });
  }
});

describe('/authorize before the client and its redirect URI are trusted: a 400 page, never a redirect', () => {
  const expectPage = async (url: string, title: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain(title);
  };
  // Each request is also otherwise wrong (response_type=token), which a trusted client would be sent back to hear.
  const broken = { response_type: 'token' };

  test('an unknown client_id, even naming an https redirect_uri', async () => {
    await expectPage(authorizeUrl(s, 'mcp_client_nobody', newVerifier(), { ...broken, redirect_uri: 'https://evil.example/cb' }), 'Unknown or invalid client');
  });

  test('no client_id at all', async () => {
    await expectPage(authorizeUrl(s, '', newVerifier(), { ...broken, client_id: undefined, redirect_uri: 'https://evil.example/cb' }), 'client_id is missing');
  });

  test('a redirect_uri the client did not register', async () => {
    const id = await registerClient(s);
    await expectPage(authorizeUrl(s, id, newVerifier(), { ...broken, redirect_uri: 'https://evil.example/cb' }), 'Redirect URI not registered');
  });

  test('a malformed or empty redirect_uri', async () => {
    const id = await registerClient(s);
    for (const bad of ['not a uri', '', 'https://', `${REDIRECT}#frag`]) {
      await expectPage(authorizeUrl(s, id, newVerifier(), { ...broken, redirect_uri: bad }), 'Redirect URI not registered');
    }
  });

  test('a redirect_uri sent twice', async () => {
    const id = await registerClient(s);
    const url = `${authorizeUrl(s, id, newVerifier(), broken)}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`;
    await expectPage(url, 'more than once');
  });

  test('a redirect URI stored before these rules (a private-use scheme) is not redirected to', async () => {
    const legacy = 'com.example.legacy:/cb';
    mcpStore(s.db).insertRegistered.run('mcp_client_legacy', 'Legacy', null, JSON.stringify([legacy]), '{}', 'test', s.clock.now());
    await expectPage(authorizeUrl(s, 'mcp_client_legacy', newVerifier(), { ...broken, redirect_uri: legacy }), 'Redirect URI not accepted');
  });
});

// Every problem GET /authorize may send back, with the parameters that cause it.
const PROBLEMS: [string, string, Record<string, string | undefined>][] = [
  ['response_type=token', 'unsupported_response_type', { response_type: 'token' }],
  ['no response_type', 'unsupported_response_type', { response_type: undefined }],
  ['no code_challenge', 'invalid_request', { code_challenge: undefined }],
  ['code_challenge_method=plain', 'invalid_request', { code_challenge_method: 'plain' }],
  ['no code_challenge_method', 'invalid_request', { code_challenge_method: undefined }],
  ['a code_challenge that is not S256-shaped', 'invalid_request', { code_challenge: 'short' }],
  ['no resource', 'invalid_target', { resource: undefined }],
  ['a foreign resource', 'invalid_target', { resource: 'https://evil.example/<b>mcp</b>' }],
  ['this /mcp with a trailing slash', 'invalid_target', { resource: 'SELF/' }],
];
const EVIL = 'https://evil.example/cb';

describe('a registered client nobody approved in this browser: every problem is shown here, never redirected (RFC 9700 §4.11.2)', () => {
  for (const [what, error, over] of PROBLEMS) {
    test(`${what}: a 400 page naming ${error}, no Location, the input escaped`, async () => {
      const { json } = await register([EVIL]);
      const params = { ...over, redirect_uri: EVIL, ...(over.resource === 'SELF/' ? { resource: `${s.url}/mcp/` } : {}) };
      const res = await fetch(authorizeUrl(s, json.client_id, newVerifier(), params), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await res.text();
      expect(html).toContain(`OAuth error ${error}`);
      expect(html).not.toContain('<b>mcp</b>');
      expect(html).not.toContain('evil.example/cb');
    });
  }
});

describe('once this browser approved the client with that redirect URI, a problem goes back to it (RFC 6749 §4.1.2.1)', () => {
  let agent: { key: string };
  let clientId: string;
  let trust: string;
  beforeAll(async () => {
    agent = await s.register('approver');
    clientId = (await register([EVIL, 'https://evil.example/other'])).json.client_id;
    const approved = await decide(authorizeUrl(s, clientId, newVerifier(), { redirect_uri: EVIL }), agent.key);
    expect(approved.status).toBe(302);
    trust = trustOf(approved);
    expect(approved.headers.getSetCookie().find((c) => c.startsWith('svc_oauth_ok_'))).toMatch(/; Path=\/authorize; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  });

  for (const [what, error, over] of PROBLEMS) {
    test(`${what}: 302 to the URI with error=${error}, the state and iss`, async () => {
      const params = { ...over, redirect_uri: EVIL, ...(over.resource === 'SELF/' ? { resource: `${s.url}/mcp/` } : {}) };
      const res = await fetch(authorizeUrl(s, clientId, newVerifier(), params), { redirect: 'manual', headers: { cookie: trust } });
      expect(res.status).toBe(302);
      const back = codeOf(res);
      expect(`${back.location.origin}${back.location.pathname}`).toBe(EVIL);
      expect(back.error).toBe(error);
      expect(back.state).toBe('st');
      expect(back.location.searchParams.get('iss')).toBe(s.url);
    });
  }

  const shownWith = async (cookie: string, id = clientId, uri = EVIL) => {
    const res = await fetch(authorizeUrl(s, id, newVerifier(), { redirect_uri: uri, response_type: 'token' }), { redirect: 'manual', headers: { cookie } });
    await res.text();
    return [res.status, res.headers.get('location')];
  };

  test('the cookie trusts that redirect URI only: another URI of the same client is still shown', async () => {
    expect(await shownWith(trust, clientId, 'https://evil.example/other')).toEqual([400, null]);
  });

  test('nor another client with the same redirect URI', async () => {
    const other = (await register([EVIL])).json.client_id;
    expect(await shownWith(trust, other)).toEqual([400, null]);
  });

  test('a forged or altered cookie value is no trust', async () => {
    const [name, value] = trust.split('=') as [string, string];
    expect(await shownWith(`${name}=${value.slice(1)}A`)).toEqual([400, null]);
    expect(await shownWith(`${name}=`)).toEqual([400, null]);
  });

  test("another browser (no cookie) is not redirected: one person's approval trusts nothing for others", async () => {
    expect(await shownWith('')).toEqual([400, null]);
  });

  test('a denial sets no trust', async () => {
    const id = (await register([EVIL])).json.client_id;
    const denied = await decide(authorizeUrl(s, id, newVerifier(), { redirect_uri: EVIL }), agent.key, 'deny');
    expect(denied.status).toBe(302);
    expect(denied.headers.getSetCookie().some((c) => c.startsWith('svc_oauth_ok_'))).toBe(false);
  });

  test('a well-formed request gets the consent page either way', async () => {
    for (const cookie of [trust, '']) {
      const res = await fetch(authorizeUrl(s, clientId, newVerifier(), { redirect_uri: EVIL }), { redirect: 'manual', headers: { cookie } });
      expect(res.status).toBe(200);
      await res.text();
    }
  });
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
});
