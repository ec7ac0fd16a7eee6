// Console passkeys through HTTP with a software authenticator: register, sign in, list, remove,
// and every refusal (replayed or expired challenge, wrong origin, unknown passkey, a role or key
// gone since registration, another ceremony's challenge), plus SVC_CONSOLE_KEY_SIGNIN=off.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { CHALLENGE_MS } from '../../src/admin/console/passkeys.ts';
import { BASE, makeApp } from '../helpers.ts';
import { SoftPasskey } from './authenticator.ts';

type T = ReturnType<typeof makeApp>;
const ORIGIN = 'http://svc.test';

async function send(t: T, method: string, path: string, opts: { cookie?: string; json?: unknown; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { accept: opts.json === undefined ? 'text/html' : 'application/json' };
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await t.app.handle(new Request(`${BASE}${path}`, { method, headers, body }));
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

async function keySignIn(t: T, key: string) {
  const r = await send(t, 'POST', '/console/sign-in', { form: { key } });
  if (r.status !== 303) return { status: r.status, text: r.text, cookie: '', csrf: '' };
  const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
  const page = await send(t, 'GET', '/console/passkeys', { cookie });
  return { status: 303, text: '', cookie, csrf: /data-csrf="([^"]+)"/.exec(page.text)![1]! };
}

async function owner(t: T, name = 'boss', role = 'owner') {
  const a = await t.register(name);
  runAdmin(t.ctx, ['role', 'grant', name, role]);
  return { key: a.key, ...(await keySignIn(t, a.key)) };
}

async function registerPasskey(t: T, s: { cookie: string; csrf: string }, pk = new SoftPasskey(), origin = ORIGIN) {
  const o = await send(t, 'POST', '/console/passkeys/options', { cookie: s.cookie, json: { csrf: s.csrf } });
  expect(o.status).toBe(200);
  return { pk, r: await send(t, 'POST', '/console/passkeys/register', { cookie: s.cookie, json: { csrf: s.csrf, credential: pk.create(o.json, origin) } }) };
}

async function passkeySignIn(t: T, pk: SoftPasskey, origin = ORIGIN) {
  const o = await send(t, 'POST', '/console/passkey/options', { json: {} });
  expect(o.status).toBe(200);
  const credential = pk.get(o.json, origin);
  return { credential, r: await send(t, 'POST', '/console/passkey/sign-in', { json: { credential } }) };
}

describe('console passkeys', () => {
  test('register, then sign in with it: the same session cookie as a key; counter and last use kept; listed, audited', async () => {
    const t = makeApp();
    const s = await owner(t);
    const { pk, r } = await registerPasskey(t, s);
    expect(r.status).toBe(200);
    const row = t.db.query<any, []>('SELECT * FROM console_passkeys').get()!;
    expect(row.credential_id).toBe(r.json.credential_id);
    expect([row.counter, JSON.parse(row.transports), row.last_used_at]).toEqual([1, ['internal'], null]);
    const signIn = await passkeySignIn(t, pk);
    expect(signIn.r.status).toBe(200);
    expect(signIn.r.json).toEqual({ location: '/console/queue' });
    const setCookie = signIn.r.headers.get('set-cookie')!;
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const cookie = setCookie.split(';')[0]!;
    expect((await send(t, 'GET', '/console/queue', { cookie })).status).toBe(200);
    const after = t.db.query<any, []>('SELECT counter, last_used_at FROM console_passkeys').get()!;
    expect(after).toEqual({ counter: 2, last_used_at: t.clock.now() });
    const page = await send(t, 'GET', '/console/passkeys', { cookie });
    expect(page.text).toContain(r.json.credential_id.slice(0, 16));
    expect(page.headers.get('content-security-policy')).toContain(`script-src ${ORIGIN}/console/passkey.js;`);
    expect(t.db.query('SELECT actor, action FROM audit_log ORDER BY seq').all()).toContainEqual({ actor: 'boss', action: 'passkey register' });
  });

  test('the sign-in page carries the passkey button and allows only the service’s own script, by its full address', async () => {
    const t = makeApp();
    const page = await send(t, 'GET', '/console');
    expect(page.text).toContain('id="passkey-sign-in"');
    expect(page.text).toContain('<script src="/console/passkey.js"');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src ${ORIGIN}/console/passkey.js;`);
    // Not the whole origin: that would admit the agents' lab files (/lab/…, text/javascript).
    expect(csp).not.toMatch(/script-src[^;]*'self'/);
    const script = await send(t, 'GET', '/console/passkey.js');
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(script.text).toContain('navigator.credentials.create');
  });

  test('a replayed challenge, an expired one and another ceremony’s are refused', async () => {
    const t = makeApp();
    const s = await owner(t);
    const { pk } = await registerPasskey(t, s);
    const first = await passkeySignIn(t, pk);
    expect(first.r.status).toBe(200);
    const replay = await send(t, 'POST', '/console/passkey/sign-in', { json: { credential: first.credential } });
    expect([replay.status, replay.json.error.code]).toEqual([400, 'PASSKEY_CHALLENGE_SPENT']);
    // Expired: answered after CHALLENGE_MS.
    const o = await send(t, 'POST', '/console/passkey/options', { json: {} });
    t.clock.advance(CHALLENGE_MS + 1000);
    const late = await send(t, 'POST', '/console/passkey/sign-in', { json: { credential: pk.get(o.json, ORIGIN) } });
    expect([late.status, late.json.error.code]).toEqual([400, 'PASSKEY_CHALLENGE_SPENT']);
    // A registration challenge cannot sign in.
    const s2 = await keySignIn(t, s.key);
    const reg = await send(t, 'POST', '/console/passkeys/options', { cookie: s2.cookie, json: { csrf: s2.csrf } });
    const cross = await send(t, 'POST', '/console/passkey/sign-in', {
      json: { credential: pk.get({ rpId: 'svc.test', challenge: reg.json.challenge }, ORIGIN) },
    });
    expect([cross.status, cross.json.error.code]).toEqual([400, 'PASSKEY_CHALLENGE_SPENT']);
    // Another account's registration challenge cannot register for this one.
    const other = await owner(t, 'opsy', 'operator');
    const theirs = await send(t, 'POST', '/console/passkeys/options', { cookie: other.cookie, json: { csrf: other.csrf } });
    const stolen = await send(t, 'POST', '/console/passkeys/register', {
      cookie: s2.cookie,
      json: { csrf: s2.csrf, credential: new SoftPasskey().create(theirs.json, ORIGIN) },
    });
    expect([stolen.status, stolen.json.error.code]).toEqual([400, 'PASSKEY_CHALLENGE_SPENT']);
  });

  test('a wrong origin is refused at registration and at sign-in', async () => {
    const t = makeApp();
    const s = await owner(t);
    const bad = await registerPasskey(t, s, new SoftPasskey(), 'http://evil.example');
    expect([bad.r.status, bad.r.json.error.code]).toEqual([400, 'PASSKEY_NOT_VERIFIED']);
    expect(t.db.query('SELECT count(*) AS n FROM console_passkeys').get()).toEqual({ n: 0 });
    const { pk } = await registerPasskey(t, s);
    const r = (await passkeySignIn(t, pk, 'http://evil.example')).r;
    expect([r.status, r.json.error.code, r.headers.get('set-cookie')]).toEqual([400, 'PASSKEY_NOT_VERIFIED', null]);
  });

  test('an unknown passkey is refused; so is a forged signature', async () => {
    const t = makeApp();
    const s = await owner(t);
    const r = (await passkeySignIn(t, new SoftPasskey())).r;
    expect([r.status, r.json.error.code]).toEqual([401, 'PASSKEY_UNKNOWN']);
    const { pk } = await registerPasskey(t, s);
    const o = await send(t, 'POST', '/console/passkey/options', { json: {} });
    const forged = new SoftPasskey().get(o.json, ORIGIN);
    forged.id = pk.get({ rpId: 'svc.test', challenge: 'x' }, ORIGIN).id;
    forged.rawId = forged.id;
    const f = await send(t, 'POST', '/console/passkey/sign-in', { json: { credential: forged } });
    expect([f.status, f.json.error.code]).toEqual([400, 'PASSKEY_NOT_VERIFIED']);
  });

  test('a role revoked, or a key revoked, since registration: no session', async () => {
    const t = makeApp();
    const s = await owner(t, 'opsy', 'operator');
    const { pk } = await registerPasskey(t, s);
    runAdmin(t.ctx, ['role', 'revoke', 'opsy', 'operator']);
    const r = (await passkeySignIn(t, pk)).r;
    expect([r.status, r.json.error.code, r.headers.get('set-cookie')]).toEqual([403, 'PASSKEY_ROLE_GONE', null]);
    runAdmin(t.ctx, ['role', 'grant', 'opsy', 'operator']);
    expect((await passkeySignIn(t, pk)).r.status).toBe(200);
    // A revoked key removes the account's passkeys: this one is no longer known at all.
    await runAdmin(t.ctx, ['agent', 'revoke', 'opsy', '--reason', 'left']);
    expect((await passkeySignIn(t, pk)).r.json.error.code).toBe('PASSKEY_UNKNOWN');
  });

  test('registering needs the session and its csrf', async () => {
    const t = makeApp();
    const s = await owner(t);
    expect((await send(t, 'POST', '/console/passkeys/options', { json: { csrf: s.csrf } })).json.error.code).toBe('CONSOLE_SIGNED_OUT');
    const wrong = await send(t, 'POST', '/console/passkeys/options', { cookie: s.cookie, json: { csrf: 'nope' } });
    expect([wrong.status, wrong.json.error.code]).toEqual([403, 'CONSOLE_FORM_CHECK']);
  });

  test('the owner removes a passkey (audited); another account cannot', async () => {
    const t = makeApp();
    const s = await owner(t);
    const { pk, r } = await registerPasskey(t, s);
    const other = await owner(t, 'opsy', 'operator');
    const id = r.json.credential_id;
    expect((await send(t, 'POST', '/console/passkeys/remove', { cookie: other.cookie, form: { csrf: other.csrf, credential_id: id } })).status).toBe(404);
    expect((await send(t, 'POST', '/console/passkeys/remove', { cookie: s.cookie, form: { csrf: 'x', credential_id: id } })).status).toBe(403);
    const gone = await send(t, 'POST', '/console/passkeys/remove', { cookie: s.cookie, form: { csrf: s.csrf, credential_id: id } });
    expect([gone.status, gone.text.includes('Passkey removed.')]).toEqual([200, true]);
    expect(t.db.query("SELECT action FROM audit_log WHERE actor = ? AND action LIKE 'passkey %' ORDER BY seq").all('boss')).toEqual([
      { action: 'passkey register' },
      { action: 'passkey remove' },
    ]);
    expect((await passkeySignIn(t, pk)).r.json.error.code).toBe('PASSKEY_UNKNOWN');
  });

  test('SVC_CONSOLE_KEY_SIGNIN=off: an account with a passkey signs in with it only; others keep the key', async () => {
    const t = makeApp({ SVC_CONSOLE_KEY_SIGNIN: 'off' });
    const s = await owner(t);
    const plain = await owner(t, 'opsy', 'operator');
    const { pk } = await registerPasskey(t, s);
    const refused = await keySignIn(t, s.key);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('sign in with the passkey');
    expect((await keySignIn(t, plain.key)).status).toBe(303);
    expect((await passkeySignIn(t, pk)).r.status).toBe(200);
    expect(() => makeApp({ SVC_CONSOLE_KEY_SIGNIN: 'maybe' })).toThrow('SVC_CONSOLE_KEY_SIGNIN');
  });

  test('on a default install the loopback name the browser used is the relying party', async () => {
    const t = makeApp({ SVC_BASE_URL: '', SVC_PORT: '80' });
    const s = await owner(t);
    const o = await send(t, 'POST', '/console/passkeys/options', { cookie: s.cookie, json: { csrf: s.csrf } });
    expect(o.json.rp.id).toBe('localhost');
  });
});
