// The console's limits and headers (docs/operations.md, "The console" and "Passkeys"; findings 9,
// 11a, 11b and 11d of the security audit): only refused sign-ins count against an address, so a
// right key (or passkey) always signs in; starting a passkey sign-in is limited per address and in
// all; the pages that run the passkey script admit that one script only; no console page may be framed.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { SIGN_IN_OPTIONS } from '../../src/admin/console/passkeys.ts';
import { SIGN_IN_ATTEMPTS } from '../../src/admin/console/session.ts';
import { makeApp } from '../helpers.ts';
import { SoftPasskey } from './authenticator.ts';
import { postJson as json, send, signedIn, type T } from './console-harness.ts';

const ORIGIN = 'http://svc.test';
const signInWith = (t: T, key: string, headers?: Record<string, string>) => send(t, 'POST', '/console/sign-in', { form: { key }, headers });
const refusedRows = (t: T) => t.db.query("SELECT count(*) AS n FROM audit_log WHERE action = 'console sign-in refused'").get() as { n: number };

describe('sign-in attempts: only refusals count', () => {
  test('ten wrong keys, then the right key signs in; the next wrong key is 429 with Retry-After and is not recorded', async () => {
    const t = makeApp();
    const boss = await t.register('boss');
    runAdmin(t.ctx, ['role', 'grant', 'boss', 'owner']);
    for (let i = 0; i < SIGN_IN_ATTEMPTS.limit; i++) expect((await signInWith(t, 'svc_wrong')).status).toBe(401);
    expect(refusedRows(t)).toEqual({ n: SIGN_IN_ATTEMPTS.limit });
    // Someone else's wrong keys from the same address (a proxy without SVC_TRUST_PROXY) lock nobody out.
    expect((await signInWith(t, boss.key)).status).toBe(303);
    const past = await signInWith(t, 'svc_wrong');
    expect(past.status).toBe(429);
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refusedRows(t)).toEqual({ n: SIGN_IN_ATTEMPTS.limit });
    // A live key without a console role is a refusal too: 429 past the limit.
    const plain = await t.register('plain');
    expect((await signInWith(t, plain.key)).status).toBe(429);
    expect((await signInWith(t, boss.key)).status).toBe(303);
    // After the window, refusals are answered (and recorded) again.
    t.clock.advance(SIGN_IN_ATTEMPTS.windowMs);
    expect((await signInWith(t, 'svc_wrong')).status).toBe(401);
  });

  test('successful sign-ins do not count: many of them, then still ten refusals before 429', async () => {
    const t = makeApp();
    const boss = await t.register('boss');
    runAdmin(t.ctx, ['role', 'grant', 'boss', 'owner']);
    for (let i = 0; i < SIGN_IN_ATTEMPTS.limit + 5; i++) expect((await signInWith(t, boss.key)).status).toBe(303);
    for (let i = 0; i < SIGN_IN_ATTEMPTS.limit; i++) expect((await signInWith(t, 'svc_wrong')).status).toBe(401);
    expect((await signInWith(t, 'svc_wrong')).status).toBe(429);
  });

  test('behind a trusted proxy each client address has its own count', async () => {
    const t = makeApp({ SVC_TRUST_PROXY: '1' });
    const at = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < SIGN_IN_ATTEMPTS.limit; i++) await signInWith(t, 'svc_wrong', at('203.0.113.9'));
    expect((await signInWith(t, 'svc_wrong', at('203.0.113.9'))).status).toBe(429);
    expect((await signInWith(t, 'svc_wrong', at('198.51.100.7'))).status).toBe(401);
  });

  test('a passkey that verifies signs in past the limit; a refused passkey sign-in there is 429 RATE_LIMITED with Retry-After', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const pk = new SoftPasskey();
    const page = await send(t, 'GET', '/console/passkeys', { cookie: s.cookie });
    const csrf = /data-csrf="([^"]+)"/.exec(page.text)![1]!;
    const o = await json(t, '/console/passkeys/options', { csrf }, { cookie: s.cookie });
    expect((await json(t, '/console/passkeys/register', { csrf, credential: pk.create(o.json, ORIGIN) }, { cookie: s.cookie })).status).toBe(200);
    for (let i = 0; i < SIGN_IN_ATTEMPTS.limit; i++) await signInWith(t, 'svc_wrong');
    const stranger = await json(t, '/console/passkey/sign-in', {
      credential: new SoftPasskey().get((await json(t, '/console/passkey/options', {})).json, ORIGIN),
    });
    expect([stranger.status, stranger.json.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    const mine = await json(t, '/console/passkey/sign-in', { credential: pk.get((await json(t, '/console/passkey/options', {})).json, ORIGIN) });
    expect(mine.status).toBe(200);
  });
});

