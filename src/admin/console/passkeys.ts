// Console passkeys (docs/operations.md, "Passkeys"): the two WebAuthn ceremonies on top of
// @simplewebauthn/server. The relying party is the service's base URL as the request names it
// (src/http/origin.ts): its origin is the only one accepted and its host name is the RP ID. Each
// challenge is stored server-side, bound to its ceremony (and, for registration, to the signed-in
// account), taken out on first use and refused after CHALLENGE_MS. Passkeys are for owners and
// operators (PASSKEY_ROLES; an editor signs in with its key): one is registered only from such a
// session and signs in only while its account still holds a live key and one of those roles.
// A reissued or revoked key removes the account's passkeys (session.ts, endConsoleAccess).
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { rolesOf } from '../../accounts/accounts.ts';
import type { AppContext } from '../../context.ts';
import { groupCommit } from '../../db/group-commit.ts';
import { ApiError } from '../../http/errors.ts';
import { originOf } from '../../http/origin.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { recordAudit } from '../../actions/audit.ts';
import { type Ceremony, type PasskeyRow, passkeyStore } from './passkey-store.ts';
import { fullConsole, openSession, PASSKEY_ROLES, recordSignIn, refusedPastLimit, type Session, TOO_MANY_TEXT } from './session.ts';
import { consoleStore } from './store.ts';

// The library is loaded at the first ceremony, not at start-up: it and its ASN.1 and COSE
// dependencies cost a start about 100 ms and 20 MB of idle memory, for a page an owner opens rarely.
type WebAuthn = typeof import('@simplewebauthn/server');
let webauthn: Promise<WebAuthn> | undefined;
const library = () => (webauthn ??= import('@simplewebauthn/server'));

export const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = 'svc console';
/**
 * Sign-in options anyone may ask for (each one a stored challenge): per address in a window, and
 * in all at once. Enough for a person's retries and cancelled dialogs; a flood is refused before
 * it writes anything, and cannot crowd out a signed-in account's registration (not counted).
 */
export const SIGN_IN_OPTIONS = { limit: 30, windowMs: 15 * 60_000, outstanding: 500 };

const optionLimiters = new WeakMap<AppContext, RateLimiter>();
const optionsOf = (ctx: AppContext) => {
  const l = optionLimiters.get(ctx) ?? new RateLimiter(ctx.clock, SIGN_IN_OPTIONS.limit, SIGN_IN_OPTIONS.windowMs);
  optionLimiters.set(ctx, l);
  return l;
};

/** A 429 in the error envelope with Retry-After and details.retry_at (src/http/errors.ts retryError's shape, with its own words). */
function tooMany(ctx: AppContext, retryAt: number, message: string): ApiError {
  const err = new ApiError('RATE_LIMITED', { retry_at: new Date(retryAt).toISOString() }, message);
  err.headers['retry-after'] = String(Math.max(1, Math.ceil((retryAt - ctx.clock.now()) / 1000)));
  return err;
}

/** The relying party of a request: the origin browsers must show and its host name. */
export function relyingParty(ctx: AppContext, request: Request): { origin: string; rpID: string } {
  const origin = originOf(ctx.config, request);
  return { origin, rpID: new URL(origin).hostname };
}

/** Keeps a ceremony's challenge; settles once it is durable (the group commit syncs off the request thread). */
function keepChallenge(ctx: AppContext, challenge: string, ceremony: Ceremony, accountId: string | null): Promise<void> {
  const s = passkeyStore(ctx.db);
  return groupCommit(ctx.db, () => {
    const now = ctx.clock.now();
    s.expireChallenges.run(now);
    s.putChallenge.run(challenge, ceremony, accountId, now + CHALLENGE_MS);
  });
}

/** The challenge the browser signed (from clientDataJSON), taken out once; refused unless it is this ceremony's, live. */
async function takeChallenge(ctx: AppContext, clientDataJSON: unknown, ceremony: Ceremony, accountId: string | null): Promise<string> {
  let challenge: unknown;
  try {
    challenge = JSON.parse(Buffer.from(String(clientDataJSON), 'base64url').toString('utf8')).challenge;
  } catch {
    challenge = null;
  }
  // An answer that names no challenge answers none of ours: the same refusal as an unknown one.
  if (typeof challenge !== 'string') throw new ApiError('PASSKEY_CHALLENGE_SPENT');
  // Taken out in the group commit, which runs writes one at a time: two answers with one challenge get it once.
  const row = await groupCommit(ctx.db, () => passkeyStore(ctx.db).takeChallenge.get(challenge));
  if (!row || row.ceremony !== ceremony || row.account_id !== accountId || row.expires_at < ctx.clock.now()) throw new ApiError('PASSKEY_CHALLENGE_SPENT');
  return challenge;
}

const audit = (ctx: AppContext, s: Session, action: string, credentialId: string) =>
  recordAudit(ctx, { actor: s.name, actorId: s.accountId, action, target: `${s.name} ${credentialId.slice(0, 16)}` });

