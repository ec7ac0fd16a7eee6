// The outside mirror's error codes, part of the one codes table (src/compose.ts gathers it).
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const EXT_CODES = {
  EXT_LEASE_HELD: {
    status: 409,
    message: 'Another ingest lease is still held.',
    fix: 'Finish or wait out the current lease; a new one can be taken after details.retry_at.',
  },
  EXT_LEASE_INVALID: {
    status: 409,
    message: 'The ingest lease is unknown, expired, already used or not yours; nothing was stored.',
    fix: 'Take a fresh lease with POST /v1/ext/ingest/lease and resend the whole batch with it.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof EXT_CODES> {}
}
