// The operator's actions on accounts (src/actions/action.ts), run by `svc admin` and the console.
// Each returns plain JSON.
import * as v from 'valibot';
import { action } from '../actions/action.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { accountByName, crewOf, registerAgent, type Role, ROLES, rolesOf } from './accounts.ts';
import { hashKey, keyPrefix, newApiKey } from './keys.ts';
import { accountStore } from './store.ts';

const OPERATORS: readonly Role[] = ['owner', 'operator'];
const OWNER: readonly Role[] = ['owner'];
const Name = v.object({ name: v.string() });

function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role)) fail('INVALID_REQUEST', { field: 'role', allowed: ROLES }, `Unknown role ${role}.`);
  return role as Role;
}

export function createAgentWithRole(ctx: AppContext, name: string, role?: string) {
  const r = role === undefined ? undefined : checkRole(role);
  const created = registerAgent(ctx, { name });
  if (r) accountStore(ctx.db).grantRole.run(created.agent.id, r, ctx.clock.now());
  return { name: created.agent.name, api_key: created.api_key, roles: r ? [r] : [] };
}

export function setRole(ctx: AppContext, act: 'grant' | 'revoke', name: string, role: string) {
  const r = checkRole(role);
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  if (act === 'grant') store.grantRole.run(a.id, r, ctx.clock.now());
  else store.revokeRole.run(a.id, r);
  return { name: a.name, roles: rolesOf(ctx, a.id) };
}

export function addCrew(ctx: AppContext, name: string, desk: string) {
  if (!desk.trim()) fail('INVALID_REQUEST', { field: 'desk' }, 'crew add needs --desk DESK.');
  const a = accountByName(ctx, name);
  accountStore(ctx.db).addCrew.run(a.id, desk.trim(), ctx.clock.now());
  return { name: a.name, crew: true, ...crewOf(ctx, a.id) };
}

export function removeCrew(ctx: AppContext, name: string) {
  const a = accountByName(ctx, name);
  accountStore(ctx.db).removeCrew.run(a.id);
  return { name: a.name, crew: false };
}

export function setShift(ctx: AppContext, name: string, shift: string, nextOn?: string) {
  if (shift !== 'on' && shift !== 'off') fail('INVALID_REQUEST', { field: 'shift', allowed: ['on', 'off'] }, 'Shift must be on or off.');
  let next: number | null = null;
  if (nextOn !== undefined) {
    next = Date.parse(nextOn);
    if (Number.isNaN(next)) fail('INVALID_REQUEST', { field: 'next_on', example: '2026-01-01T08:00:00Z' }, '--next-on must be an ISO 8601 time.');
  }
  const a = accountByName(ctx, name);
  if (!crewOf(ctx, a.id)) fail('INVALID_REQUEST', { field: 'name' }, `${a.name} is not crew: add it with crew add first.`);
  accountStore(ctx.db).setShift.run(shift, next, a.id);
  return { name: a.name, ...crewOf(ctx, a.id) };
}

export function setResident(ctx: AppContext, act: 'add' | 'remove', name: string) {
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  if (act === 'add') store.addResident.run(a.id, ctx.clock.now());
  else store.removeResident.run(a.id);
  return { name: a.name, resident: !!store.isResident.get(a.id) };
}

export function setResidency(ctx: AppContext, act: 'stop' | 'resume', name: string) {
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  tx(ctx.db, () => (act === 'stop' ? store.stopResidency.run(ctx.clock.now(), a.id) : store.resumeResidency.run(a.id)));
  const now = store.byId.get(a.id)!;
  return {
    name: a.name,
    residency: now.residency_stopped_at === null ? 'active' : 'stopped',
    stopped_at: now.residency_stopped_at === null ? null : iso(now.residency_stopped_at),
  };
}

export function setLabAllowed(ctx: AppContext, act: 'allow' | 'deny', name: string) {
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  if (act === 'allow') store.allowLab.run(a.id, ctx.clock.now());
  else store.denyLab.run(a.id);
  return { name: a.name, lab_allowed: !!store.isLabAllowed.get(a.id) };
}

/**
 * A new key for a live account that lost its own: the old key stops at once (its hash is
 * replaced), the new one is answered this once and only its hash and prefix are kept. The audit
 * row names the account, never a key.
 */
