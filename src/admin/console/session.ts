// Console sign-in and sessions (docs/operations.md, "The console"). An owner's, operator's or editor's key
// is taken once (POST /console/sign-in) and never stored or echoed; the session is a random token
// in an HttpOnly, SameSite=Strict cookie (Secure behind https), stored hashed, with a short idle
// and an absolute lifetime, and a CSRF token every form carries. Roles are read again on every
// request, so a revoked key or role ends the session at once; a reissued key ends the account's
// sessions and passkeys in the reissue's own transaction (endConsoleAccess). Only refused sign-ins
// count against the per-address limit (a right key always signs in, so nobody sharing an address
// can lock an operator out); every sign-in, let in or refused below the limit, is one row of the
// audit log (never the key).
import { timingSafeEqual } from 'node:crypto';
import { authenticate, type Role, rolesOf } from '../../accounts/accounts.ts';
import { hashKey, newApiKey } from '../../accounts/keys.ts';
import type { AppContext } from '../../context.ts';
import { commitLater, groupCommit } from '../../db/group-commit.ts';
import { recordAudit } from '../../actions/audit.ts';
import { ApiError } from '../../http/errors.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { dropNotices } from './flash.ts';
import { passkeyStore } from './passkey-store.ts';
import { consoleStore } from './store.ts';

export const COOKIE = 'svc_console';
export const IDLE_MS = 30 * 60_000;
export const ABSOLUTE_MS = 8 * 3_600_000;
/** Refused sign-ins (key or passkey) one address may make in a window; past it a refusal is 429 and not recorded. */
export const SIGN_IN_ATTEMPTS = { limit: 10, windowMs: 15 * 60_000 };
/** Who may sign in at all; an editor sees the Show desk only (FULL_ROLES for every other page). */
export const CONSOLE_ROLES: readonly Role[] = ['owner', 'operator', 'editor'];
/** The roles that see every page of the console. */
export const FULL_ROLES: readonly Role[] = ['owner', 'operator'];
/** Whether a session sees the whole console, or only the Show desk (an editor's). */
export const fullConsole = (s: Pick<Session, 'roles'>) => s.roles.some((r) => FULL_ROLES.includes(r));
/** Who may register and sign in with a passkey: the owners and operators (docs/operations.md, "Passkeys"); an editor uses its key. */
export const PASSKEY_ROLES = FULL_ROLES;
/** The audit log's actor of a sign-in whose account is not known (a wrong key, an unknown passkey): no account name has parentheses. */
export const UNKNOWN_ACTOR = '(unknown)';

export interface Session {
  tokenHash: string;
  accountId: string;
  name: string;
  roles: Role[];
  csrf: string;
}

const limiters = new WeakMap<AppContext, RateLimiter>();
/** The refused sign-ins of each address (successes are never counted). */
export const attemptsOf = (ctx: AppContext) => {
  const kept = limiters.get(ctx);
  if (kept) return kept;
  const made = new RateLimiter(ctx.clock, SIGN_IN_ATTEMPTS.limit, SIGN_IN_ATTEMPTS.windowMs);
  limiters.set(ctx, made);
  return made;
};

export type SignIn = { ok: true; token: string } | { ok: false; status: 400 | 401 | 403 | 429; message: string; retryAt?: number };

export const TOO_MANY_TEXT = 'Too many refused sign-ins from this address: wait a few minutes.';

/**
 * Counts one refused sign-in of an address: null while it is within the limit (the refusal is
 * answered and recorded), else when its window ends (answered 429, recorded nowhere: a flood
 * writes nothing). A sign-in that succeeds never comes here.
 */
export const refusedPastLimit = (ctx: AppContext, address: string): number | null => attemptsOf(ctx).take(address);

/** One sign-in attempt in the audit log: the account when known, how (key, passkey), from where (unless SVC_LOG_ADDRESSES=0) and why it was refused. */
export function recordSignIn(ctx: AppContext, e: { account: { id: string; name: string } | null; how: string; address: string; refused?: string }): void {
  recordAudit(ctx, {
    actor: e.account?.name ?? UNKNOWN_ACTOR,
    actorId: e.account?.id ?? null,
    action: e.refused === undefined ? 'console sign-in' : 'console sign-in refused',
    target: `${e.how}${ctx.config.logAddresses ? ` from ${e.address}` : ''}`,
    reason: e.refused ?? null,
  });
}

/** A refused sign-in: counted, then recorded durably and answered, or past the limit 429 and not recorded. */
async function refused(
  ctx: AppContext,
  address: string,
  account: { id: string; name: string } | null,
  r: SignIn & { ok: false },
  why: string,
): Promise<SignIn> {
  const retryAt = refusedPastLimit(ctx, address);
  if (retryAt !== null) return { ok: false, status: 429, message: TOO_MANY_TEXT, retryAt };
  await groupCommit(ctx.db, () => recordSignIn(ctx, { account, how: 'key', address, refused: why }));
  return r;
}

/**
 * Checks a key once and opens a session for an owner, operator or editor. The key is checked
 * before the limit: a right key signs in even from an address past it (the limit cannot hide
 * whether a key is live, which /v1 answers anyway, so refusing one would only lock people out).
 */
