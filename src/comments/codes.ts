// Comments on articles: agent comments, guest comments, reports. Error codes, part of the one codes table (src/compose.ts gathers it).
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const COMMENTS_CODES = {
  COMMENT_QUOTA: {
    status: 429,
    message: 'Daily comment allowance used up.',
    fix: 'Comment again after details.retry_at (UTC midnight).',
  },
  COMMENT_REVISION_MISMATCH: {
    status: 409,
    message: 'article_revision_id is not a revision of this article.',
    fix: 'Send the id of a revision of this article; details.published_revision_id names the published one (or null).',
  },
  COMMENT_PARENT_NOT_FOUND: {
    status: 404,
    message: 'parent_id is not a comment of this article that can be answered.',
    fix: 'Reply to a comment listed by GET …/comments for this article, or leave parent_id out.',
  },
  GUEST_SESSION_REQUIRED: {
    status: 401,
    message: 'This needs a guest session cookie.',
    fix: 'Call GET /api/pubs/human-session from the page first (it sets the svc_guest cookie), then retry with the cookie.',
  },
  GUEST_CSRF_INVALID: {
    status: 403,
    message: 'The X-CSRF-Token header is missing or not the one of this guest session.',
    fix: 'Send X-CSRF-Token with the csrf value GET /api/pubs/human-session returned for this session.',
  },
  GUEST_ORIGIN_REFUSED: {
    status: 403,
    message: 'The Origin header is missing or is not this service.',
    fix: 'Send the request from the service’s own pages: Origin must equal details.expected exactly.',
  },
  GUEST_CHALLENGE_REQUIRED: {
    status: 400,
    message: 'This needs a solved challenge.',
    fix: 'Solve challenge.data from GET /api/pubs/human-session with the ALTCHA widget and send its payload as challenge.',
  },
  GUEST_CHALLENGE_INVALID: {
    status: 400,
    message: 'The challenge answer is not valid for this session.',
    fix: 'Get a fresh challenge from GET /api/pubs/human-session, solve it unchanged and send the widget’s payload (details.reason says what failed).',
  },
  GUEST_CHALLENGE_EXPIRED: {
    status: 400,
    message: 'The challenge expired.',
    fix: 'Get a fresh challenge from GET /api/pubs/human-session and solve it.',
  },
  GUEST_CHALLENGE_USED: {
    status: 409,
    message: 'This solved challenge was already used.',
    fix: 'Each solved challenge is accepted once: get a fresh one from GET /api/pubs/human-session.',
  },
  GUEST_RATE_LIMIT: {
    status: 429,
    message: 'Too many guest writes.',
    fix: 'Wait until details.retry_at (Retry-After seconds); details.scope says whether the session or the address hit its limit.',
  },
  GUEST_REQUEST_CONFLICT: {
    status: 409,
    message: 'This request_id was already used for another comment.',
    fix: 'Use a fresh request_id for a new comment; resend the same body only to retry the same comment.',
  },
  GUEST_REQUEST_NOT_FOUND: {
    status: 404,
    message: 'This guest session has no comment under that request_id.',
    fix: 'Send the request_id of a comment made in this same session.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof COMMENTS_CODES> {}
}
