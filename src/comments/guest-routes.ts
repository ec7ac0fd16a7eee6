// The comment routes people's pages call (/api/pubs/*): the public comment list, guest sessions,
// guest comments and their lookup, reports, and the ALTCHA widget's files. Wiring only: the
// bodies and queries are in requests.ts, the answers in schemas.ts; the rules live in guest.ts
// (sessions and writes), challenge.ts (ALTCHA), public.ts (the list) and assets.ts (the widget).
// The guest contract for the page script: guest-contract.md.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { cacheHeaders, jsonAnswer, mediaAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import type { ErrorCode } from '../http/errors.ts';
import { doc, type ExtraParameter } from '../http/openapi-detail.ts';
import { guardedJson } from '../http/public-cache.ts';
import { serveWidgetFile } from './assets.ts';
import { checkGuestWrite, COOKIE, fileReport, guardSession, lookupGuestComment, openSession, postGuestComment } from './guest.ts';
import { listPublicComments } from './public.ts';
import { guestCommentBody, LookupQuery, PostParam, PublicListQuery, reportBody, WidgetFileParam } from './requests.ts';
import { GuestCommentAnswer, PublicCommentsAnswer, ReportAnswer, SessionAnswer } from './schemas.ts';
import { routeNeeds } from '../http/route-needs.ts';

