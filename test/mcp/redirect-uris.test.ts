// Redirect URIs as a browser reads them. RFC 8252 §7.3 (and OAuth 2.1 §8.4.2): an http redirect URI
// on a loopback host (127.0.0.1, [::1], and localhost, which svc treats as loopback) matches at any
// port at /authorize, everything else exact; every other URI is matched as the exact string. A URI
// that a browser reads otherwise than it is written (a backslash, which WHATWG URL parsing turns into
// `/`, or another spelling of its host) is refused at /register with invalid_redirect_uri (RFC 7591),
// and the consent page names the origin the browser will really go to.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mcpStore } from '../../src/mcp/store.ts';
import { authorizeUrl, codeOf, decide, exchangeCode, newVerifier, openPage, type Served, serve } from './harness.ts';

let s: Served;
let agent: { key: string };
beforeAll(async () => {
  s = serve({ SVC_MCP_REGISTRATIONS_PER_HOUR: '1000', SVC_MCP_AUTHORIZE_PER_HOUR: '1000' });
  agent = await s.register('port_agent');
});
afterAll(() => s?.stop());

const register = (redirect_uris: string[]) =>
  fetch(`${s.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris }) }).then(async (r) => ({
    status: r.status,
    json: await r.json(),
  }));
const clients = () => (s.db.query('SELECT count(*) AS n FROM mcp_clients').get() as { n: number }).n;
const pending = () => (s.db.query('SELECT count(*) AS n FROM mcp_pending').get() as { n: number }).n;

const REGISTERED = ['http://127.0.0.1/callback', 'http://localhost:33333/cb', 'http://[::1]:8080/cb?x=1', 'https://app.example/cb'];

describe('RFC 8252 §7.3: a loopback http redirect URI matches at any port, all else exact', () => {
  let clientId: string;
  beforeAll(async () => {
    const r = await register(REGISTERED);
    expect(r.status).toBe(201);
    clientId = r.json.client_id;
  });
  const page = async (redirect_uri: string) => {
    const res = await fetch(authorizeUrl(s, clientId, newVerifier(), { redirect_uri }), { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };

  // LOCALHOST in capitals is the same host to a browser (it goes to localhost:4).
  for (const uri of [
    'http://127.0.0.1:51234/callback',
    'http://localhost:40000/cb',
    'http://[::1]:9/cb?x=1',
    'http://localhost:33333/cb',
    'http://LOCALHOST:4/cb',
  ]) {
    test(`${uri}: the consent page`, async () => {
      expect((await page(uri)).status).toBe(200);
    });
  }

  test('approved at an ephemeral port: the code goes to that port, and is exchanged with that redirect_uri only', async () => {
    const asked = 'http://127.0.0.1:51234/callback';
    const verifier = newVerifier();
    const back = await decide(authorizeUrl(s, clientId, verifier, { redirect_uri: asked }), agent.key);
    expect(back.status).toBe(302);
    const { code, location } = codeOf(back);
    expect(`${location.origin}${location.pathname}`).toBe(asked);
    // The registered form (no port) is another redirect_uri than the request's: the code stays unspent.
    const other = await exchangeCode(s, clientId, code, verifier, { redirect_uri: 'http://127.0.0.1/callback' });
    expect([other.status, ((await other.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    const left = await exchangeCode(s, clientId, code, verifier, { redirect_uri: undefined });
    expect([left.status, ((await left.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
    const ok = await exchangeCode(s, clientId, code, verifier, { redirect_uri: asked });
    expect(ok.status).toBe(200);
  });

  const NOT_REGISTERED: [string, string][] = [
    ['another path', 'http://127.0.0.1:5/callback/'],
    ['another query', 'http://[::1]:8080/cb?x=2'],
    ['no query', 'http://[::1]:8080/cb'],
    ['localhost for a 127.0.0.1 registration', 'http://localhost:51234/callback'],
    ['127.0.0.1 for a localhost registration', 'http://127.0.0.1:33333/cb'],
    ['https on the loopback host', 'https://127.0.0.1:51234/callback'],
    ['another port of an https URI', 'https://app.example:8443/cb'],
    ['another 127/8 address', 'http://127.0.0.2:5/callback'],
    ['the loopback host spelt 127.1', 'http://127.1:5/callback'],
    ['the loopback host spelt as one number', 'http://2130706433:5/callback'],
    ['a user name before the loopback host', 'http://x@127.0.0.1:5/callback'],
    ['a backslash after the loopback host', 'http://127.0.0.1:5\\callback'],
  ];
  for (const [what, uri] of NOT_REGISTERED) {
    test(`near miss, ${what} (${uri}): a 400 page, no Location, no pending request`, async () => {
      const before = pending();
      const r = await page(uri);
      expect([r.status, r.location]).toEqual([400, null]);
      expect(r.html).toContain('Redirect URI not registered');
      expect(pending()).toBe(before);
    });
  }
});

describe('/register: a redirect URI whose host a browser reads otherwise than written is invalid_redirect_uri', () => {
  const REFUSED: [string, string][] = [
    ['a backslash before an @ (reads as good.example, goes to evil.example)', 'https://evil.example\\@good.example/'],
    ['a backslash after a loopback host', 'http://127.0.0.1\\evil.example/'],
    ['a backslash in the path', 'https://app.example/a\\b'],
    ['127.1', 'http://127.1/cb'],
    ['a hexadecimal loopback address', 'http://0x7f000001/cb'],
    ['a loopback address as one number', 'http://2130706433/cb'],
    ['a percent-encoded localhost', 'http://%6c%6f%63%61%6c%68%6f%73%74:5/cb'],
    ['a long form of [::1]', 'http://[0:0::1]:5/cb'],
    ['a Unicode host (the browser goes to its punycode)', 'https://bücher.example/cb'],
    ['an empty fragment', 'https://app.example/cb#'],
  ];
  for (const [what, uri] of REFUSED) {
    test(`${what}: ${uri}`, async () => {
      const before = clients();
      const r = await register([uri]);
      expect([r.status, r.json.error]).toEqual([400, 'invalid_redirect_uri']);
      expect(r.json.error_description).toContain('redirect URI');
      expect(clients()).toBe(before);
    });
  }

  test('the refusal names the form to write instead', async () => {
    const r = await register(['http://127.1/cb']);
    expect(r.json.error_description).toContain('"127.0.0.1"');
  });

  test('near miss: the same URIs written as a browser reads them are registered', async () => {
    for (const uri of [
      'https://evil.example/@good.example/',
      'http://127.0.0.1/cb',
      'http://localhost:5/cb',
      'https://app.example/',
      'https://xn--bcher-kva.example/cb',
      'https://app.example/c%20b',
      // What a browser reads the same is taken as written (VS Code shows http://127.0.0.1:33418 for a hand-entered client id).
      'https://App.example/cb',
      'https://app.example:443/cb',
      'https://app.example',
      'http://127.0.0.1:33418',
      'https://app.example/c b',
    ]) {
      const r = await register([uri]);
      expect([uri, r.status]).toEqual([uri, 201]);
      expect(r.json.redirect_uris).toEqual([uri]);
    }
  });

  test('a URI stored before this rule (a backslash) is not shown or redirected to by /authorize', async () => {
    const legacy = 'https://evil.example\\@good.example/';
    mcpStore(s.db).insertRegistered.run('mcp_client_backslash', 'Legacy', null, JSON.stringify([legacy]), '{}', 'test', s.clock.now());
    const before = pending();
    const res = await fetch(authorizeUrl(s, 'mcp_client_backslash', newVerifier(), { redirect_uri: legacy }), { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([400, null]);
    expect(await res.text()).toContain('Redirect URI not accepted');
    expect(pending()).toBe(before);
  });
});

describe('the consent page names where the browser goes: the parsed origin, prominently, and the full URI', () => {
  test('an https URI: its origin in bold, the full URI listed', async () => {
    const uri = 'https://evil.example/@good.example/?x=1';
    const { json } = await register([uri]);
    const p = await openPage(authorizeUrl(s, json.client_id, newVerifier(), { redirect_uri: uri }));
    expect(p.res.status).toBe(200);
    expect(p.html).toMatch(/id="destination">[^<]*<strong><code>https:\/\/evil\.example<\/code><\/strong>, the web site <strong>evil\.example<\/strong>/);
    expect(p.html).toContain('<code>https://evil.example/@good.example/?x=1</code>');
    // The page says it before the untrusted details and before the form.
    expect(p.html.indexOf('id="destination"')).toBeLessThan(p.html.indexOf('<dl'));
  });

  test('a loopback URI at another port than registered: this computer, at the port asked for', async () => {
    const { json } = await register(['http://127.0.0.1/callback']);
    const p = await openPage(authorizeUrl(s, json.client_id, newVerifier(), { redirect_uri: 'http://127.0.0.1:51234/callback' }));
    expect(p.html).toContain('<strong><code>http://127.0.0.1:51234</code></strong>, a program on this computer (port 51234)');
    expect(p.res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:51234;");
  });
});

test('every answer matched the description', () => {
  expect(s.faults).toEqual([]);
});
