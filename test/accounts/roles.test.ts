// Role changes: the last owner stays (CLI and console alike), and a grant or revocation that
// changes nothing says so and leaves no audit row, so the public moderation log shows none.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { act, signedIn } from '../admin/console-harness.ts';
import { makeApp } from '../helpers.ts';

const PUBLIC = { 'x-agent-protocol': '', accept: '' };
const audit = (t: ReturnType<typeof makeApp>, action: string) => t.db.query('SELECT actor, target FROM audit_log WHERE action = ? ORDER BY seq').all(action);

describe('the last owner', () => {
  test('the CLI may not revoke the last live owner’s role or key; with a second owner it may', async () => {
    const t = makeApp();
    runAdmin(t.ctx, ['agent', 'create', 'boss', '--role', 'owner']);
    expect(() => runAdmin(t.ctx, ['role', 'revoke', 'boss', 'owner'])).toThrow(
      expect.objectContaining({ code: 'NOT_ALLOWED', message: expect.stringContaining('boss is the last owner') }),
    );
    expect(() => runAdmin(t.ctx, ['agent', 'revoke', 'boss', '--reason', 'oops'])).toThrow(expect.objectContaining({ code: 'NOT_ALLOWED' }));
    // A revoked owner is no owner: it does not count as the other one.
    runAdmin(t.ctx, ['agent', 'create', 'gone', '--role', 'owner']);
    runAdmin(t.ctx, ['agent', 'revoke', 'gone', '--reason', 'left']);
    expect(() => runAdmin(t.ctx, ['role', 'revoke', 'boss', 'owner'])).toThrow(expect.objectContaining({ code: 'NOT_ALLOWED' }));
    expect(audit(t, 'role revoke')).toEqual([]);
    runAdmin(t.ctx, ['agent', 'create', 'boss2', '--role', 'owner']);
    expect(runAdmin(t.ctx, ['role', 'revoke', 'boss', 'owner'])).toEqual({ name: 'boss', roles: [], changed: true });
  });

  test('the console refuses it with the same error text', async () => {
    const t = makeApp();
    const boss = await signedIn(t);
    const r = await act(t, boss, 'role revoke', { name: 'boss', role: 'owner', confirm: 'boss' });
    expect([r.status, r.error]).toEqual([
      403,
      'boss is the last owner: grant owner to another account first (svc admin role grant NAME owner), then revoke its owner role.',
    ]);
    expect(runAdmin(t.ctx, ['agents', 'list', '--q', 'boss'])).toMatchObject({ agents: [{ roles: ['owner'] }] });
  });
});

describe('a role change that changes nothing', () => {
  test('answers changed: false and records nothing: the moderation log shows only real changes', async () => {
    const t = makeApp();
    await t.register('eve');
    expect(runAdmin(t.ctx, ['role', 'grant', 'eve', 'reporter'])).toEqual({ name: 'eve', roles: ['reporter'], changed: true });
    expect(runAdmin(t.ctx, ['role', 'grant', 'eve', 'reporter'])).toEqual({ name: 'eve', roles: ['reporter'], changed: false });
    expect(runAdmin(t.ctx, ['role', 'revoke', 'eve', 'scorekeeper'])).toEqual({ name: 'eve', roles: ['reporter'], changed: false });
    const boss = await signedIn(t);
    expect((await act(t, boss, 'role grant', { name: 'eve', role: 'reporter' })).result).toEqual({ name: 'eve', roles: ['reporter'], changed: false });
    expect((await act(t, boss, 'role revoke', { name: 'eve', role: 'editor' })).result).toEqual({ name: 'eve', roles: ['reporter'], changed: false });
    expect(audit(t, 'role grant')).toEqual([
      { actor: 'cli', target: 'eve reporter' },
      { actor: 'cli', target: 'boss owner' },
    ]);
    expect(audit(t, 'role revoke')).toEqual([]);
    const modlog = await t.call('GET', '/api/modlog', { headers: PUBLIC });
    expect(modlog.json.entries.map((e: { action: string; target: { id: string; role: string } }) => [e.action, e.target.id, e.target.role])).toEqual([
      ['role_granted', 'boss', 'owner'],
      ['role_granted', 'eve', 'reporter'],
    ]);
  });
});