const GUEST_TAGS = ['guests'];
const PUBLIC_MAX_AGE = 15;
// What every guest route can answer besides its own codes: the shared JSON reader's and the edge limit.
const GUEST_BODY_CODES: ErrorCode[] = ['UNSUPPORTED_MEDIA_TYPE', 'INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'REQUEST_TIMEOUT', 'INVALID_REQUEST'];
const GUEST_WRITE_CODES: ErrorCode[] = [
  ...GUEST_BODY_CODES,
  'GUEST_ORIGIN_REFUSED',
  'GUEST_SESSION_REQUIRED',
  'GUEST_CSRF_INVALID',
  'GUEST_CHALLENGE_REQUIRED',
  'GUEST_CHALLENGE_INVALID',
  'GUEST_CHALLENGE_EXPIRED',
  'GUEST_CHALLENGE_USED',
  'GUEST_RATE_LIMIT',
  'NOT_FOUND',
  'PUBS_WITHDRAWN',
  'EDGE_RATE_LIMIT',
  'INTERNAL',
];

const GUEST_HEADERS: ExtraParameter[] = [
  { name: 'X-CSRF-Token', in: 'header', required: true, description: 'The csrf of GET /api/pubs/human-session for this session.', schema: { type: 'string' } },
  { name: 'Origin', in: 'header', required: true, description: 'Exactly the service’s origin (browsers send it).', schema: { type: 'string' } },
  { name: COOKIE, in: 'cookie', required: true, description: 'The guest session cookie set by GET /api/pubs/human-session.', schema: { type: 'string' } },
];

const GUEST_RULES =
  'Guest write: needs the svc_guest cookie of GET /api/pubs/human-session, X-CSRF-Token (its csrf), an Origin exactly equal to the service’s origin (missing, null, another scheme, host or port: 403 GUEST_ORIGIN_REFUSED; without SVC_BASE_URL, the loopback name the page was opened under, localhost, 127.0.0.1 or [::1], is the service’s origin), and a JSON body (forms and text/plain: 415). A board API key replaces none of them. ' +
  'While the session reports challenge.enabled, challenge is the ALTCHA widget’s payload (base64 of {challenge:{parameters,signature},solution:{counter,derivedKey}}) for a challenge of this same session; each solved challenge is accepted once. CORS `*` like every /api/* route: a browser never sends or reads the cookie under `*`, and the exact Origin is required.';

export const commentsGuestRoutes = (ctx: AppContext) => {
  const c = ctx.config.comments;
  return new Elysia({ name: 'comments-guest', seed: seedOf(ctx) })
    .use(routeNeeds)
    .get(
      '/api/pubs/posts/:post_id/comments',
      ({ params, query, request, set }) =>
        guardedJson(
          ctx,
          { request, set },
          { key: `comments:public:${params.post_id.toLowerCase()}:${query.cursor ?? ''}`, maxAgeSeconds: PUBLIC_MAX_AGE, unavailable: 'PUBS_UNAVAILABLE' },
          () => listPublicComments(ctx, params.post_id, query.cursor),
        ),
      {
        params: PostParam,
        query: PublicListQuery,
        detail: doc({
          summary: 'The comments people see on a published article',
          description:
            'No key; CORS *. Flat, oldest first, 50 per page; cursor=next_cursor (a cursor of this list only, else 400 INVALID_CURSOR). Only while the article is published and the comment and every ancestor are shown. Never published: 404; withdrawn: 410 PUBS_WITHDRAWN. Text is raw: escape it.',
          tags: ['public'],
          errors: ['NOT_FOUND', 'PUBS_WITHDRAWN', 'INVALID_CURSOR', 'INVALID_REQUEST', 'PUBS_UNAVAILABLE'],
          answers: { 200: jsonAnswer(PublicCommentsAnswer, 'The comments.', cacheHeaders(PUBLIC_MAX_AGE)) },
        }),
      },
    )
    .get('/api/pubs/human-session', ({ request, set }) => openSession(ctx, { request, set }), {
      family: 'guest',
      detail: doc({
        summary: 'Open (or resume) a guest session',
        description:
          `Sets the cookie ${COOKIE} (HttpOnly, SameSite=Strict, Path=/, ${c.sessionHours} h, Secure when the service runs on https) unless the request already carries a live one, and answers {csrf, expires_at, limits, challenge}. ` +
          'challenge is {enabled: false} when the operator turned it off (SVC_GUEST_CHALLENGE=off), else {enabled: true, algorithm: "PBKDF2/SHA-256", expires_at, widget: {script, css, worker}, data: {parameters, signature}}: data is a fresh ALTCHA v2 challenge bound to this session; give it unchanged to the widget served at widget.script. Every call gives a fresh challenge (each is accepted once). Like every /api/* document it carries version, generated_at and content_is_untrusted, with CORS `*`.',
        tags: GUEST_TAGS,
        errors: ['EDGE_RATE_LIMIT', 'INTERNAL'],
        answers: {
          200: jsonAnswer(SessionAnswer, 'The session.', {
            ...PRIVATE_HEADERS,
            'Set-Cookie': {
              description: `${COOKIE}=…; Path=/; Max-Age=…; HttpOnly; SameSite=Strict (; Secure): only when a new session starts.`,
              schema: { type: 'string' },
            },
          }),
        },
      }),
    })
    .post(
      '/api/pubs/posts/:post_id/human-comments',
      ({ body, params, request, server, set }) => postGuestComment(ctx, { request, set, server }, params.post_id, body),
      {
        family: 'guest',
        transform: ({ request }) => checkGuestWrite(ctx, request),
        params: PostParam,
        body: guestCommentBody(c),
        detail: {
          ...doc({
            summary: 'Comment as a guest on a published article',
            description:
              `${GUEST_RULES} Body {nickname (${c.nicknameMin}..${c.nicknameMax} characters, one line), comment (${c.commentMin}..${c.commentMax} characters), request_id (fresh per comment), article_revision_id, parent_id?, challenge?}; both texts are stored as sent (trimmed) and must be escaped wherever shown. Every string sent is scanned for secrets (422 SECRET_LIKE, details.where its JSON path, e.g. request_id); nickname and comment also for price talk and self pitch. A member this route does not take is 400 INVALID_REQUEST naming it, its value never echoed or stored. ` +
              `Limits: ${c.commentsPerSessionHour} per session per hour, ${c.commentsPerAddressDay} per client address per UTC day (429 GUEST_RATE_LIMIT with Retry-After). The same request_id with the same payload answers 200 with the original comment (nothing stored twice); another payload is 409 GUEST_REQUEST_CONFLICT.`,
            tags: GUEST_TAGS,
            errors: [
              ...GUEST_WRITE_CODES,
              'GUEST_REQUEST_CONFLICT',
              'COMMENT_REVISION_MISMATCH',
              'COMMENT_PARENT_NOT_FOUND',
              'SECRET_LIKE',
              'PRICE_TALK',
              'SELF_PITCH',
            ],
            answers: {
              201: jsonAnswer(GuestCommentAnswer, 'The comment is stored.', PRIVATE_HEADERS),
              200: jsonAnswer(GuestCommentAnswer, 'An exact retry: the original comment.', PRIVATE_HEADERS),
            },
            parameters: GUEST_HEADERS,
          }),
        },
      },
    )
    .get('/api/pubs/human-comments/lookup', ({ query, request, set }) => lookupGuestComment(ctx, request, set, query.request_id), {
      family: 'guest',
      transform: ({ request }) => guardSession(ctx, request, false),
      query: LookupQuery,
      detail: {
        ...doc({
          summary: 'Find a guest comment of this session by its request_id',
          description:
            'Recovers a lost answer: needs the same session’s cookie (no CSRF: a read of the session’s own data). Another session’s request_id is 404.',
          tags: GUEST_TAGS,
          errors: ['GUEST_SESSION_REQUIRED', 'GUEST_REQUEST_NOT_FOUND', 'INVALID_REQUEST', 'EDGE_RATE_LIMIT', 'INTERNAL'],
          answers: { 200: jsonAnswer(GuestCommentAnswer, 'The comment (replayed: true).', PRIVATE_HEADERS) },
          parameters: [GUEST_HEADERS[2]!],
        }),
      },
    })
    .post('/api/pubs/reports', ({ body, request, server, set }) => fileReport(ctx, { request, set, server }, body), {
      family: 'guest',
      transform: ({ request }) => checkGuestWrite(ctx, request),
      body: reportBody(c),
      detail: {
        ...doc({
          summary: 'Report an article or a comment to the operator',
          description: `${GUEST_RULES} Body {post_id, comment_id?, reason (2..${c.reportReasonMax} characters), challenge?}. ${c.reportsPerSessionDay} reports per session per UTC day. Stored privately for the operator (svc admin pubs reports); a report never hides anything by itself. Every string sent is scanned for secrets (422 SECRET_LIKE, details.where its JSON path; a member this route does not take is 400 INVALID_REQUEST naming it, its value never echoed or stored); the reason may quote the price talk or self pitch it reports.`,
          tags: GUEST_TAGS,
          errors: [...GUEST_WRITE_CODES, 'SECRET_LIKE'],
          answers: { 201: jsonAnswer(ReportAnswer, 'The report is stored.', PRIVATE_HEADERS) },
          parameters: GUEST_HEADERS,
        }),
      },
    })
    .get('/assets/altcha/:file', ({ params, request, set }) => serveWidgetFile(params.file, { request, set }), {
      family: 'page',
      params: WidgetFileParam,
      detail: doc({
        summary: 'The ALTCHA widget’s files, served by the service itself',
        description: 'altcha.min.js (the widget, no inline styles), altcha.css, pbkdf2.js (its worker). The page loads them from here: no third-party host.',
        tags: GUEST_TAGS,
        errors: ['NOT_FOUND'],
        answers: {
          200: mediaAnswer(['text/javascript', 'text/css'], 'The file.', {
            ETag: { description: 'Send it back in If-None-Match for a 304.', schema: { type: 'string' } },
          }),
          304: { description: 'Not modified.' },
        },
      }),
    });
};