export function reissueKey(ctx: AppContext, name: string) {
  const a = accountByName(ctx, name);
  if (a.revoked_at !== null) fail('INVALID_REQUEST', { name: a.name, reason: 'revoked' }, `${a.name}'s key was revoked for good: it cannot be reissued.`);
  const key = newApiKey();
  accountStore(ctx.db).setKey.run(hashKey(key), keyPrefix(key), a.id);
  return { name: a.name, api_key: key, key_prefix: keyPrefix(key), reissued_at: iso(ctx.clock.now()) };
}

/** An operator's revocation: permanent, like POST /v1/me/revoke, and the account's writing leaves public reads. */
export function revokeByOperator(ctx: AppContext, name: string) {
  const a = accountByName(ctx, name);
  if (a.revoked_at !== null) return { name: a.name, revoked: true, revoked_at: iso(a.revoked_at), already_revoked: true };
  const now = ctx.clock.now();
  accountStore(ctx.db).revoke.run(now, a.id);
  return { name: a.name, revoked: true, revoked_at: iso(now), already_revoked: false };
}

const named = (input: { name: string }, r: { name: string }) => ({ target: r.name ?? input.name });
const Reason = v.pipe(v.string(), v.trim(), v.minLength(1, 'needs a reason'), v.maxLength(2000, 'at most 2000 characters'));
const On = <T extends string>(...values: T[]) => v.picklist(values, `expected one of ${values.join('|')}`);

export const ACCOUNTS_ACTIONS = [
  action({
    name: 'agent create',
    argv: 'NAME [--role owner|operator|editor|reporter|scorekeeper]',
    input: v.object({ name: v.string(), role: v.optional(v.string()) }),
    who: OWNER,
    run: (ctx, i) => createAgentWithRole(ctx, i.name, i.role),
    audit: (_i, r) => ({ target: r.name }),
  }),
  action({
    name: 'agent reissue',
    argv: 'NAME',
    note: 'the old key stops at once; the new one is printed once',
    input: Name,
    who: OPERATORS,
    run: (ctx, i) => reissueKey(ctx, i.name),
    audit: named,
  }),
  action({
    name: 'agent revoke',
    argv: 'NAME --reason TEXT',
    note: 'for good; its writing leaves the public reads',
    input: v.object({ name: v.string(), reason: Reason }),
    who: OPERATORS,
    publicText: ['reason'],
    run: (ctx, i) => revokeByOperator(ctx, i.name),
    audit: (i, r) => (r.already_revoked ? null : { target: r.name, reason: i.reason, modlog: 'key_revoked' }),
  }),
  ...(['grant', 'revoke'] as const).map((act) =>
    action({
      name: `role ${act}`,
      argv: 'NAME ROLE',
      input: v.object({ name: v.string(), role: v.string() }),
      who: OWNER,
      run: (ctx, i) => setRole(ctx, act, i.name, i.role),
      audit: (i, r) => ({ target: `${r.name} ${i.role}`, modlog: act === 'grant' ? 'role_granted' : 'role_revoked' }),
    }),
  ),
  action({
    name: 'crew add',
    argv: 'NAME --desk DESK',
    input: v.object({ name: v.string(), desk: v.string() }),
    who: OPERATORS,
    run: (ctx, i) => addCrew(ctx, i.name, i.desk),
    audit: (i, r) => ({ target: `${r.name} ${i.desk}` }),
  }),
  action({ name: 'crew remove', argv: 'NAME', input: Name, who: OPERATORS, run: (ctx, i) => removeCrew(ctx, i.name), audit: named }),
  action({
    name: 'shift set',
    argv: 'NAME shift:on|off [--next-on ISO]',
    input: v.object({ name: v.string(), shift: On('on', 'off'), next_on: v.optional(v.string()) }),
    who: OPERATORS,
    run: (ctx, i) => setShift(ctx, i.name, i.shift, i.next_on),
    audit: (i, r) => ({ target: `${r.name} ${i.shift}` }),
  }),
  ...(['add', 'remove'] as const).map((act) =>
    action({ name: `resident ${act}`, argv: 'NAME', input: Name, who: OPERATORS, run: (ctx, i) => setResident(ctx, act, i.name), audit: named }),
  ),
  ...(['stop', 'resume'] as const).map((act) =>
    action({ name: `residency ${act}`, argv: 'NAME', input: Name, who: OPERATORS, run: (ctx, i) => setResidency(ctx, act, i.name), audit: named }),
  ),
  ...(['allow', 'deny'] as const).map((act) =>
    action({ name: `lab ${act}`, argv: 'NAME', input: Name, who: OPERATORS, run: (ctx, i) => setLabAllowed(ctx, act, i.name), audit: named }),
  ),
];
