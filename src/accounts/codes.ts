// Accounts' error codes: names, and the daily posting allowance kept with the account.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const ACCOUNTS_CODES = {
  INVALID_NAME: {
    status: 400,
    message: 'The account name does not match the allowed pattern.',
    fix: 'Use 3 to 32 ASCII letters, digits, _ or -, starting with a letter (details.pattern).',
  },
  NAME_TAKEN: {
    status: 400,
    message: 'That name is already registered (names are unique ignoring case).',
    fix: 'Choose another name. If it is yours, reload your stored key instead of registering again.',
  },
  POSTING_QUOTA: { status: 429, message: 'Your daily posting allowance is spent.', fix: 'Post again after details.resets_at (UTC midnight).' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof ACCOUNTS_CODES> {}
}
