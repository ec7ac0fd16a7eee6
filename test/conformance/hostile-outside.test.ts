// Hostile inputs against the outside-facing parts: the MCP endpoint and its OAuth server, outreach
// (routes, stop links, the inbound listener's parser) and the Show lane's reporter writes. Each
// table row is one ugly input; every answer must be a documented refusal (never 500, never a stack
// trace), a refusal stores nothing, and text a person or agent later reads is cleaned and escaped.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import nodemailer from 'nodemailer';
import { receiveMessage } from '../../src/outreach/inbound.ts';
import { link, mcpPost, openPage, REDIRECT, type Served, serve } from '../mcp/harness.ts';
import { makeOutreachApp, outreachEnv } from '../outreach/harness.ts';
import { makeShowApp } from '../show/harness.ts';

const LONE = JSON.parse('"a\\ud800b"') as string;
const BIDI = '\u202Emoc.elgoog';
const HTML = '<img src=x onerror=alert(1)><script>alert(1)</script>';

/** An envelope answer: the spec's shape, a known code, no stack trace. */
function envelope(r: { status: number; json: any; text: string }, status: number, code: string) {
  expect([r.status, r.json?.error?.code]).toEqual([status, code]);
  expect(typeof r.json.error.message).toBe('string');
  expect(typeof r.json.docs).toBe('string');
  expect(r.text).not.toMatch(/\n\s+at |\.ts:\d+/);
}

// ---- MCP and OAuth ----------------------------------------------------------------------------

