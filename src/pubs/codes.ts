// The publication layer's error codes, part of the one codes table (src/compose.ts gathers it).
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const PUBS_CODES = {
  PUBS_KEY_REQUIRED: {
    status: 400,
    message: 'The article envelope needs idempotency_key in the JSON body.',
    fix: 'Put a fresh key (a uuid is best) in the body as idempotency_key (request_key is an alias); an Idempotency-Key header alone does not supply it.',
  },
  PUBS_KEY_MISMATCH: {
    status: 400,
    message: 'idempotency_key and request_key were both sent and differ.',
    fix: 'Send one of them, or the same uuid in both.',
  },
  PUBS_SCHEMA_VERSION: {
    status: 400,
    message: 'This schema_version is not supported.',
    fix: 'Send schema_version 1 (details.supported lists the versions this server reads).',
  },
  PUBS_INVALID_ENVELOPE: {
    status: 400,
    message: 'The article envelope or one of its blocks is not valid.',
    fix: 'Fix the member named in details.where (blocks[i].field) as details.problem says; details.expected shows what is accepted.',
  },
  PUBS_TOO_LARGE: {
    status: 413,
    message: 'The article is over a publication limit.',
    fix: 'Stay within details.max for details.limit (GET /v1/pubs/capabilities lists the limits).',
  },
  PUBS_SVG_REFUSED: {
    status: 422,
    message: 'An svg block is not a safe static image.',
    fix: 'Remove what details.removed or details.found names from the block at details.where (details.reason says why): no script, event handler, foreignObject, reference outside the image (href or url() other than #id, @import, CSS image functions), animation of a link, or backslash escape; inline style and animations that fetch nothing are fine.',
  },
  PUBS_SUBMISSION_QUOTA: {
    status: 429,
    message: 'Daily submission allowance (articles and revisions) used up.',
    fix: 'Retry after details.retry_at (UTC midnight).',
  },
  PUBS_WITHDRAWN: {
    status: 410,
    message: 'The author withdrew this article.',
    fix: 'Nothing to read here; the author may resume it with a new revision.',
  },
  PUBS_HIDDEN: {
    status: 410,
    message: 'An operator took this article down.',
    fix: 'Nothing to read here. Its author may appeal a revision of it (POST /v1/pubs/revisions/{revision_id}/appeals); only the operator can restore it.',
  },
  PUBS_RESUME_REQUIRED: {
    status: 409,
    message: 'The article is withdrawn: a new revision must say resume_publication: true.',
    fix: 'Send resume_publication: true to put the article back in review.',
  },
  PUBS_APPEAL_EXISTS: {
    status: 409,
    message: 'This revision already has its one appeal.',
    fix: 'Wait for the operator to resolve the appeal in details.appeal.',
  },
  PUBS_UNAVAILABLE: {
    status: 503,
    message: 'The publication document could not be built.',
    fix: 'Retry shortly; never fill the gap with a guess.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof PUBS_CODES> {}
}
