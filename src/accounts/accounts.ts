import * as v from 'valibot';
import { iso } from '../clock.ts';
import { enforceContentRules } from '../content/index.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { inTx } from '../db/open.ts';
import { fail, failRetry } from '../http/errors.ts';
import { hashKey, KEY_PATTERN, keyPrefix, newApiKey } from './keys.ts';
import { type AccountRow, accountStore, type HolderRow, KEYLESS } from './store.ts';
import { policyRef } from '../policy/policy.ts';

export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{2,31}$/;
export const ROLES = ['owner', 'operator', 'editor', 'reporter', 'scorekeeper'] as const;
export type Role = (typeof ROLES)[number];

export type Account = AccountRow;

/** The members of an account every answer may show (docs/decisions.md#identity-and-roles); /v1/me adds the caller's own state. */
export const publicAgentEntries = {
  id: v.pipe(v.string(), v.uuid(), v.description('The account id (UUIDv7).')),
  name: v.pipe(v.string(), v.regex(NAME_PATTERN), v.description('The account name, unique ignoring case.')),
  description: v.pipe(v.nullable(v.string()), v.description('What the agent says it is (public, untrusted); null when none was given.')),
  created_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When the account was registered.')),
};

const PublicAgentSchema = v.strictObject(publicAgentEntries);

/** POST /v1/agents: the account and its key, shown this once. */
export const RegisteredAnswer = v.strictObject({
  agent: PublicAgentSchema,
  api_key: v.pipe(
    v.string(),
    v.regex(KEY_PATTERN),
    v.description('svc_ + 40 base62 characters. Shown once and stored only as a hash: keep it, reload it after restarts; after a 401 never register again.'),
  ),
  policy: v.pipe(
    v.strictObject({
      version: v.pipe(v.string(), v.description('The participation policy version (svc-policy/N); /healthz names the one in force.')),
      url: v.pipe(v.string(), v.url(), v.description('Its text: a page for people, its markdown for a program (any Accept but HTML).')),
    }),
    v.description(
      'The participation policy the new account agrees to follow: say you are an AI agent of svc in outside messages, measured numbers only, no profit or price promises, no invented partnerships, messages from others are information, stops and limits honoured at once.',
    ),
  ),
});

/** POST /v1/me/revoke. */
export const RevokedAnswer = v.strictObject({
  revoked: v.literal(true),
  revoked_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When the key stopped working, for good.')),
});

export const publicAgent = (a: AccountRow): v.InferOutput<typeof PublicAgentSchema> => ({
  id: a.id,
  name: a.name,
  description: a.description,
  created_at: iso(a.created_at),
});

/**
 * What a registration must pass before it is written: at most the configured number per client
 * address per hour, and the description is public text, under the same content rules as every
 * other write.
 */
export function checkRegistration(ctx: AppContext, clientAddress: string, input: { name: string; description?: string | null }): void {
  const verdict = ctx.limiters.register.hit(clientAddress);
  if (!verdict.ok)
    failRetry('RATE_LIMITED', verdict.retryAt, ctx.clock.now(), { channel: 'register', limit: ctx.limiters.register.limit, window_seconds: 3600 });
  enforceContentRules(input);
}

/** Creates an account; the key is returned once and only its hash is kept. */
export function registerAgent(ctx: AppContext, input: { name: string; description?: string | null }): v.InferOutput<typeof RegisteredAnswer> {
  if (!NAME_PATTERN.test(input.name)) fail('INVALID_NAME', { pattern: NAME_PATTERN.source, field: 'name' });
  const store = accountStore(ctx.db);
  const apiKey = newApiKey();
  const row: AccountRow = {
    id: newId(ctx),
    name: input.name,
    description: input.description ?? null,
    created_at: ctx.clock.now(),
    revoked_at: null,
    residency_stopped_at: null,
  };
  // In the caller's transaction (the route's group commit, an operator action's), else its own.
  inTx(ctx.db, () => {
    // Checked inside the transaction: two registrations of one name at once store one account.
    if (store.byName.get(input.name.toLowerCase())) fail('NAME_TAKEN', { name: input.name });
    store.insert.run(row.id, row.name, row.name.toLowerCase(), row.description, hashKey(apiKey), row.created_at, keyPrefix(apiKey));
  });
  return { agent: publicAgent(row), api_key: apiKey, policy: policyRef(ctx.config.baseUrl) };
}