describe('starting a passkey sign-in (POST /console/passkey/options) is limited', () => {
  const challenges = (t: T) => t.db.query('SELECT count(*) AS n FROM console_passkey_challenges').get() as { n: number };

  test('per address: past the limit 429 RATE_LIMITED with Retry-After in the error envelope, and no challenge stored', async () => {
    const t = makeApp({ SVC_TRUST_PROXY: '1' });
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < SIGN_IN_OPTIONS.limit; i++) expect((await json(t, '/console/passkey/options', {}, from('203.0.113.9'))).status).toBe(200);
    expect(challenges(t)).toEqual({ n: SIGN_IN_OPTIONS.limit });
    const r = await json(t, '/console/passkey/options', {}, from('203.0.113.9'));
    expect([r.status, r.json.error.code, typeof r.json.error.details.retry_at]).toEqual([429, 'RATE_LIMITED', 'string']);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(challenges(t)).toEqual({ n: SIGN_IN_OPTIONS.limit });
    // Another address is not held back; after the window this one may start again.
    expect((await json(t, '/console/passkey/options', {}, from('198.51.100.7'))).status).toBe(200);
    t.clock.advance(SIGN_IN_OPTIONS.windowMs);
    expect((await json(t, '/console/passkey/options', {}, from('203.0.113.9'))).status).toBe(200);
  });

  test('in all: no more than SIGN_IN_OPTIONS.outstanding sign-in challenges are kept; a registration still starts', async () => {
    const t = makeApp({ SVC_TRUST_PROXY: '1' });
    const s = await signedIn(t);
    const n = SIGN_IN_OPTIONS.outstanding;
    for (let i = 0; i < n; i++) {
      const r = await json(t, '/console/passkey/options', {}, { headers: { 'x-forwarded-for': `10.0.${i >> 8}.${i & 255}` } });
      if (r.status !== 200) throw new Error(`${i}: ${r.status}`);
    }
    const full = await json(t, '/console/passkey/options', {}, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect([full.status, full.json.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(challenges(t)).toEqual({ n });
    // A signed-in owner's registration is not crowded out.
    const page = await send(t, 'GET', '/console/passkeys', { cookie: s.cookie });
    const csrf = /data-csrf="([^"]+)"/.exec(page.text)![1]!;
    expect((await json(t, '/console/passkeys/options', { csrf }, { cookie: s.cookie })).status).toBe(200);
    // Once they expire, sign-ins start again.
    t.clock.advance(5 * 60_000 + 1000);
    expect((await json(t, '/console/passkey/options', {}, { headers: { 'x-forwarded-for': '198.51.100.7' } })).status).toBe(200);
  });
});

describe('console page headers', () => {
  const pinned = `script-src ${ORIGIN}/console/passkey.js;`;

  test('the sign-in and Passkeys pages admit the passkey script by its full address only; no console page may be framed', async () => {
    const t = makeApp();
    const s = await signedIn(t);
    const pages = {
      signIn: await send(t, 'GET', '/console'),
      passkeys: await send(t, 'GET', '/console/passkeys', { cookie: s.cookie }),
      refused: await signInWith(t, 'svc_wrong'),
      queue: await send(t, 'GET', '/console/queue', { cookie: s.cookie }),
      agents: await send(t, 'GET', '/console/agents', { cookie: s.cookie }),
    };
    for (const [name, p] of Object.entries(pages)) {
      expect(p.headers.get('x-frame-options'), name).toBe('DENY');
      expect(p.headers.get('content-security-policy'), name).toContain("frame-ancestors 'none'");
      expect(p.headers.get('cache-control'), name).toBe('no-store');
    }
    for (const p of [pages.signIn, pages.passkeys, pages.refused]) {
      const csp = p.headers.get('content-security-policy')!;
      expect(csp).toContain(pinned);
      expect(csp).not.toMatch(/script-src[^;]*'self'/);
      expect(csp).toContain(`connect-src ${ORIGIN}/console/passkey/ ${ORIGIN}/console/passkeys/`);
    }
    // Every other console page runs no script at all.
    for (const p of [pages.queue, pages.agents]) expect(p.headers.get('content-security-policy')).not.toContain('script-src');
  });

  test('the pinned address follows the name a default install was reached by (localhost, 127.0.0.1)', async () => {
    const t = makeApp({ SVC_BASE_URL: '' });
    const base = new URL(t.ctx.config.baseUrl);
    expect(base.hostname).toBe('127.0.0.1');
    const port = `:${base.port}`;
    for (const host of ['localhost', '127.0.0.1']) {
      const res = await t.app.handle(new Request(`http://${host}${port}/console`, { headers: { accept: 'text/html' } }));
      expect(res.headers.get('content-security-policy')).toContain(`script-src http://${host}${port}/console/passkey.js;`);
    }
  });
});
