// Who may reissue or revoke whose key from the console, what a key's end ends (sessions and
// passkeys opened with it), the steps the console asks twice, and the Agents page showing only
// the buttons the signed-in account may use.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { BASE, makeApp } from '../helpers.ts';
import { SoftPasskey } from './authenticator.ts';
import { act, send, signedIn, type T, unescaped } from './console-harness.ts';

const ORIGIN = 'http://svc.test';
const auditOf = (t: T, action: string) => t.db.query('SELECT actor, target FROM audit_log WHERE action = ? ORDER BY seq').all(action);
const live = async (t: T, key: string) => (await t.call('GET', '/v1/me', { key })).status === 200;

async function json(t: T, path: string, body: unknown, cookie?: string) {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json', ...(cookie ? { cookie } : {}) };
  const res = await t.app.handle(new Request(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }));
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

async function registerPasskey(t: T, s: { cookie: string; csrf: string }) {
  const pk = new SoftPasskey();
  const o = await json(t, '/console/passkeys/options', { csrf: s.csrf }, s.cookie);
  const r = await json(t, '/console/passkeys/register', { csrf: s.csrf, credential: pk.create(o.json, ORIGIN) }, s.cookie);
  expect(r.status).toBe(200);
  return pk;
}

async function passkeySignIn(t: T, pk: SoftPasskey) {
  const o = await json(t, '/console/passkey/options', {});
  return json(t, '/console/passkey/sign-in', { credential: pk.get(o.json, ORIGIN) });
}

describe('an operator reissues or revokes only the keys of accounts holding no owner, operator or scorekeeper role', () => {
  test('an operator may not reissue or revoke an owner’s, another operator’s or the scorekeeper’s key: refused, nothing changes, nothing recorded', async () => {
    const t = makeApp();
    const boss = await signedIn(t, 'boss', 'owner');
    const opal = await signedIn(t, 'opal', 'operator');
    const otto = await t.register('otto');
    runAdmin(t.ctx, ['role', 'grant', 'otto', 'operator']);
    const keeper = await t.register('keeper');
    runAdmin(t.ctx, ['role', 'grant', 'keeper', 'scorekeeper']);
    for (const [name, key] of [
      ['boss', boss.key],
      ['otto', otto.key],
      ['keeper', keeper.key],
      ['opal', opal.key],
    ] as const) {
      const reissue = await act(t, opal, 'agent reissue', { name, confirm: name });
      expect([reissue.status, reissue.error], name).toEqual([403, expect.stringContaining('Only owner may reissue the key')]);
      expect(reissue.text).not.toMatch(/svc_[0-9A-Za-z]{40}/);
      const revoke = await act(t, opal, 'agent revoke', { name, reason: 'takeover', confirm: name });
      expect([revoke.status, revoke.error], name).toEqual([403, expect.stringContaining('Only owner may revoke the key')]);
      expect(await live(t, key), name).toBe(true);
    }
    // The addressed form is the same action, refused the same way.
    expect((await send(t, 'POST', '/console/agent/boss/reissue', { cookie: opal.cookie, form: { csrf: opal.csrf, confirm: 'boss' } })).status).toBe(403);
    expect(auditOf(t, 'agent reissue')).toEqual([]);
    expect(auditOf(t, 'agent revoke')).toEqual([]);
    expect((await send(t, 'GET', '/console/queue', { cookie: boss.cookie })).status).toBe(200);
  });

  test('an operator may reissue and revoke a plain agent’s key; an owner any key; the CLI any key', async () => {
    const t = makeApp();
    await signedIn(t, 'boss', 'owner');
    const boss2 = await signedIn(t, 'boss2', 'owner');
    const opal = await signedIn(t, 'opal', 'operator');
    const eve = await t.register('eve');
    const reissued = await act(t, opal, 'agent reissue', { name: 'eve', confirm: 'eve' });
    expect(reissued.status).toBe(200);
    expect(await live(t, eve.key)).toBe(false);
    expect(await live(t, reissued.result.api_key)).toBe(true);
    expect((await act(t, opal, 'agent revoke', { name: 'eve', reason: 'abuse', confirm: 'eve' })).status).toBe(200);
    // An owner reissues an operator's key.
    const byOwner = await act(t, boss2, 'agent reissue', { name: 'opal', confirm: 'opal' });
    expect(byOwner.status).toBe(200);
    expect(await live(t, opal.key)).toBe(false);
    // The machine's owner keeps full power.
    const cli = (await runAdmin(t.ctx, ['agent', 'reissue', 'boss'])) as { api_key: string };
    expect(await live(t, cli.api_key)).toBe(true);
    expect(((await runAdmin(t.ctx, ['agent', 'revoke', 'boss2', '--reason', 'left'])) as { already_revoked: boolean }).already_revoked).toBe(false);
    expect(auditOf(t, 'agent reissue')).toEqual([
      { actor: 'opal', target: 'eve' },
      { actor: 'boss2', target: 'opal' },
      { actor: 'cli', target: 'boss' },
    ]);
  });

  test('the Agents page shows an operator no key buttons on guarded rows, and no role forms; an owner sees them all', async () => {
    const t = makeApp();
    const boss = await signedIn(t, 'boss', 'owner');
    const opal = await signedIn(t, 'opal', 'operator');
    await t.register('eve');
    const forms = (html: string, name: string) => {
      const row = new RegExp(`<li class="card"><h2>${name}</h2>[\\s\\S]*?</li>`).exec(html)![0];
      // The visible word of each button (its name goes on: "Reissue key of eve").
      return [...row.matchAll(/<button>([^<]+)<span class="visually-hidden">/g)].map((m) => m[1]);
    };
    const seenByOpal = (await send(t, 'GET', '/console/agents', { cookie: opal.cookie })).text;
    expect(forms(seenByOpal, 'boss')).toEqual(['Allow lab']);
    expect(forms(seenByOpal, 'opal')).toEqual(['Allow lab']);
    expect(forms(seenByOpal, 'eve')).toEqual(['Reissue key', 'Revoke key', 'Allow lab']);
    const seenByBoss = (await send(t, 'GET', '/console/agents', { cookie: boss.cookie })).text;
    expect(forms(seenByBoss, 'opal')).toEqual(['Reissue key', 'Revoke key', 'Grant role', 'Revoke role', 'Allow lab']);
  });
});

