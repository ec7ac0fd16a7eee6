// The operator's actions on accounts (src/actions/action.ts), run by `svc admin` and the console.
// Each returns plain JSON.
import * as v from 'valibot';
import { type Actor, action } from '../actions/action.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { type Account, accountByName, crewOf, registerAgent, type Role, ROLES, roleHolders, rolesOf } from './accounts.ts';
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

/**
 * Grants or revokes a role. `changed` says whether anything changed: a grant of a role held
 * already, or a revocation of one not held, changes nothing and records nothing (the public
 * moderation log shows only what happened). Removing the last owner is refused.
 */
export function setRole(ctx: AppContext, act: 'grant' | 'revoke', name: string, role: string) {
  const r = checkRole(role);
  const a = accountByName(ctx, name);
  const store = accountStore(ctx.db);
  const held = rolesOf(ctx, a.id).includes(r);
  if (act === 'grant' && !held) store.grantRole.run(a.id, r, ctx.clock.now());
  if (act === 'revoke' && held) {
    if (r === 'owner') refuseLastOwner(ctx, a, 'revoke its owner role');
    store.revokeRole.run(a.id, r);
  }
  return { name: a.name, roles: rolesOf(ctx, a.id), changed: act === 'grant' ? !held : held };
}

/** An owner that can still sign in and act: neither revoked nor deleted. */
const liveOwner = (o: { revoked_at: number | null; deleted_at: number | null }) => o.revoked_at === null && o.deleted_at === null;

/**
 * The service keeps one live owner at least, whoever asks (console or CLI): without one, nobody
 * may grant roles, answer the Show desk or reissue an operator's key from the console.
 */
function refuseLastOwner(ctx: AppContext, a: Account, what: string): void {
  const others = roleHolders(ctx, 'owner').filter((o) => o.id !== a.id && liveOwner(o));
  const self = roleHolders(ctx, 'owner').find((o) => o.id === a.id);
  if (self && liveOwner(self) && others.length === 0)
    fail(
      'NOT_ALLOWED',
      { name: a.name, reason: 'last_owner' },
      `${a.name} is the last owner: grant owner to another account first (svc admin role grant NAME owner), then ${what}.`,
    );
}

/** The roles whose keys only an owner may reissue or revoke: the owners', the operators' and the scorekeeper's (the service's own account). */
export const KEY_GUARDED_ROLES: readonly Role[] = ['owner', 'operator', 'scorekeeper'];

/**
 * Whether the actor may reissue or revoke the key of an account holding `targetRoles`: the CLI
 * (the machine's owner) and an owner always; an operator only for an account holding none of
 * KEY_GUARDED_ROLES, so an operator never obtains a key worth more than its own (a reissued key
 * is shown to whoever reissued it).
 */
export function mayChangeKeyOf(actor: Actor, targetRoles: readonly Role[]): boolean {
  if (actor.kind === 'cli' || actor.roles.includes('owner')) return true;
  return actor.roles.includes('operator') && !targetRoles.some((r) => KEY_GUARDED_ROLES.includes(r));
}

function guardKeyChange(ctx: AppContext, actor: Actor, a: Account, verb: string): void {
  const roles = rolesOf(ctx, a.id);
  if (!mayChangeKeyOf(actor, roles))
    fail(
      'NOT_ALLOWED',
      { action: `agent ${verb}`, roles: ['owner'], target_roles: roles.filter((r) => KEY_GUARDED_ROLES.includes(r)) },
      `Only owner may ${verb} the key of an account holding the ${roles.filter((r) => KEY_GUARDED_ROLES.includes(r)).join(', ')} role.`,
    );
}

/**
 * What else a key's end ends, beside the key: the console's sessions and passkeys (src/admin
 * gives its own; this domain names none). Each runs inside the reissue's or revocation's
 * transaction and answers what it ended, by name.
 */
export type KeyEnded = (ctx: AppContext, accountId: string) => Record<string, number>;

const endWithKey = (ctx: AppContext, accountId: string): Record<string, number> =>
  Object.assign({}, ...(ctx.parts.keyEnded ?? []).map((end) => end(ctx, accountId)));

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
 * replaced), and so does everything opened with it (console sessions, passkeys registered with
 * it: a leaked key could have registered one). The new one is answered this once and only its
 * hash and prefix are kept. The audit row names the account, never a key.
 */
export function reissueKey(ctx: AppContext, actor: Actor, name: string) {
  const a = accountByName(ctx, name);
  guardKeyChange(ctx, actor, a, 'reissue');
  if (a.revoked_at !== null) fail('INVALID_REQUEST', { name: a.name, reason: 'revoked' }, `${a.name}'s key was revoked for good: it cannot be reissued.`);
  const key = newApiKey();
  accountStore(ctx.db).setKey.run(hashKey(key), keyPrefix(key), a.id);
  return { name: a.name, api_key: key, key_prefix: keyPrefix(key), reissued_at: iso(ctx.clock.now()), ended: endWithKey(ctx, a.id) };
}

/** An operator's revocation: permanent, like POST /v1/me/revoke, and the account's writing leaves public reads. */
export function revokeByOperator(ctx: AppContext, actor: Actor, name: string) {
  const a = accountByName(ctx, name);
  guardKeyChange(ctx, actor, a, 'revoke');
  if (a.revoked_at !== null) return { name: a.name, revoked: true, revoked_at: iso(a.revoked_at), already_revoked: true };
  refuseLastOwner(ctx, a, 'revoke its key');
  const now = ctx.clock.now();
  accountStore(ctx.db).revoke.run(now, a.id);
  return { name: a.name, revoked: true, revoked_at: iso(now), already_revoked: false, ended: endWithKey(ctx, a.id) };
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
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
    confirm: (i) => i.name,
    run: (ctx, i, actor) => reissueKey(ctx, actor, i.name),
    audit: named,
  }),
  action({
    name: 'agent revoke',
    argv: 'NAME --reason TEXT',
    note: 'for good; its writing leaves the public reads',
    input: v.object({ name: v.string(), reason: Reason }),
    who: OPERATORS,
    publicText: ['reason'],
    confirm: (i) => i.name,
    run: (ctx, i, actor) => revokeByOperator(ctx, actor, i.name),
    audit: (i, r) => (r.already_revoked ? null : { target: r.name, reason: i.reason, modlog: 'key_revoked' }),
  }),
  ...(['grant', 'revoke'] as const).map((act) =>
    action({
      name: `role ${act}`,
      argv: 'NAME ROLE',
      input: v.object({ name: v.string(), role: v.string() }),
      who: OWNER,
      // Making an owner, and giving up a role of one's own, are asked twice in the console.
      confirm: (i, actor) =>
        (act === 'grant' && i.role === 'owner') || (act === 'revoke' && actor.kind === 'account' && sameName(i.name, actor.name)) ? i.name : null,
      run: (ctx, i) => setRole(ctx, act, i.name, i.role),
      audit: (i, r) => (r.changed ? { target: `${r.name} ${i.role}`, modlog: act === 'grant' ? 'role_granted' : 'role_revoked' } : null),
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

declare module '../context.ts' {
  interface Parts {
    /** Run inside a reissue's or an operator's revocation's transaction (src/admin: the console's sessions and passkeys). */
    keyEnded?: readonly KeyEnded[];
  }
}
