// The console's edges: a POST a browser marks as coming from another site is refused (actions,
// sign-in, sign-out, passkey routes); sign-out always ends the session; every sign-in (key or
// passkey, let in or refused) is in the audit log without the key; passkeys are the owners' and
// operators' (an editor signs in with its key).
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { makeApp } from '../helpers.ts';
import { SoftPasskey } from './authenticator.ts';
import { act, postJson as json, send, signedIn, type T } from './console-harness.ts';

const ORIGIN = 'http://svc.test';
const EVIL = { origin: 'https://evil.example' };
const CROSS = { 'sec-fetch-site': 'cross-site' };

const signIns = (t: T) => t.db.query("SELECT actor, action, target, reason FROM audit_log WHERE action LIKE 'console sign-in%' ORDER BY seq").all();

describe('a console POST from another site is refused', () => {
  test('an action with a valid token but a foreign Origin, or Sec-Fetch-Site cross-site: 403, nothing runs', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    await t.register('eve');
    for (const headers of [EVIL, CROSS, { origin: 'null', ...CROSS }]) {
      const r = await act(t, s, 'lab allow', { name: 'eve' }, headers);
      expect([r.status, r.error]).toEqual([403, 'This request came from another site: the console takes changes from its own pages only.']);
      expect((await send(t, 'POST', '/console/agent/eve/reissue', { cookie: s.cookie, form: { csrf: s.csrf, confirm: 'eve' }, headers })).status).toBe(403);
    }
    expect(t.db.query("SELECT count(*) AS n FROM audit_log WHERE action IN ('lab allow', 'agent reissue')").get()).toEqual({ n: 0 });
    // Its own pages: the service's origin, or (under no-referrer) Origin: null with same-origin.
    expect((await act(t, s, 'lab allow', { name: 'eve' }, { origin: ORIGIN, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await act(t, s, 'lab deny', { name: 'eve' }, { origin: 'null', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  test('sign-in from another site sets no cookie (login CSRF); sign-out from another site ends nothing', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    for (const headers of [EVIL, CROSS]) {
      const r = await send(t, 'POST', '/console/sign-in', { form: { key: s.key }, headers });
      expect([r.status, r.headers.get('set-cookie')]).toEqual([403, null]);
      expect((await send(t, 'POST', '/console/sign-out', { cookie: s.cookie, form: { csrf: s.csrf }, headers })).status).toBe(403);
    }
    expect((await send(t, 'GET', '/console/queue', { cookie: s.cookie })).status).toBe(200);
  });

  test('the passkey routes refuse it too (CONSOLE_CROSS_SITE)', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    expect(await json(t, '/console/passkey/options', {}, { headers: EVIL })).toMatchObject({ status: 403, json: { error: { code: 'CONSOLE_CROSS_SITE' } } });
    expect(await json(t, '/console/passkeys/options', { csrf: s.csrf }, { cookie: s.cookie, headers: CROSS })).toMatchObject({
      status: 403,
      json: { error: { code: 'CONSOLE_CROSS_SITE' } },
    });
    const pk = new SoftPasskey();
    const o = await json(t, '/console/passkey/options', {});
    const r = await json(t, '/console/passkey/sign-in', { credential: pk.get(o.json, ORIGIN) }, { headers: EVIL });
    expect([r.status, r.json.error.code]).toEqual([403, 'CONSOLE_CROSS_SITE']);
    expect(t.db.query('SELECT count(*) AS n FROM console_passkey_challenges').get()).toEqual({ n: 1 });
    const remove = await send(t, 'POST', '/console/passkeys/remove', { cookie: s.cookie, form: { csrf: s.csrf, credential_id: 'x' }, headers: EVIL });
    expect(remove.status).toBe(403);
  });
});

describe('sign-out', () => {
  test('ends the server session the cookie names, even without the form token', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const r = await send(t, 'POST', '/console/sign-out', { cookie: s.cookie, form: {} });
    expect([r.status, r.headers.get('set-cookie')]).toEqual([303, expect.stringContaining('Max-Age=0')]);
    expect((await send(t, 'GET', '/console/queue', { cookie: s.cookie })).status).toBe(303);
    expect(t.db.query('SELECT count(*) AS n FROM console_sessions').get()).toEqual({ n: 0 });
  });
});

describe('sign-ins are in the audit log, never with the key', () => {
  test('key sign-ins, let in or refused, with how and from where', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const plain = await t.register('plain');
    await send(t, 'POST', '/console/sign-in', { form: { key: 'svc_not_a_key' } });
    await send(t, 'POST', '/console/sign-in', { form: { key: plain.key } });
    expect(signIns(t)).toEqual([
      { actor: 'boss', action: 'console sign-in', target: 'key from local', reason: null },
      { actor: '(unknown)', action: 'console sign-in refused', target: 'key from local', reason: 'not a live key' },
      { actor: 'plain', action: 'console sign-in refused', target: 'key from local', reason: 'no console role' },
    ]);
    expect(JSON.stringify(t.db.query('SELECT * FROM audit_log').all())).not.toMatch(new RegExp(`${s.key}|${plain.key}|svc_not_a_key`));
  });

  test('SVC_LOG_ADDRESSES=0 leaves the address out', async () => {
    const t = makeApp({ SVC_LOG_ADDRESSES: '0' });
    await signedIn(t);
    expect(signIns(t)).toEqual([{ actor: 'boss', action: 'console sign-in', target: 'key', reason: null }]);
  });

  test('passkey sign-ins: let in, an unknown passkey, a passkey whose account lost its role', async () => {
    const t = makeApp();
    const s = await signedIn(t, 'opal', 'operator');
    const pk = new SoftPasskey();
    const reg = await json(t, '/console/passkeys/options', { csrf: s.csrf }, { cookie: s.cookie });
    const made = await json(t, '/console/passkeys/register', { csrf: s.csrf, credential: pk.create(reg.json, ORIGIN) }, { cookie: s.cookie });
    const short = (made.json.credential_id as string).slice(0, 16);
    const signIn = async (key: SoftPasskey) =>
      json(t, '/console/passkey/sign-in', { credential: key.get((await json(t, '/console/passkey/options', {})).json, ORIGIN) });
    expect((await signIn(pk)).status).toBe(200);
    expect((await signIn(new SoftPasskey())).status).toBe(401);
    runAdmin(t.ctx, ['role', 'revoke', 'opal', 'operator']);
    runAdmin(t.ctx, ['role', 'grant', 'opal', 'editor']);
    expect((await signIn(pk)).json.error.code).toBe('PASSKEY_ROLE_GONE');
    expect(signIns(t).slice(1)).toEqual([
      { actor: 'opal', action: 'console sign-in', target: `passkey ${short} from local`, reason: null },
      { actor: '(unknown)', action: 'console sign-in refused', target: 'passkey from local', reason: 'PASSKEY_UNKNOWN' },
      { actor: 'opal', action: 'console sign-in refused', target: `passkey ${short} from local`, reason: 'PASSKEY_ROLE_GONE' },
    ]);
  });
});

describe('passkeys are for owners and operators', () => {
  test('an editor cannot register one, sees no Passkeys link, and signs in with its key', async () => {
    const t = makeApp({ SVC_CONSOLE_KEY_SIGNIN: 'off' });
    const ed = await signedIn(t, 'eddie', 'editor');
    const o = await json(t, '/console/passkeys/options', { csrf: ed.csrf }, { cookie: ed.cookie });
    expect([o.status, o.json.error.code]).toEqual([403, 'PASSKEY_ROLE_NEEDED']);
    const queue = await send(t, 'GET', '/console/queue', { cookie: ed.cookie });
    expect(queue.text).not.toContain('href="/console/passkeys"');
    const page = await send(t, 'GET', '/console/passkeys', { cookie: ed.cookie });
    expect(page.text).toContain('Passkeys are for owner and operator accounts');
    expect(page.text).not.toContain('id="passkey-register"');
  });
});