export async function signIn(ctx: AppContext, address: string, key: string): Promise<SignIn> {
  let account: ReturnType<typeof authenticate>;
  try {
    account = authenticate(ctx, `Bearer ${key.trim()}`);
  } catch (e) {
    if (e instanceof ApiError) return refused(ctx, address, null, { ok: false, status: 401, message: 'This key is not a live svc key.' }, 'not a live key');
    throw e;
  }
  const roles = rolesOf(ctx, account.id);
  if (!roles.some((r) => CONSOLE_ROLES.includes(r)))
    return refused(
      ctx,
      address,
      account,
      { ok: false, status: 403, message: 'The console is for accounts with the owner, operator or editor role.' },
      'no console role',
    );
  if (!ctx.config.console.keySignIn && roles.some((r) => PASSKEY_ROLES.includes(r)) && passkeyStore(ctx.db).countOf.get(account.id)!.n > 0)
    return refused(
      ctx,
      address,
      account,
      {
        ok: false,
        status: 403,
        message: 'This account has a passkey and key sign-in is off here (SVC_CONSOLE_KEY_SIGNIN=off): sign in with the passkey.',
      },
      'key sign-in is off for accounts with a passkey',
    );
  return { ok: true, token: await openSession(ctx, account, 'key', address) };
}

/**
 * A new session of an account already checked (by key or by passkey), recorded in the audit log:
 * its cookie's token, once the session is durable (through the group commit, whose sync runs off
 * the request thread).
 */
export async function openSession(ctx: AppContext, account: { id: string; name: string }, how: string, address: string): Promise<string> {
  const token = newApiKey().slice(4);
  const s = consoleStore(ctx.db);
  await groupCommit(ctx.db, () => {
    const now = ctx.clock.now();
    s.expire.run(now - IDLE_MS, now - ABSOLUTE_MS);
    s.insert.run(hashKey(token), account.id, newApiKey().slice(4), now, now);
    recordSignIn(ctx, { account, how, address });
  });
  return token;
}

/**
 * What ends with an account's key (reissued or revoked; Parts.keyEnded, in that transaction):
 * every console session opened with it, and every passkey registered on the account, since
 * whoever held a leaked key could have registered one.
 */
export function endConsoleAccess(ctx: AppContext, accountId: string): Record<string, number> {
  const sessions = consoleStore(ctx.db).removeOfAccount.run(accountId).changes;
  const p = passkeyStore(ctx.db);
  p.removeChallengesOf.run(accountId);
  return { console_sessions: sessions, console_passkeys: p.removeOfAccount.run(accountId).changes };
}

/** The session of a request's cookie, still within both lifetimes and still held by a console role; touched. */
export function sessionOf(ctx: AppContext, cookieHeader: string | null): Session | null {
  const token = cookieValue(cookieHeader, COOKIE);
  if (!token) return null;
  const s = consoleStore(ctx.db);
  const hash = hashKey(token);
  const row = s.byHash.get(hash);
  if (!row) return null;
  const now = ctx.clock.now();
  // The session's own upkeep (its end, its last-seen time) is written later, in the next group
  // commit: a page view never commits on the request thread, and a power cut that lost one of these
  // writes loses nothing anyone was told (the session is refused, or stays idle a little longer).
  const end = () => commitLater(ctx.db, () => s.remove.run(hash), 'console_session_end');
  if (now - row.seen_at > IDLE_MS || now - row.created_at > ABSOLUTE_MS) {
    end();
    return null;
  }
  const account = s.account.get(row.account_id);
  const roles = rolesOf(ctx, row.account_id);
  if (!account || account.revoked_at !== null || !roles.some((r) => CONSOLE_ROLES.includes(r))) {
    end();
    return null;
  }
  commitLater(ctx.db, () => s.touch.run(now, hash), 'console_session_seen');
  return { tokenHash: hash, accountId: row.account_id, name: account.name, roles, csrf: row.csrf };
}

/**
 * Ends the session the cookie names, whatever its state and with no form token: a sign-out cannot
 * hurt, and a half-done one (cookie cleared, session alive) would. Settles once the removal is durable.
 */
export async function signOut(ctx: AppContext, cookieHeader: string | null): Promise<void> {
  const token = cookieValue(cookieHeader, COOKIE);
  dropNotices(ctx, tokenHashOf(cookieHeader));
  if (token) await groupCommit(ctx.db, () => consoleStore(ctx.db).remove.run(hashKey(token)));
}

/** The CSRF check of a form: the session's token, compared in constant time. */
export function csrfOk(session: Session, sent: string | undefined): boolean {
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(sent ?? '');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The hash a session is kept under, of the token the cookie names (live or not); null without one. */
export function tokenHashOf(cookieHeader: string | null): string | null {
  const token = cookieValue(cookieHeader, COOKIE);
  return token ? hashKey(token) : null;
}

export function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

/** The session cookie (or its removal, `token` null). */
export function sessionCookie(token: string | null, secure: boolean): string {
  const base = `${COOKIE}=${token ?? ''}; Path=/console; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return token === null ? `${base}; Max-Age=0` : `${base}; Max-Age=${ABSOLUTE_MS / 1000}`;
}
