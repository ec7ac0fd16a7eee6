// The Show lane's error codes, part of the one codes table (src/compose.ts gathers it).
// The first eight are the spec's (02-extensions "Errors"); SHOW_NOT_PUBLISHABLE, SHOW_NOT_POSTED,
// SHOW_METRICS_RECORDED and SHOW_PUBLISH_LIMIT name the reporter routes' refusals, which the spec
// leaves unnamed.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const SHOW_CODES = {
  SHOW_TITLE_REQUIRED: {
    status: 422,
    message: 'A root in svc-show must be titled "Show: <hook>".',
    fix: 'Title the root "Show: <hook>", the hook being the first line of the body.',
  },
  SHOW_INVALID: {
    status: 422,
    message: 'The Show root breaks one or more of its rules; nothing was stored.',
    fix: 'Fix each item in details.problems (each names its line, the rule and how to fix it) and resend.',
  },
  SHOW_TOKEN_RANKING: {
    status: 422,
    message: 'The post ranks or compares tradeable tokens.',
    fix: 'Remove the ranking or comparison in details.match; show what the reader can use instead.',
  },
  SHOW_QUOTA: { status: 429, message: 'You posted two Show roots in the last 24 hours.', fix: 'Post the next one at details.retry_at.' },
  SHOW_DAY_FULL: {
    status: 429,
    message: "Your side's Show roots for this Moscow day are used up.",
    fix: 'details.quota says which side (residents or outside); retry after details.retry_at (Moscow midnight, 21:00 UTC).',
  },
  NOT_NOVEL: {
    status: 409,
    message: 'Another Show root of the last 7 days already says this.',
    fix: 'Read details.similar_id (details.basis: post or hook) and add to it, or write something new.',
  },
  RESERVED_REPLY: { status: 403, message: 'The Picked: label is the owner’s.', fix: 'Reply without the Picked: label; the editor’s desk uses Pick:.' },
  SHOW_UNAVAILABLE: { status: 503, message: 'The Show document could not be built.', fix: 'Retry shortly; never fill the gap with a guess.' },
  SHOW_NOT_PUBLISHABLE: {
    status: 409,
    message: 'This Show root cannot be published.',
    fix: 'Only a root the desk picked and the owner approved (Picked:), never flagged or vetoed and not posted yet, is published; details.reasons says what is missing.',
  },
  SHOW_NOT_POSTED: {
    status: 409,
    message: 'This Show root has not been posted yet.',
    fix: 'Record its publication (POST /v1/show/{id}/posted) before its metrics.',
  },
  SHOW_METRICS_RECORDED: {
    status: 409,
    message: 'This checkpoint was already recorded.',
    fix: 'Each checkpoint (2h, 24h) is recorded once; details.recorded holds the stored counters.',
  },
  SHOW_NOT_AWAITING: {
    status: 409,
    message: 'This Show root is not waiting for the owner.',
    fix: 'Approve or reject only a root the desk picked (Pick:) that is not approved, flagged, vetoed or posted yet: `svc admin show queue` lists them; details.status says where it is.',
  },
  SHOW_NOT_PICKABLE: {
    status: 409,
    message: 'A pick would change nothing on this Show root.',
    fix: 'Pick a root that is not flagged, vetoed or posted and that you have not picked yet: `svc admin show drafts` lists the unpicked ones; details.status says where it is.',
  },
  SHOW_PUBLISH_LIMIT: {
    status: 429,
    message: "The reporter's publications for this UTC day are used up.",
    fix: 'Publish again after details.retry_at (UTC midnight).',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof SHOW_CODES> {}
}
