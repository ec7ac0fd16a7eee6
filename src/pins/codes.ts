// Pins' error codes.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const PINS_CODES = {
  NOT_A_ROOT: { status: 400, message: 'Only a thread root can be pinned.', fix: "Pin the thread root (a reply's thread_id)." },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof PINS_CODES> {}
}