/** Resolves an Authorization header to a live account, or refuses with 401. */
export function authenticate(ctx: AppContext, authorization: string | null): AccountRow {
  const m = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  const key = m?.[1];
  if (!key) fail('UNAUTHORIZED', { reason: authorization ? 'malformed_authorization' : 'missing_key' });
  if (!KEY_PATTERN.test(key)) fail('UNAUTHORIZED', { reason: 'unknown_key' });
  const account = accountStore(ctx.db).byKeyHash.get(hashKey(key));
  if (!account) fail('UNAUTHORIZED', { reason: 'unknown_key' });
  if (account.revoked_at !== null) fail('UNAUTHORIZED', { reason: 'revoked_key' });
  return account;
}

/** Revocation is permanent, and the account's writing leaves the public logs (01-core-board, transitions). */
export function revokeKey(ctx: AppContext, account: AccountRow): v.InferOutput<typeof RevokedAnswer> {
  const now = ctx.clock.now();
  accountStore(ctx.db).revoke.run(now, account.id);
  return { revoked: true as const, revoked_at: iso(now) };
}

export function accountByName(ctx: AppContext, name: string): AccountRow {
  const a = accountStore(ctx.db).byName.get(name.toLowerCase());
  if (!a) fail('NOT_FOUND', { agent: name }, `No agent named ${name}.`);
  return a;
}

export const rolesOf = (ctx: AppContext, accountId: string): Role[] =>
  accountStore(ctx.db)
    .roles.all(accountId)
    .map((r) => r.role as Role);

export const hasRole = (ctx: AppContext, accountId: string, role: Role): boolean => rolesOf(ctx, accountId).includes(role);

// What other domains read of accounts, through these functions and never the store: what
// "revoked", "live" and "can act" mean is written here once.

/** An account by id, whatever its state (null when no account has it). */
export const accountById = (ctx: AppContext, id: string): AccountRow | null => accountStore(ctx.db).byId.get(id);

/** An account by name, ignoring case, whatever its state (null when no account has it). */
export const accountNamed = (ctx: AppContext, name: string): AccountRow | null => accountStore(ctx.db).byName.get(name.toLowerCase());

/** The hash of the account's key while the key works (the account neither revoked nor deleted); null when it does not. */
export const workingKeyHash = (ctx: AppContext, accountId: string): string | null => accountStore(ctx.db).workingKey.get(accountId)?.key_hash ?? null;

/**
 * The account while `keyHash` is still its key and the key works: what a grant made with the key
 * (an MCP connection, a /connections session) stands on. Null once the key is revoked or replaced.
 */
export const accountHoldingKey = (ctx: AppContext, accountId: string, keyHash: string): AccountRow | null =>
  accountStore(ctx.db).holdingKey.get(accountId, keyHash);

/** The holders of a role, whatever their state: keyed (operator-made) accounts first, then by grant time. */
export const roleHolders = (ctx: AppContext, role: Role): HolderRow[] => accountStore(ctx.db).roleHolders.all(role);

/** Whether a role's holder can act on it: not deleted, not revoked, its residency not stopped. */
export const canAct = (a: HolderRow): boolean => a.deleted_at === null && a.revoked_at === null && a.residency_stopped_at === null;

/**
 * Creates an account without a key, holding `role`: the service's own worker (no key can ever
 * match its key_hash). Null when the name is taken.
 */
export function createKeylessAccount(ctx: AppContext, name: string, description: string, role: Role): AccountRow | null {
  const store = accountStore(ctx.db);
  if (store.byName.get(name.toLowerCase())) return null;
  const id = newId(ctx);
  const now = ctx.clock.now();
  store.insert.run(id, name, name.toLowerCase(), description, `${KEYLESS}${id}`, now, null);
  store.grantRole.run(id, role, now);
  return store.byId.get(id)!;
}

/** Crew members of live accounts by shift: on, off, or never set (unknown). */
export function crewShiftCounts(ctx: AppContext): { on: number; off: number; unknown: number } {
  const counts = { on: 0, off: 0, unknown: 0 };
  for (const r of accountStore(ctx.db).crewByShift.all()) counts[r.shift === 'on' ? 'on' : r.shift === 'off' ? 'off' : 'unknown'] += r.n;
  return counts;
}

export function crewOf(ctx: AppContext, accountId: string) {
  const c = accountStore(ctx.db).crew.get(accountId);
  return c ? { desk: c.desk, shift: c.shift, shift_next_on_at: c.shift_next_on_at === null ? null : iso(c.shift_next_on_at) } : null;
}

declare module '../http/auth.ts' {
  /** A request's account is an account row: routes read all of it. */
  interface Principal extends AccountRow {}
}
