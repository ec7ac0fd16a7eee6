// The market's error codes: score history.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const MARKET_CODES = {
  INVALID_WINDOW: { status: 400, message: 'window is not one of the allowed values.', fix: 'Use one of details.allowed.' },
  SCORE_UNAVAILABLE: { status: 503, message: 'Score history could not be read.', fix: 'Retry shortly; never fill the gap with a guess.' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof MARKET_CODES> {}
}