describe('a key’s end ends what was opened with it', () => {
  test('reissuing a key ends the account’s console sessions and removes its passkeys at once', async () => {
    const t = makeApp();
    const boss = await signedIn(t, 'boss', 'owner');
    const opal = await signedIn(t, 'opal', 'operator');
    const pk = await registerPasskey(t, opal);
    expect((await passkeySignIn(t, pk)).status).toBe(200);
    const out = (await act(t, boss, 'agent reissue', { name: 'opal', confirm: 'opal' })).result;
    expect(out.ended).toEqual({ console_sessions: 2, console_passkeys: 1 });
    expect((await send(t, 'GET', '/console/queue', { cookie: opal.cookie })).status).toBe(303);
    expect(t.db.query('SELECT count(*) AS n FROM console_passkeys').get()).toEqual({ n: 0 });
    expect((await passkeySignIn(t, pk)).json.error.code).toBe('PASSKEY_UNKNOWN');
    // The one who reissued keeps its session; the new key signs in.
    expect((await send(t, 'GET', '/console/queue', { cookie: boss.cookie })).status).toBe(200);
    expect((await send(t, 'POST', '/console/sign-in', { form: { key: out.api_key } })).status).toBe(303);
  });

  test('the CLI’s reissue and an operator’s revocation end them too', async () => {
    const t = makeApp();
    const opal = await signedIn(t, 'opal', 'operator');
    await registerPasskey(t, opal);
    runAdmin(t.ctx, ['agent', 'reissue', 'opal']);
    expect((await send(t, 'GET', '/console/queue', { cookie: opal.cookie })).status).toBe(303);
    expect(t.db.query('SELECT count(*) AS n FROM console_passkeys').get()).toEqual({ n: 0 });
    const ed = await signedIn(t, 'eddie', 'editor');
    const out = (await runAdmin(t.ctx, ['agent', 'revoke', 'eddie', '--reason', 'left'])) as { ended: unknown };
    expect(out.ended).toEqual({ console_sessions: 1, console_passkeys: 0 });
    expect(t.db.query('SELECT count(*) AS n FROM console_sessions WHERE account_id = (SELECT id FROM accounts WHERE name = ?)').get('eddie')).toEqual({
      n: 0,
    });
    expect((await send(t, 'GET', '/console/queue', { cookie: ed.cookie })).status).toBe(303);
  });

  test('an owner reissuing its own key sees the new key once, on the sign-in page; its session is over', async () => {
    const t = makeApp();
    const boss = await signedIn(t, 'boss', 'owner');
    const r = await act(t, boss, 'agent reissue', { name: 'boss', confirm: 'boss' });
    expect(r.status).toBe(200);
    expect(r.text).toContain('That ended this session: sign in again.');
    expect(r.result.api_key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    expect((await send(t, 'GET', '/console/queue', { cookie: boss.cookie })).status).toBe(303);
    expect((await send(t, 'POST', '/console/sign-in', { form: { key: r.result.api_key } })).status).toBe(303);
  });
});

describe('the console asks twice before a step that is hard to take back', () => {
  test('reissue and revoke need confirm = the target’s name; without it nothing runs', async () => {
    const t = makeApp();
    const boss = await signedIn(t);
    const eve = await t.register('eve');
    for (const confirm of [undefined, 'someone-else']) {
      const fields = { name: 'eve', ...(confirm ? { confirm } : {}) };
      const r = await act(t, boss, 'agent reissue', fields);
      expect([r.status, r.error]).toEqual([400, 'agent reissue needs a confirmation: tick or type “eve” in the confirm field and send again.']);
      expect((await act(t, boss, 'agent revoke', { ...fields, reason: 'abuse' })).status).toBe(400);
    }
    expect(await live(t, eve.key)).toBe(true);
    expect(t.db.query("SELECT count(*) AS n FROM audit_log WHERE action LIKE 'agent %'").get()).toEqual({ n: 0 });
    expect((await act(t, boss, 'agent revoke', { name: 'eve', reason: 'abuse', confirm: 'EVE' })).status).toBe(200);
  });

  test('granting owner, and revoking a role of one’s own, need it; other role changes do not', async () => {
    const t = makeApp();
    const boss = await signedIn(t);
    await t.register('eve');
    expect((await act(t, boss, 'role grant', { name: 'eve', role: 'owner' })).status).toBe(400);
    expect(runAdmin(t.ctx, ['agents', 'list', '--q', 'eve'])).toMatchObject({ agents: [{ roles: [] }] });
    expect((await act(t, boss, 'role grant', { name: 'eve', role: 'editor' })).status).toBe(200);
    expect((await act(t, boss, 'role revoke', { name: 'eve', role: 'editor' })).status).toBe(200);
    expect((await act(t, boss, 'role grant', { name: 'eve', role: 'owner', confirm: 'eve' })).status).toBe(200);
    expect((await act(t, boss, 'role grant', { name: 'boss', role: 'editor' })).status).toBe(200);
    const own = await act(t, boss, 'role revoke', { name: 'boss', role: 'editor' });
    expect([own.status, own.error]).toEqual([400, expect.stringContaining('role revoke needs a confirmation')]);
    expect((await act(t, boss, 'role revoke', { name: 'boss', role: 'editor', confirm: 'boss' })).status).toBe(200);
  });

  test('the Agents page: the role picker starts on “Choose a role” and is required; the confirm boxes are in the forms', async () => {
    const t = makeApp();
    const boss = await signedIn(t);
    await t.register('eve');
    const page = (await send(t, 'GET', '/console/agents', { cookie: boss.cookie })).text;
    expect(page).toContain('<label class="field">Role to grant <select name="role" required><option value="">Choose a role</option><option>owner</option>');
    expect(page).toContain('<label class="field">Role to revoke <select name="role" required><option value="">Choose a role</option><option>owner</option>');
    expect(page).not.toContain('<option selected');
    const eveRow = /<h2>eve<\/h2>[\s\S]*?<\/li>/.exec(page)![0];
    expect(eveRow).toMatch(/agent-reissue"[\s\S]*?<input type="checkbox" name="confirm" value="eve" required>[\s\S]*?Reissue key/);
    expect(eveRow).toMatch(/agent-revoke"[\s\S]*?<input type="checkbox" name="confirm" value="eve" required>[\s\S]*?Revoke key/);
    expect(eveRow).toMatch(/role-grant"[\s\S]*?<input type="checkbox" name="confirm" value="eve">[\s\S]*?Grant role/);
    const bossRow = /<h2>boss<\/h2>[\s\S]*?<\/li>/.exec(page)![0];
    expect(unescaped(bossRow)).toMatch(/role-revoke"[\s\S]*?<input type="checkbox" name="confirm" value="boss" required>/);
  });
});
