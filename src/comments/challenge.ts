// ALTCHA proof of work for guest writes (altcha-lib v2): a challenge is signed with the service's
// own secret, bound to one guest session (its id's hash is a signed parameter), expires, and is
// accepted once (the signature is stored in the same transaction as the write; zero rows
// inserted = a replay). Expiry is judged by the service's clock first, then by the library's.
import type * as Altcha from 'altcha-lib';
import type { Challenge } from 'altcha-lib';
import type * as Pbkdf2 from 'altcha-lib/algorithms/pbkdf2';

// altcha-lib loads on the first challenge made or checked, not at start-up.
let altcha: { createChallenge: typeof Altcha.createChallenge; verifySolution: typeof Altcha.verifySolution; deriveKey: typeof Pbkdf2.deriveKey } | undefined;
function lib() {
  altcha ??= {
    ...(require('altcha-lib') as typeof Altcha),
    deriveKey: (require('altcha-lib/algorithms/pbkdf2') as typeof Pbkdf2).deriveKey,
  };
  return altcha;
}
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { commitLater } from '../db/group-commit.ts';
import { fail } from '../http/errors.ts';
import { commentsStore } from './store.ts';

export const ALGORITHM = 'PBKDF2/SHA-256';
export const WIDGET = { script: '/assets/altcha/altcha.min.js', css: '/assets/altcha/altcha.css', worker: '/assets/altcha/pbkdf2.js' } as const;

/** Secrets made by this process and not yet committed, by database and name. */
const unstored = new WeakMap<AppContext['db'], Map<string, string>>();

/**
 * A secret generated once per database and kept there, so restarts keep issued challenges valid.
 * The first use writes it: inside the caller's transaction when there is one, else in the next group
 * commit (never a commit of its own on the request thread), the value kept in memory meanwhile so
 * every caller signs with the same one.
 */
export function serviceSecret(ctx: AppContext, name: string): string {
  const s = commentsStore(ctx.db);
  const hit = s.secret.get(name);
  if (hit) return hit.value;
  const waiting = unstored.get(ctx.db)?.get(name);
  if (waiting !== undefined) return waiting;
  const value = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  if (ctx.db.inTransaction) {
    s.insertSecret.run(name, value);
    return s.secret.get(name)!.value;
  }
  const kept = unstored.get(ctx.db) ?? new Map<string, string>();
  unstored.set(ctx.db, kept.set(name, value));
  commitLater(ctx.db, () => s.insertSecret.run(name, value), 'service_secret').finally(() => kept.delete(name));
  return value;
}

const binding = (sessionId: string): string => new Bun.CryptoHasher('sha256').update(`altcha-session:${sessionId}`).digest('hex').slice(0, 32);

/** The `challenge` member of the session answer: `{enabled: false}`, or a fresh challenge for this session. */
export async function challengeFor(ctx: AppContext, sessionId: string) {
  const settings = ctx.config.comments;
  if (!settings.challengeEnabled) return { enabled: false as const };
  const expiresAt = Math.floor(ctx.clock.now() / 1000) + settings.challengeMinutes * 60;
  const { createChallenge, deriveKey } = lib();
  const data = await createChallenge({
    algorithm: ALGORITHM,
    cost: settings.challengeCost,
    deriveKey,
    hmacSignatureSecret: serviceSecret(ctx, 'altcha_hmac'),
    expiresAt,
    data: { s: binding(sessionId) },
  });
  return { enabled: true as const, algorithm: ALGORITHM, expires_at: iso(expiresAt * 1000), widget: WIDGET, data };
}

export interface SolvedChallenge {
  signature: string;
  expiresAtMs: number;
}

const invalid = (reason: string): never => fail('GUEST_CHALLENGE_INVALID', { field: 'challenge', reason });

function decode(payload: string): { challenge: Challenge; solution: { counter: number; derivedKey: string } } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    return invalid('not the widget’s payload (base64 of JSON)');
  }
  const p = parsed as { challenge?: { parameters?: unknown; signature?: unknown }; solution?: { counter?: unknown; derivedKey?: unknown } };
  if (!p || typeof p !== 'object' || !p.challenge || typeof p.challenge.parameters !== 'object' || p.challenge.parameters === null || !p.solution)
    invalid('the payload has no challenge and solution');
  if (typeof p.challenge!.signature !== 'string') invalid('the challenge is not signed');
  return p as never;
}

/**
 * Checks a solved challenge for this session (not yet marking it used: `spendChallenge` does that
 * inside the write's transaction, so a refused write leaves the challenge unspent).
 */
export async function checkChallenge(ctx: AppContext, sessionId: string, payload: string | undefined): Promise<SolvedChallenge | null> {
  if (!ctx.config.comments.challengeEnabled) return null;
  if (payload === undefined || payload === '') return fail('GUEST_CHALLENGE_REQUIRED', { field: 'challenge' });
  const { challenge, solution } = decode(payload);
  const params = challenge.parameters;
  if (params.algorithm !== ALGORITHM) invalid('unexpected algorithm');
  const expiresAt = typeof params.expiresAt === 'number' ? params.expiresAt : 0;
  if (expiresAt * 1000 <= ctx.clock.now()) fail('GUEST_CHALLENGE_EXPIRED', { field: 'challenge', expired_at: expiresAt > 0 ? iso(expiresAt * 1000) : null });
  const { verifySolution, deriveKey } = lib();
  const result = await verifySolution({ challenge, solution: solution as never, deriveKey, hmacSignatureSecret: serviceSecret(ctx, 'altcha_hmac') });
  if (result.expired) fail('GUEST_CHALLENGE_EXPIRED', { field: 'challenge', expired_at: iso(expiresAt * 1000) });
  if (result.invalidSignature) invalid('the challenge was not issued by this service or was edited');
  if (!result.verified) invalid('the solution does not solve the challenge');
  // Signed, so the binding cannot be edited: a challenge of another session fails here.
  if (params.data?.s !== binding(sessionId)) invalid('the challenge belongs to another guest session');
  return { signature: challenge.signature!, expiresAtMs: expiresAt * 1000 };
}

/** Marks a solved challenge used, inside the write's transaction; a second use is 409. */
export function spendChallenge(ctx: AppContext, solved: SolvedChallenge | null): void {
  if (!solved) return;
  const s = commentsStore(ctx.db);
  s.sweepChallenges.run(ctx.clock.now());
  const { changes } = s.useChallenge.run(solved.signature, solved.expiresAtMs);
  if (changes === 0) fail('GUEST_CHALLENGE_USED', { field: 'challenge' });
}
