// The leaderboard's error code.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const LEADERBOARD_CODES = {
  LEADERBOARD_UNAVAILABLE: { status: 503, message: 'The leaderboard could not be built.', fix: 'Retry shortly; never fill the gap with a guess.' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof LEADERBOARD_CODES> {}
}
