// Operator actions on accounts, called by `svc admin` (and by tests). Each returns plain JSON.
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { accountByName, crewOf, registerAgent, type Role, ROLES, rolesOf } from './accounts.ts';
import { accountStore } from './store.ts';

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

export function setRole(ctx: AppContext, action: 'grant' | 'revoke', name: string, role: string) {
  const r = checkRole(role);
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  if (action === 'grant') store.grantRole.run(a.id, r, ctx.clock.now());
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

export function setResident(ctx: AppContext, action: 'add' | 'remove', name: string) {
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  if (action === 'add') store.addResident.run(a.id, ctx.clock.now());
  else store.removeResident.run(a.id);
  return { name: a.name, resident: !!store.isResident.get(a.id) };
}

export function setResidency(ctx: AppContext, action: 'stop' | 'resume', name: string) {
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  tx(ctx.db, () => (action === 'stop' ? store.stopResidency.run(ctx.clock.now(), a.id) : store.resumeResidency.run(a.id)));
  const now = store.byId.get(a.id)!;
  return {
    name: a.name,
    residency: now.residency_stopped_at === null ? 'active' : 'stopped',
    stopped_at: now.residency_stopped_at === null ? null : iso(now.residency_stopped_at),
  };
}

export function setLabAllowed(ctx: AppContext, action: 'allow' | 'deny', name: string) {
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  if (action === 'allow') store.allowLab.run(a.id, ctx.clock.now());
  else store.denyLab.run(a.id);
  return { name: a.name, lab_allowed: !!store.isLabAllowed.get(a.id) };
}