describe('MCP and OAuth', () => {
  let s: Served;
  let token = '';
  beforeAll(async () => {
    s = serve({ SVC_MCP_REGISTRATIONS_PER_HOUR: '200' });
    const a = await s.register('outside_user');
    token = (await link(s, a.key)).tokens.access_token;
  });
  afterAll(() => {
    expect(s.faults).toEqual([]);
    s.stop();
  });

  const rpc = async (body: unknown, raw = false) => {
    const res = await mcpPost(s, token, raw ? (body as string) : JSON.stringify(body));
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : null };
  };
  const call = (name: unknown, args?: unknown) =>
    rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, ...(args === undefined ? {} : { arguments: args }) } });

  // [what, body (raw text), status, JSON-RPC error code or null for a result]
  const MESSAGES: [string, string, number, number | null][] = [
    ['not JSON', '{"jsonrpc":', 400, -32700],
    ['JSON null', 'null', 400, -32700],
    ['a number', '5', 400, -32700],
    ['a string', '"tools/list"', 400, -32700],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":1,"method":"ping"}', 400, -32700],
    ['no jsonrpc member', '{"id":1,"method":"ping"}', 400, -32700],
    ['an object id', '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', 400, -32700],
    ['20 000 levels of nesting', `${'['.repeat(20000)}${']'.repeat(20000)}`, 400, -32600], // valid JSON, refused for its depth before the SDK reads it
    ['an unknown method', '{"jsonrpc":"2.0","id":1,"method":"resources/delete"}', 200, -32601],
    ['tools/list with params a number', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":5}', 400, -32700],
    ['tools/list with cursor a number', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":5}}', 200, -32602],
    ['tools/call with arguments a string', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_thread","arguments":"x"}}', 200, -32602],
    ['tools/call with arguments an array', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_thread","arguments":["x"]}}', 200, -32602],
    ['tools/call with name a number', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":12}}', 200, -32602],
    ['tools/call with no params', '{"jsonrpc":"2.0","id":1,"method":"tools/call"}', 200, -32602],
    ['a BOM before the message', '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}', 200, null],
    ['a batch of 101', JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))), 400, -32600],
  ];
  test.each(MESSAGES)('/mcp: %s', async (_what, body, status, code) => {
    const r = await rpc(body, true);
    expect(r.status).toBe(status);
    expect(r.json.jsonrpc).toBe('2.0');
    expect(r.json.error?.code ?? null).toBe(code);
    // -32603 is the server failing; a caller's mistake is never answered with it.
    expect(r.text).not.toContain('-32603');
  });

  test('a 10 MB message is 413 before it is read; an empty batch asks nothing', async () => {
    const big = await rpc(`{"jsonrpc":"2.0","id":1,"method":"ping","x":"${'a'.repeat(10 * 1024 * 1024)}"}`, true);
    expect([big.status, big.json.error.code]).toEqual([413, -32000]);
    expect((await rpc('[]', true)).status).toBe(202);
  });

  // Path parameters that are empty or dot segments would address another route than the tool's.
  const PATHS: [string, Record<string, unknown>][] = [
    ["id '.' (would read the feed)", { id: '.' }],
    ["id '..' (would climb to /v1/)", { id: '..' }],
    ['id missing', {}],
    ['id null', { id: null }],
    ['id whitespace', { id: '  ' }],
  ];
  test.each(PATHS)('read_thread with %s is a tool error INVALID_REQUEST, never another route', async (_what, args) => {
    const r = await call('read_thread', args);
    expect(r.status).toBe(200);
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result.structuredContent.error.code).toBe('INVALID_REQUEST');
    expect(r.json.result.structuredContent.error.details.fields[0].field).toBe('id');
    expect(r.text).not.toContain('"posts"');
  });

  test("reply with id '..' writes nothing anywhere; an id of another kind is the route's own 404", async () => {
    const dots = await call('reply_to_post', { id: '..', body: 'hello there' });
    expect(dots.json.result.structuredContent.error.code).toBe('INVALID_REQUEST');
    const other = await call('reply_to_post', { id: crypto.randomUUID(), body: 'hello there' });
    expect(other.json.result.structuredContent.error.code).toBe('NOT_FOUND');
    // Percent signs are the id's own characters: encoded, they reach the tool's route and are its 404.
    for (const id of ['%2e%2e', '.%2E', '../..', '..\\..']) {
      const escaped = await call('read_thread', { id });
      expect([id, escaped.json.result.structuredContent.error.code]).toEqual([id, 'NOT_FOUND']);
      expect(escaped.json.result.structuredContent.error.details.id).toBe(id);
    }
    const wrong = await call('create_thread', { topic: 5, title: null, body: ['x'] });
    expect(wrong.json.result.structuredContent.error.code).toBe('INVALID_REQUEST');
    const huge = await call('create_thread', { topic: 'general', title: 'x'.repeat(100_000), body: 'y' });
    expect(huge.json.result.structuredContent.error.code).toBe('PAYLOAD_TOO_LARGE');
    // An unknown tool is a protocol error (MCP: JSON-RPC -32602), naming where the tools are listed.
    const unknown = await call('no_such_tool', {});
    expect(unknown.json.error).toMatchObject({ code: -32602, message: expect.stringContaining('tools/list') });
    expect(unknown.json.result).toBeUndefined();
  });

  const register = (body: string, type = 'application/json') =>
    fetch(`${s.url}/register`, { method: 'POST', headers: { 'content-type': type }, body }).then(async (r) => ({ status: r.status, json: await r.json() }));
  const meta = (over: Record<string, unknown>) => JSON.stringify({ redirect_uris: [REDIRECT], ...over });

  const REGISTRATIONS: [string, string, string, number, string][] = [
    ['a form body', 'redirect_uris=x', 'application/x-www-form-urlencoded', 400, 'invalid_client_metadata'],
    ['not JSON', '{"redirect_uris":', 'application/json', 400, 'invalid_client_metadata'],
    ['JSON null', 'null', 'application/json', 400, 'invalid_client_metadata'],
    ['an array', '[]', 'application/json', 400, 'invalid_client_metadata'],
    ['redirect_uris a string', '{"redirect_uris":"https://a.example/cb"}', 'application/json', 400, 'invalid_client_metadata'],
    ['redirect_uris empty', '{"redirect_uris":[]}', 'application/json', 400, 'invalid_redirect_uri'],
    [
      'redirect_uris 11',
      JSON.stringify({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }),
      'application/json',
      400,
      'invalid_redirect_uri',
    ],
    ['a javascript: redirect', meta({ redirect_uris: ['javascript:alert(1)'] }), 'application/json', 400, 'invalid_client_metadata'],
    ['a data: redirect', meta({ redirect_uris: ['data:text/html,x'] }), 'application/json', 400, 'invalid_client_metadata'],
    ['a file: redirect', meta({ redirect_uris: ['file:///etc/passwd'] }), 'application/json', 400, 'invalid_redirect_uri'],
    ['a redirect with a fragment', meta({ redirect_uris: ['https://a.example/cb#x'] }), 'application/json', 400, 'invalid_redirect_uri'],
    ['http off loopback', meta({ redirect_uris: ['http://evil.example/cb'] }), 'application/json', 400, 'invalid_redirect_uri'],
    ['client_name a number', meta({ client_name: 5 }), 'application/json', 400, 'invalid_client_metadata'],
    ['grant_types client_credentials', meta({ grant_types: ['client_credentials'] }), 'application/json', 400, 'invalid_client_metadata'],
    ['a 20 kB body', meta({ client_name: 'x'.repeat(20_000) }), 'application/json', 400, 'invalid_client_metadata'],
  ];
  test.each(REGISTRATIONS)('/register with %s: 400', async (_what, body, type, status, error) => {
    const r = await register(body, type);
    expect([r.status, r.json.error]).toEqual([status, error]);
    expect(typeof r.json.error_description).toBe('string');
  });

  // [what, client_name sent, client_name stored and shown]
  const NAMES: [string, string, string | undefined][] = [
    ['hostile HTML', HTML, HTML],
    ['a bidi override (looks like google.com)', `Helper ${BIDI}`, 'Helper moc.elgoog'],
    ['zero-width and control characters', 'Ass\u200bist\u0000ant\u0007', 'Ass ist ant'],
    ['a lone surrogate', LONE, 'a b'],
    ['only bidi marks and spaces', ' \u202e\u2066 ', undefined],
    ['300 emoji (cut at whole characters)', '😀'.repeat(300), '😀'.repeat(200)],
  ];
  test.each(NAMES)('client_name with %s is stored clean and shown escaped on the consent page', async (_what, sent, shown) => {
    const reg = await register(meta({ client_name: sent, client_uri: `https://example.org/${BIDI}` }));
    expect(reg.status).toBe(201);
    expect(reg.json.client_name).toBe(shown);
    expect(reg.json.client_uri ?? '').not.toMatch(/[\u202a-\u202e\ud800-\udfff](?![\udc00-\udfff])/);
    const verifier = 'v'.repeat(43);
    const u = new URL(`${s.url}/authorize`);
    for (const [k, val] of Object.entries({
      response_type: 'code',
      client_id: reg.json.client_id,
      redirect_uri: REDIRECT,
      code_challenge: new Bun.CryptoHasher('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: `<b>${'s'.repeat(10)}</b>`,
      resource: `${s.url}/mcp`,
    }))
      u.searchParams.set(k, val);
    const page = await openPage(u);
    expect(page.res.status).toBe(200);
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).not.toContain('<script>alert');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be shown
    expect(page.html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b\u0000\u0007]/);
    if (shown === HTML) expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  const form = (path: string, body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(`${s.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': type }, body });
  // [path, what, body, content type, status, error (JSON) or null (an HTML page)]
  const FORMS: [string, string, string, string, number, string | null][] = [
    ['/token', 'a JSON body', '{"grant_type":"authorization_code"}', 'application/json', 400, 'invalid_request'],
    ['/token', 'no content type', 'grant_type=authorization_code', '', 400, 'invalid_request'],
    ['/token', 'grant_type twice', 'grant_type=authorization_code&grant_type=refresh_token', 'application/x-www-form-urlencoded', 400, 'invalid_request'],
    ['/token', 'an unknown grant', 'grant_type=password', 'application/x-www-form-urlencoded', 400, 'unsupported_grant_type'],
    ['/token', 'a 10 MB body', `code=${'a'.repeat(10 * 1024 * 1024)}`, 'application/x-www-form-urlencoded', 400, 'invalid_request'],
    [
      '/token',
      'broken percent escapes and NUL',
      'grant_type=authorization_code&code=%ZZ%00%&code_verifier=%E0%A4%A',
      'application/x-www-form-urlencoded',
      400,
      'invalid_request',
    ],
    [
      '/token',
      'a code of 4 000 characters',
      `grant_type=authorization_code&code=${'c'.repeat(4000)}&code_verifier=${'v'.repeat(43)}&redirect_uri=x&client_id=y&resource=z`,
      'application/x-www-form-urlencoded',
      400,
      'invalid_target',
    ],
    ['/revoke', 'a JSON body', '{"token":"x"}', 'application/json', 400, 'invalid_request'],
    ['/revoke', 'no token', 'token_type_hint=access_token', 'application/x-www-form-urlencoded', 400, 'invalid_request'],
    ['/authorize', 'a JSON body', '{"decision":"approve"}', 'application/json', 400, null],
    ['/authorize', 'a forged request id', 'request_id=..%2F..&csrf_token=x&decision=approve&api_key=svc_x', 'application/x-www-form-urlencoded', 400, null],
    ['/authorize', 'a 10 MB body', `api_key=${'a'.repeat(10 * 1024 * 1024)}`, 'application/x-www-form-urlencoded', 400, null],
  ];
  test.each(FORMS)('%s with %s: refused in its own format', async (path, _what, body, type, status, error) => {
    const r = await form(path, body, type);
    expect(r.status).toBe(status);
    const text = await r.text();
    if (error === null) expect(r.headers.get('content-type')).toContain('text/html');
    else expect(JSON.parse(text).error).toBe(error);
    expect(text).not.toMatch(/\n\s+at |\.ts:\d+/);
  });

  test('/authorize GET: a repeated parameter, an unknown client with hostile text, a huge state: a page, never a redirect to an unchecked URI', async () => {
    const dup = await fetch(`${s.url}/authorize?client_id=a&client_id=b`, { redirect: 'manual' });
    expect(dup.status).toBe(400);
    const hostile = await fetch(`${s.url}/authorize?client_id=${encodeURIComponent(HTML)}&redirect_uri=${encodeURIComponent('javascript:alert(1)')}`, {
      redirect: 'manual',
    });
    expect(hostile.status).toBe(400);
    expect(await hostile.text()).not.toContain('<img src=x');
    const none = await fetch(`${s.url}/authorize`, { redirect: 'manual' });
    expect(none.status).toBe(400);
  });

  test('/v1/me/connections shows the cleaned client name', async () => {
    const a = await s.register('outside_lister');
    const reg = await register(meta({ client_name: `Tool ${BIDI}${LONE}` }));
    await link(s, a.key, reg.json.client_id);
    const res = await s.call('GET', '/v1/me/connections', { key: a.key });
    expect(res.json.connections[0].client_name).toBe('Tool moc.elgooga b');
    const bad = await s.call('DELETE', '/v1/me/connections/..%2F..', { key: a.key });
    expect(bad.status).toBe(404);
  });
});

// ---- Outreach --------------------------------------------------------------------------------

describe('outreach', () => {
  const env = outreachEnv();

  test('every member of the three writes with a wrong type, missing or hostile: a 400/422 envelope, nothing stored', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'hostile.base@example.org');
    const contacts = async () => (await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).json.contacts.length;
    const sentCount = async () => (await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages.length;
    const goodContact = { email: 'x.y@example.org', outlet: 'Example', source_url: 'https://press.example.org/x' };
    const goodEmail = { contact_id: cid, subject: 'Measuring cold starts', body: 'b'.repeat(250), experiment_id: ann.experiment };
    const goodPost = { channel: 'one', text: 'hello', experiment_id: ann.experiment };
    const WRONG: unknown[] = [5, ['x'], { a: 1 }, null, true];
    const rows: [string, Record<string, unknown>][] = [];
    for (const [path, good] of [
      ['/v1/outreach/contacts', goodContact],
      ['/v1/outreach/email', goodEmail],
      ['/v1/outreach/post', goodPost],
    ] as const) {
      for (const k of Object.keys(good)) {
        for (const w of WRONG) rows.push([path, { ...good, [k]: w }]);
        const { [k]: _gone, ...missing } = good as Record<string, unknown>;
        rows.push([path, missing]);
      }
    }
    for (const [path, body] of rows) {
      const r = await t.call('POST', path, { key: ann.key, body });
      expect([path, JSON.stringify(body).slice(0, 80), r.status < 500, [400, 413, 422].includes(r.status)]).toEqual([
        path,
        JSON.stringify(body).slice(0, 80),
        true,
        true,
      ]);
      expect(r.json.error.code).toMatch(/^(INVALID_REQUEST|PAYLOAD_TOO_LARGE|OUTREACH_)/);
    }
    // Text at and past its limits, control characters, lone surrogates, bidi overrides, hostile HTML.
    const TEXTS: [string, Record<string, unknown>, number, string][] = [
      ['subject with a newline', { ...goodEmail, subject: 'Measuring\r\nBcc: all@example.org' }, 422, 'OUTREACH_TEXT_INVALID'],
      ['subject 91 characters', { ...goodEmail, subject: 's'.repeat(91) }, 422, 'OUTREACH_TEXT_INVALID'],
      ['subject of whitespace', { ...goodEmail, subject: '      ' }, 422, 'OUTREACH_TEXT_INVALID'],
      ['body 1201 characters', { ...goodEmail, body: 'b'.repeat(1201) }, 422, 'OUTREACH_TEXT_INVALID'],
      ['a lone surrogate in the body', { ...goodEmail, body: `${'b'.repeat(250)}${LONE}` }, 400, 'INVALID_JSON'],
      ['contact_id of another kind', { ...goodEmail, contact_id: ann.experiment }, 404, 'NOT_FOUND'],
      ['contact_id not a uuid', { ...goodEmail, contact_id: '../../etc' }, 400, 'INVALID_REQUEST'],
      ['experiment_id a contact', { ...goodEmail, experiment_id: cid }, 422, 'OUTREACH_NOT_YOUR_EXPERIMENT'],
      ['post 601 characters', { ...goodPost, text: 'p'.repeat(601) }, 422, 'OUTREACH_POST_INVALID'],
      ['a NUL in the outlet', { ...goodContact, outlet: 'Ex\u0000ample' }, 400, 'INVALID_JSON'],
    ];
    for (const [what, body, status, code] of TEXTS) {
      const path = 'contact_id' in body ? '/v1/outreach/email' : 'channel' in body ? '/v1/outreach/post' : '/v1/outreach/contacts';
      const r = await t.call('POST', path, { key: ann.key, body });
      expect([what, r.status, r.json?.error?.code]).toEqual([what, status, code]);
    }
    for (const raw of ['{"email":', '\ufeff{}', '[]', 'null', `{"x":"${'a'.repeat(10 * 1024 * 1024)}"}`, `${'['.repeat(10000)}${']'.repeat(10000)}`]) {
      const r = await t.call('POST', '/v1/outreach/contacts', { key: ann.key, raw });
      expect(r.status < 500 && r.status >= 400).toBe(true);
      expect(typeof r.json.error.code).toBe('string');
    }
    expect(await contacts()).toBe(1);
    expect(await sentCount()).toBe(0);
  });

  test('20 identical contacts at once: one row, the others answer it as duplicate', async () => {
    const t = await makeOutreachApp(env, { mode: 'review' });
    const ann = await t.resident('ann');
    const url = t.page('press.example.org', '/team/race', 'race.same@example.org');
    const all = await Promise.all(Array.from({ length: 20 }, () => t.contact(ann, { email: 'Race.Same@example.org', outlet: 'Example', source_url: url })));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(new Set(all.map((r) => r.json.contact_id)).size).toBe(1);
    expect((await t.call('GET', '/v1/outreach/contacts', { key: ann.key })).json.contacts.length).toBe(1);
  });

  test('the public log and the sent list: forged, truncated and foreign cursors, repeated and huge parameters', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const open = { headers: { 'x-agent-protocol': '', 'content-type': '' } };
    for (const q of ['before=AAAA', 'before=%00', `before=${'z'.repeat(5000)}`, 'limit=-1', 'limit=1e3', 'limit=abc', 'limit=1&limit=2', 'before=1&before=2']) {
      const r = await t.call('GET', `/api/outreach/log?${q}`, open);
      expect([q, r.status]).toEqual([q, 400]);
      expect(r.json.error.code).toMatch(/^INVALID_(CURSOR|LIMIT|REQUEST)$/);
    }
    const foreign = await t.call('GET', '/v1/posts?limit=1', { key: ann.key });
    const cursor = foreign.json.next_before ?? 'eyJmIjoicG9zdHMifQ';
    const wrongFeed = await t.call('GET', `/v1/outreach/sent?before=${encodeURIComponent(cursor)}`, { key: ann.key });
    envelope(wrongFeed, 400, 'INVALID_CURSOR');
    const page = await t.call('GET', `/outreach?before=${encodeURIComponent('<script>')}`, {
      headers: { accept: 'text/html', 'x-agent-protocol': '', 'content-type': '' },
    });
    expect(page.status).toBe(400);
    expect(page.text).not.toContain('<script>');
  });

  test('stop and unsubscribe tokens: hostile, huge, uppercase, traversal: a 404 or 400 page that changes nothing', async () => {
    const t = await makeOutreachApp(env);
    for (const token of ['x', '<script>alert(1)</script>', 'A'.repeat(64), 'a'.repeat(63), '..%2F..%2Fv1', '%00', 'f'.repeat(129)]) {
      for (const [method, path] of [
        ['GET', '/outreach/stop/'],
        ['POST', '/outreach/stop/'],
        ['GET', '/outreach/unsubscribe/'],
        ['POST', '/outreach/unsubscribe/'],
      ] as const) {
        const r = await t.call(method, `${path}${encodeURIComponent(token)}`, { headers: { 'x-agent-protocol': '', accept: '*/*', 'content-type': '' } });
        expect([token, method, path, [400, 404].includes(r.status)]).toEqual([token, method, path, true]);
        expect(r.text).not.toContain('<script>alert');
      }
    }
  });

  async function mime(opts: Record<string, unknown>): Promise<Buffer> {
    const tr = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    return (await tr.sendMail(opts)).message as Buffer;
  }

  test('inbound: a huge subject, a header-injection subject, a split emoji, malformed MIME: stored cut at whole characters, forwarded with one subject line', async () => {
    const t = await makeOutreachApp(env);
    const ann = await t.resident('ann');
    const cid = await t.addContact(ann, 'writer.in@example.org');
    const sent = await t.email(ann, { contact_id: cid });
    expect(sent.json.status).toBe('sent');
    const ref = `<${sent.json.message_id}@svc.example>`;
    const envelope = { ip: '203.0.113.9', helo: 'mail.example.org', sender: 'writer.in@example.org' };
    const before = env.relay.messages.length;
    const injected = `Re: hi\r\nBcc: everyone@example.net\r\n\r\n<b>x</b>`;
    const raws = [
      await mime({
        from: 'writer.in@example.org',
        to: 'outreach@svc.example',
        inReplyTo: ref,
        subject: `${'😀'.repeat(400)}`,
        text: `${'a'.repeat(499)}😀 tail`,
      }),
      await mime({ from: 'writer.in@example.org', to: 'outreach@svc.example', inReplyTo: ref, subject: injected, text: `hello\u0000\u0007 ${HTML}` }),
      Buffer.from(
        `From: writer.in@example.org\r\nIn-Reply-To: ${ref}\r\nContent-Type: multipart/mixed; boundary="x"\r\nSubject: =?utf-8?B?${Buffer.from('Hi\r\nBcc: a@b.c').toString('base64')}?=\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nunterminated`,
      ),
      Buffer.from('\u0000\u0001 not a message at all'),
      Buffer.from(`Subject: ${'x'.repeat(200_000)}\r\n\r\nbody`),
    ];
    for (const raw of raws) await receiveMessage(t.ctx, raw, envelope);
    const replies = (await t.call('GET', '/v1/outreach/sent', { key: ann.key })).json.messages[0].replies as { subject: string | null; excerpt: string }[];
    expect(replies.length).toBeGreaterThanOrEqual(3);
    for (const r of [...replies]) {
      for (const text of [r.subject ?? '', r.excerpt]) {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be left
        expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        expect(Array.from(text).length).toBeLessThanOrEqual(500);
      }
    }
    const emoji = replies.find((r) => r.subject?.startsWith('😀'))!;
    expect(Array.from(emoji.subject!).length).toBe(300);
    expect(emoji.excerpt.endsWith('😀')).toBe(true);
    // Every forward carries one Subject line and no header the sender wrote into it.
    const forwards = env.relay.messages.slice(before).filter((m) => m.to.includes('owner@svc.example'));
    expect(forwards.length).toBe(raws.length);
    for (const f of forwards) {
      const head = f.raw.split(/\r?\n\r?\n/)[0]!;
      expect(head.match(/^Subject:/gim)?.length).toBe(1);
      expect(head).not.toMatch(/^Bcc:/im);
    }
  });
});

// ---- The Show lane's reporter writes ------------------------------------------------------------

describe('Show lane', () => {
  test('posted and metrics: wrong types, unknown members, ids that are not uuids or of another kind: an envelope, nothing recorded', async () => {
    const t = makeShowApp();
    const reporter = await t.withRole('reporter_x', 'reporter');
    const crew = await t.crew('crew_x');
    const root = await t.root(crew);
    const POSTED: [string, string, Record<string, unknown>, number, string][] = [
      ['url a number', root, { url: 5, published_at: '2026-11-23T12:30:00Z' }, 400, 'INVALID_REQUEST'],
      ['url javascript:', root, { url: 'javascript:alert(1)', published_at: '2026-11-23T12:30:00Z' }, 400, 'INVALID_REQUEST'],
      ['url 501 characters', root, { url: `https://x.com/${'a'.repeat(487)}`, published_at: '2026-11-23T12:30:00Z' }, 400, 'INVALID_REQUEST'],
      ['published_at not a date', root, { url: 'https://x.com/1', published_at: 'yesterday' }, 400, 'INVALID_REQUEST'],
      ['an unknown member', root, { url: 'https://x.com/1', published_at: '2026-11-23T12:30:00Z', admin: true }, 400, 'INVALID_REQUEST'],
      ['missing members', root, {}, 400, 'INVALID_REQUEST'],
      ['an id not a uuid', '..', { url: 'https://x.com/1', published_at: '2026-11-23T12:30:00Z' }, 404, 'NOT_FOUND'],
      ['an id of an account', reporter.id, { url: 'https://x.com/1', published_at: '2026-11-23T12:30:00Z' }, 404, 'NOT_FOUND'],
      ['an id of 65 characters', 'a'.repeat(65), { url: 'https://x.com/1', published_at: '2026-11-23T12:30:00Z' }, 400, 'INVALID_REQUEST'],
      ['a root not picked', root, { url: 'https://x.com/1', published_at: '2026-11-23T12:30:00Z' }, 409, 'SHOW_NOT_PUBLISHABLE'],
    ];
    for (const [what, id, body, status, code] of POSTED) {
      const r = await t.posted(reporter, encodeURIComponent(id), body);
      expect([what, r.status, r.json?.error?.code]).toEqual([what, status, code]);
    }
    const METRICS: [string, Record<string, unknown>, number, string][] = [
      ['checkpoint 3h', { checkpoint: '3h', likes: 1, reposts: 1, replies: 1, quotes: 1 }, 400, 'INVALID_REQUEST'],
      ['likes negative', { checkpoint: '2h', likes: -1, reposts: 1, replies: 1, quotes: 1 }, 400, 'INVALID_REQUEST'],
      ['likes a float', { checkpoint: '2h', likes: 1.5, reposts: 1, replies: 1, quotes: 1 }, 400, 'INVALID_REQUEST'],
      ['likes a string', { checkpoint: '2h', likes: '1', reposts: 1, replies: 1, quotes: 1 }, 400, 'INVALID_REQUEST'],
      ['likes 1e300', { checkpoint: '2h', likes: 1e300, reposts: 1, replies: 1, quotes: 1 }, 400, 'INVALID_REQUEST'],
      ['not posted yet', { checkpoint: '2h', likes: 1, reposts: 1, replies: 1, quotes: 1 }, 409, 'SHOW_NOT_POSTED'],
    ];
    for (const [what, body, status, code] of METRICS) {
      const r = await t.metrics(reporter, root, body);
      expect([what, r.status, r.json?.error?.code]).toEqual([what, status, code]);
    }
    const notReporter = await t.posted(crew, root);
    envelope(notReporter, 403, 'NOT_ALLOWED');
    const d = await t.doc();
    const item = [...d.items, ...d.outside].find((i: { id: string }) => i.id === root);
    expect(item.x).toBe(null);
  });

  test('Show roots with hostile text are stored as text and the document answers it as data', async () => {
    const t = makeShowApp();
    const crew = await t.crew('crew_y');
    const hook = `${HTML} ${BIDI}`;
    const r = await t.post(crew, { topic: 'svc-show', title: `Show: ${hook}`, body: `${hook}\nWe measured things.\nFormat: post\nAudience: x\nEvidence: y` });
    expect(r.status < 500).toBe(true);
    if (r.status !== 200) expect(typeof r.json.error.code).toBe('string');
    const show = await t.doc();
    expect(JSON.stringify(show)).not.toContain('\\u0000');
  });
});
