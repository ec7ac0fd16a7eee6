// The console's JSON refusals (passkeys and a cross-site request, for the console's own script), part of the one codes table.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const ADMIN_CODES = {
  CONSOLE_SIGNED_OUT: {
    status: 401,
    message: 'No console session: sign in first.',
    fix: 'Sign in at /console, then try again from the Passkeys page.',
  },
  CONSOLE_FORM_CHECK: {
    status: 403,
    message: 'The form check (csrf) failed.',
    fix: 'Reload the console page and try again: the request must carry the session’s csrf token.',
  },
  PASSKEY_CHALLENGE_SPENT: {
    status: 400,
    message: 'The passkey challenge is unknown, used already, expired or from another ceremony.',
    fix: 'Start the ceremony again: ask for new options and answer them within 5 minutes, once.',
  },
  PASSKEY_NOT_VERIFIED: {
    status: 400,
    message: 'The authenticator’s answer did not verify (origin, relying party, user verification or signature).',
    fix: 'Use the console at the service’s configured address (SVC_BASE_URL) with an authenticator that verifies the user.',
  },
  PASSKEY_UNKNOWN: {
    status: 401,
    message: 'This passkey is not registered with the console.',
    fix: 'Sign in with a key and register the passkey on the Passkeys page first.',
  },
  PASSKEY_ROLE_NEEDED: {
    status: 403,
    message: 'Passkeys are for owner and operator accounts; an editor signs in with its key.',
    fix: 'Sign in with the key, or ask an owner for the operator role if you need the whole console.',
  },
  CONSOLE_CROSS_SITE: {
    status: 403,
    message: 'This console request came from another site (its Origin or Sec-Fetch-Site), so it was refused.',
    fix: 'Use the console from its own pages at the service’s address (SVC_BASE_URL).',
  },
  PASSKEY_ROLE_GONE: {
    status: 403,
    message: 'The passkey’s account no longer has a live key with the owner or operator role.',
    fix: 'Ask an owner to grant the role again (svc admin role grant) or reissue the account’s key.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof ADMIN_CODES> {}
}