/** Options for navigator.credentials.create: a discoverable credential that verifies the user. */
export async function registrationOptions(ctx: AppContext, s: Session, request: Request) {
  if (!fullConsole(s)) throw new ApiError('PASSKEY_ROLE_NEEDED');
  const { rpID } = relyingParty(ctx, request);
  const options = await (await library()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: s.name,
    userID: new TextEncoder().encode(s.accountId),
    attestationType: 'none',
    excludeCredentials: passkeyStore(ctx.db)
      .ofAccount.all(s.accountId)
      .map((p) => ({ id: p.credential_id, transports: JSON.parse(p.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_MS,
  });
  await keepChallenge(ctx, options.challenge, 'register', s.accountId);
  return options;
}

/** Verifies a registration answer and keeps the credential for the signed-in account. */
export async function register(ctx: AppContext, s: Session, request: Request, response: RegistrationResponseJSON) {
  if (!fullConsole(s)) throw new ApiError('PASSKEY_ROLE_NEEDED');
  const expectedChallenge = await takeChallenge(ctx, response.response?.clientDataJSON, 'register', s.accountId);
  const rp = relyingParty(ctx, request);
  let verified: Awaited<ReturnType<WebAuthn['verifyRegistrationResponse']>>;
  try {
    verified = await (await library()).verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
  } catch {
    throw new ApiError('PASSKEY_NOT_VERIFIED');
  }
  if (!verified.verified) throw new ApiError('PASSKEY_NOT_VERIFIED');
  const c = verified.registrationInfo.credential;
  const store = passkeyStore(ctx.db);
  if (store.byId.get(c.id)) throw new ApiError('PASSKEY_NOT_VERIFIED', undefined, 'This passkey is registered already.');
  await groupCommit(ctx.db, () => {
    store.insert.run(c.id, s.accountId, c.publicKey, c.counter, JSON.stringify(c.transports ?? []), ctx.clock.now());
    audit(ctx, s, 'passkey register', c.id);
  });
  return { credential_id: c.id };
}

/**
 * Options for navigator.credentials.get: any passkey of this relying party (discoverable). Nobody
 * is signed in yet, so each address may ask SIGN_IN_OPTIONS.limit times a window, and no more than
 * SIGN_IN_OPTIONS.outstanding sign-in challenges are kept at once (429 until the oldest expires).
 */
export async function authenticationOptions(ctx: AppContext, request: Request, address: string) {
  const retryAt = optionsOf(ctx).take(address);
  if (retryAt !== null) throw tooMany(ctx, retryAt, 'Too many passkey sign-ins started from this address: wait a few minutes.');
  const { rpID } = relyingParty(ctx, request);
  const options = await (await library()).generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: CHALLENGE_MS });
  const s = passkeyStore(ctx.db);
  const full = await groupCommit(ctx.db, () => {
    const now = ctx.clock.now();
    s.expireChallenges.run(now);
    const open = s.openSignIns.get()!;
    if (open.n >= SIGN_IN_OPTIONS.outstanding) return open.first ?? now + CHALLENGE_MS;
    s.putChallenge.run(options.challenge, 'sign-in', null, now + CHALLENGE_MS);
    return null;
  });
  if (full !== null) throw tooMany(ctx, full, 'Too many passkey sign-ins are under way: try again in a few minutes.');
  return options;
}

/**
 * Verifies a sign-in answer: a new session's token for the passkey's account. A refusal counts
 * against the address's sign-in limit (session.ts) and is in the audit log; past the limit it is
 * 429 and recorded nowhere. A passkey that verifies signs in whatever the count.
 */
export async function signInWithPasskey(ctx: AppContext, address: string, request: Request, response: AuthenticationResponseJSON): Promise<string> {
  let row: PasskeyRow | null = null;
  let account: { id: string; name: string } | null = null;
  const how = () => (row ? `passkey ${row.credential_id.slice(0, 16)}` : 'passkey');
  try {
    const expectedChallenge = await takeChallenge(ctx, response.response?.clientDataJSON, 'sign-in', null);
    const store = passkeyStore(ctx.db);
    row = typeof response.id === 'string' ? store.byId.get(response.id) : null;
    if (!row) throw new ApiError('PASSKEY_UNKNOWN');
    const known = row;
    const holder = consoleStore(ctx.db).account.get(known.account_id);
    if (holder) account = { id: known.account_id, name: holder.name };
    const rp = relyingParty(ctx, request);
    let verified: Awaited<ReturnType<WebAuthn['verifyAuthenticationResponse']>>;
    try {
      verified = await (await library()).verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: true,
        credential: { id: known.credential_id, publicKey: new Uint8Array(known.public_key), counter: known.counter, transports: JSON.parse(known.transports) },
      });
    } catch {
      throw new ApiError('PASSKEY_NOT_VERIFIED');
    }
    if (!verified.verified) throw new ApiError('PASSKEY_NOT_VERIFIED');
    if (!holder || !account || holder.revoked_at !== null || !rolesOf(ctx, known.account_id).some((r) => PASSKEY_ROLES.includes(r)))
      throw new ApiError('PASSKEY_ROLE_GONE');
    await groupCommit(ctx.db, () => store.used.run(verified.authenticationInfo.newCounter, ctx.clock.now(), known.credential_id));
    return await openSession(ctx, account, how(), address);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const retryAt = refusedPastLimit(ctx, address);
    if (retryAt !== null) throw tooMany(ctx, retryAt, TOO_MANY_TEXT);
    await groupCommit(ctx.db, () => recordSignIn(ctx, { account, how: how(), address, refused: e.code }));
    throw e;
  }
}

export const passkeysOf = (ctx: AppContext, accountId: string) => passkeyStore(ctx.db).ofAccount.all(accountId);

/** Removes one of the signed-in account's own passkeys (durable when it settles); false when it has none of that id. */
export function removePasskey(ctx: AppContext, s: Session, credentialId: string): Promise<boolean> {
  const store = passkeyStore(ctx.db);
  return groupCommit(ctx.db, () => {
    const row = store.byId.get(credentialId);
    if (!row || row.account_id !== s.accountId) return false;
    store.remove.run(credentialId, s.accountId);
    audit(ctx, s, 'passkey remove', credentialId);
    return true;
  });
}
