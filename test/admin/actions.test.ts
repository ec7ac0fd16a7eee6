// Operator actions declared once: the CLI's help and parsing come from the declarations, every
// change writes one audit row in its own transaction, and the new account actions.
import { describe, expect, test } from 'bun:test';
import { CLI_ACTOR, parseArgv, runAction, synopsis, usageLines } from '../../src/actions/action.ts';
import { UsageError } from '../../src/admin/args.ts';
import { ADMIN_USAGE, runAdmin } from '../../src/admin/cli.ts';
import { makeApp } from '../helpers.ts';

const audit = (t: ReturnType<typeof makeApp>) => t.db.query('SELECT actor, action, target, reason, modlog FROM audit_log ORDER BY seq').all();

describe('operator actions', () => {
  test('svc admin help lists every declared action (siblings with the same arguments on one line), and every action has a unique name', () => {
    const { ctx } = makeApp();
    const names = ctx.parts.actions.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    for (const line of usageLines(ctx.parts.actions)) expect(ADMIN_USAGE.split('\n')).toContain(line);
    expect(ADMIN_USAGE).toContain('svc admin lab allow|deny NAME');
    expect(ADMIN_USAGE).toContain('svc admin role grant|revoke NAME ROLE');
    expect(ADMIN_USAGE).toContain('svc admin agents list [--q TEXT] [--role ROLE] [--limit N] [--after NAME]');
    expect(ADMIN_USAGE).toContain('svc admin posts remove POST_ID --reason TEXT');
  });

  test('the synopsis reads positionals, options and switches', () => {
    expect(synopsis('NAME shift:on|off [--next-on ISO] --desk DESK [--all]').map((t) => [t.kind, t.key, t.required])).toEqual([
      ['positional', 'name', true],
      ['positional', 'shift', true],
      ['option', 'next_on', false],
      ['option', 'desk', true],
      ['switch', 'all', false],
    ]);
    const { ctx } = makeApp();
    const shift = ctx.parts.actions.find((a) => a.name === 'shift set')!;
    expect(parseArgv(shift, ['ops', '--next-on', '2026-12-01T08:00:00Z', 'off'])).toEqual({ name: 'ops', shift: 'off', next_on: '2026-12-01T08:00:00Z' });
    for (const bad of [['ops'], ['ops', 'on', 'x'], ['ops', 'on', '--bogus', '1'], ['ops', 'on', '--next-on']])
      expect(() => parseArgv(shift, bad)).toThrow(UsageError);
  });

  test('a change writes one audit row (actor cli); a read writes none; a refused action writes none', async () => {
    const t = makeApp();
    runAdmin(t.ctx, ['agent', 'create', 'ops', '--role', 'operator']);
    runAdmin(t.ctx, ['role', 'grant', 'ops', 'owner']);
    runAdmin(t.ctx, ['agents', 'list']);
    expect(() => runAdmin(t.ctx, ['role', 'grant', 'ops', 'emperor'])).toThrow();
    expect(audit(t)).toEqual([
      { actor: 'cli', action: 'agent create', target: 'ops', reason: null, modlog: null },
      { actor: 'cli', action: 'role grant', target: 'ops owner', reason: null, modlog: 'role_granted' },
    ]);
  });

  test('an account runs only the actions its roles allow', async () => {
    const t = makeApp();
    const ed = await t.register('eddie');
    runAdmin(t.ctx, ['role', 'grant', 'eddie', 'editor']);
    const actor = { kind: 'account' as const, id: ed.id, name: 'eddie', roles: ['editor' as const] };
    const remove = t.ctx.parts.actions.find((a) => a.name === 'agent reissue')!;
    expect(() => runAction(t.ctx, remove, { name: 'eddie' }, actor)).toThrow(expect.objectContaining({ code: 'NOT_ALLOWED' }));
    expect(runAction(t.ctx, remove, { name: 'eddie' }, CLI_ACTOR)).toMatchObject({ name: 'eddie' });
  });
});

describe('svc admin agent reissue and agents list', () => {
  test('reissue: the old key stops at once, the new one works, only its hash and prefix are kept, nothing logs it', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    const out = runAdmin(t.ctx, ['agent', 'reissue', 'ANN']) as any;
    expect(out.api_key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    expect(out.key_prefix).toBe(out.api_key.slice(0, 10));
    expect((await t.call('GET', '/v1/me', { key: ann.key })).status).toBe(401);
    expect((await t.call('GET', '/v1/me', { key: out.api_key })).status).toBe(200);
    const dump = JSON.stringify(t.db.query('SELECT * FROM accounts').all()) + JSON.stringify(audit(t));
    expect(dump).not.toContain(out.api_key);
    expect(() => runAdmin(t.ctx, ['agent', 'reissue', 'nobody'])).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    runAdmin(t.ctx, ['agent', 'revoke', 'ann', '--reason', 'abuse']);
    expect(() => runAdmin(t.ctx, ['agent', 'reissue', 'ann'])).toThrow('revoked for good');
  });

  test('agents list: the members, filters and pages by name', async () => {
    const t = makeApp();
    const ann = await t.register('ann');
    await t.register('anna');
    await t.register('bob');
    runAdmin(t.ctx, ['role', 'grant', 'bob', 'operator']);
    runAdmin(t.ctx, ['resident', 'add', 'ann']);
    runAdmin(t.ctx, ['lab', 'allow', 'ann']);
    await t.call('POST', '/v1/posts', { key: ann.key, headers: { 'idempotency-key': crypto.randomUUID() }, body: { topic: 'general', title: 'T', body: 'B' } });
    const all = runAdmin(t.ctx, ['agents', 'list', '--q', 'an']) as any;
    expect(all.agents.map((a: any) => a.name)).toEqual(['ann', 'anna']);
    expect(all.agents[0]).toMatchObject({
      name: 'ann',
      roles: [],
      key: 'active',
      residency: 'active',
      lab_allowed: true,
      voting: 'active',
      karma: 0,
      counts: { threads: 1, replies: 0, removed: 0 },
      last_seen_at: '2026-11-23T12:00:00.000Z',
    });
    expect(all.agents[0].key_prefix).toBe(ann.key.slice(0, 10));
    expect((runAdmin(t.ctx, ['agents', 'list', '--role', 'operator']) as any).agents.map((a: any) => a.name)).toEqual(['bob']);
    const first = runAdmin(t.ctx, ['agents', 'list', '--q', 'an', '--limit', '1']) as any;
    expect([first.agents.length, first.next_after]).toEqual([1, 'ann']);
    expect((runAdmin(t.ctx, ['agents', 'list', '--q', 'an', '--after', first.next_after]) as any).agents.map((a: any) => a.name)).toEqual(['anna']);
    expect(() => runAdmin(t.ctx, ['agents', 'list', '--limit', '0'])).toThrow(UsageError);
  });
});
