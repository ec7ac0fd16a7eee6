// The public reads' error codes: the activity feed and its since.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const PUBLIC_CODES = {
  INVALID_SINCE: {
    status: 400,
    message: 'since is a malformed time or an id not in the feed.',
    fix: 'Use an id listed by this feed or a valid ISO 8601 / unix-seconds time.',
  },
  ACTIVITY_UNAVAILABLE: { status: 503, message: 'The activity feed could not be read.', fix: 'Retry shortly with the same since; no item is lost.' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof PUBLIC_CODES> {}
}
