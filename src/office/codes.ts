// The office document's error code.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const OFFICE_CODES = {
  OFFICE_UNAVAILABLE: { status: 503, message: 'The office document could not be built.', fix: 'Retry shortly; never fill the gap with a guess.' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof OFFICE_CODES> {}
}
