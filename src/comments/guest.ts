// Guests: people without accounts, in their own browser, on the service's pages
// (docs/decisions.md#guests). A session is a random cookie token (stored hashed) with a CSRF
// token bound to it; every guest write needs the cookie, that token in X-CSRF-Token and an Origin
// exactly equal to the service's own. A board key replaces none of them, and none of them reaches
// an agent route (those read only the bearer key).
import type { Context } from 'elysia';
import { iso, nextUtcMidnight } from '../clock.ts';
import { enforceContentRules } from '../content/index.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { groupCommit } from '../db/group-commit.ts';
import { tx } from '../db/open.ts';
import { clientAddress } from '../http/client.ts';
import { originOf } from '../http/origin.ts';
import { fail, failRetry } from '../http/errors.ts';
import { canonicalJson } from '../http/idempotency.ts';
import { commitWrite } from '../http/write.ts';
import { refreshArticlePage } from '../pages/pubs.ts';
import { documentMembers } from '../public/envelope.ts';
import { checkRevision, publishedArticle } from './article.ts';
import { challengeFor, checkChallenge, serviceSecret, spendChallenge } from './challenge.ts';
import { commentsStore } from './store.ts';
import { guestComment } from './views.ts';

export const COOKIE = 'svc_guest';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface GuestSession {
  id: string;
  csrf: string;
  expires_at: number;
}

const sha256 = (s: string): string => new Bun.CryptoHasher('sha256').update(s).digest('hex');
const token = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

function cookieValue(request: Request): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === COOKIE) return part.slice(at + 1).trim();
  }
  return null;
}

/** The live session the request's cookie names, or null. */
export function sessionOf(ctx: AppContext, request: Request): GuestSession | null {
  const raw = cookieValue(request);
  if (!raw || !/^[A-Za-z0-9_-]{43}$/.test(raw)) return null;
  return commentsStore(ctx.db).session.get(sha256(raw), ctx.clock.now()) ?? null;
}

function cookieHeader(ctx: AppContext, value: string): string {
  const secure = ctx.config.baseUrl.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${value}; Path=/; Max-Age=${ctx.config.comments.sessionHours * 3600}; HttpOnly; SameSite=Strict${secure}`;
}

export function guestLimits(ctx: AppContext) {
  const s = ctx.config.comments;
  return {
    nickname_min: s.nicknameMin,
    nickname_max: s.nicknameMax,
    comment_min: s.commentMin,
    comment_max: s.commentMax,
    comments_per_session_per_hour: s.commentsPerSessionHour,
    comments_per_address_per_day: s.commentsPerAddressDay,
    reports_per_session_per_day: s.reportsPerSessionDay,
    report_reason_max: s.reportReasonMax,
  };
}

/** GET /api/pubs/human-session: the cookie's session (or a new one) and a fresh challenge for it. */
export async function openSession(ctx: AppContext, http: Pick<Context, 'request' | 'set'>) {
  http.set.headers['cache-control'] = 'no-store';
  let session = sessionOf(ctx, http.request);
  if (!session) {
    const raw = token();
    const now = ctx.clock.now();
    session = { id: sha256(raw), csrf: token(), expires_at: now + ctx.config.comments.sessionHours * HOUR };
    const s = commentsStore(ctx.db);
    const row = session;
    await groupCommit(ctx.db, () => {
      s.sweepSessions.run(now);
      s.insertSession.run(row.id, row.csrf, now, row.expires_at);
    });
    http.set.headers['set-cookie'] = cookieHeader(ctx, raw);
  }
  return {
    ...documentMembers(ctx.clock.now()),
    csrf: session.csrf,
    expires_at: iso(session.expires_at),
    limits: guestLimits(ctx),
    challenge: await challengeFor(ctx, session.id),
  };
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const checked = new WeakMap<Request, GuestSession>();

/**
 * The guest write checks, run before the body is validated: Origin exactly ours (a string
 * comparison with the base URL's origin: no prefix, suffix, scheme or port can pass; `null` and
 * absence refused; on a default install, the loopback name the page was opened under, see
 * src/http/origin.ts), then the cookie's session, then its CSRF token.
 */
export function checkGuestWrite(ctx: AppContext, request: Request): void {
  const origin = request.headers.get('origin');
  const expected = originOf(ctx.config, request);
  if (origin !== expected) fail('GUEST_ORIGIN_REFUSED', { expected, got: origin });
  guardSession(ctx, request, true);
}

/** The session checks alone (the lookup is a read: cookie only). */
export function guardSession(ctx: AppContext, request: Request, csrf: boolean): void {
  const session = sessionOf(ctx, request);
  if (!session) fail('GUEST_SESSION_REQUIRED', { cookie: COOKIE, session_url: '/api/pubs/human-session' });
  if (csrf) {
    const sent = request.headers.get('x-csrf-token');
    if (!sent || !sameToken(sent, session.csrf)) fail('GUEST_CSRF_INVALID', { header: 'X-CSRF-Token' });
  }
  checked.set(request, session);
}

export const checkedSession = (request: Request): GuestSession => checked.get(request)!;

function addressHash(ctx: AppContext, request: Request, server: Context['server']): string {
  const ip = clientAddress(request, server?.requestIP(request)?.address, ctx.config.trustProxy);
  return sha256(`${serviceSecret(ctx, 'address_salt')}:${ip}`);
}

// The content rules over every string a guest sends: the secret rule everywhere (docs/decisions.md#content-rules).
const SECRETS_ONLY = { priceTalk: false, selfPitch: false };

/** The body as sent (a member the route does not take was refused before: src/http/members.ts). */
export interface GuestCommentBody {
  nickname: string;
  comment: string;
  request_id: string;
  article_revision_id: string;
  parent_id?: string | undefined;
  challenge?: string | undefined;
  [member: string]: unknown;
}

const fingerprintOf = (postId: string, b: GuestCommentBody) =>
  sha256(
    canonicalJson({
      post: postId.toLowerCase(),
      nickname: b.nickname.trim(),
      comment: b.comment.trim(),
      revision: b.article_revision_id.toLowerCase(),
      parent: b.parent_id?.toLowerCase() ?? null,
    }),
  );

/**
 * The comment already made under this request_id in this session: replayed, or 409 if the payload
 * differs. A guest's dedupe is no idempotency key of the write pipeline: its owner is the session,
 * not an account; the comment row itself holds the request_id and the payload's fingerprint; and a
 * replay answers 200 with the comment as it is now (replayed: true), not a stored first answer.
 */
function replay(ctx: AppContext, session: GuestSession, postId: string, body: GuestCommentBody, set: Context['set']) {
  const prior = commentsStore(ctx.db).guestByRequest.get(session.id, body.request_id);
  if (!prior) return undefined;
  if (prior.guest_fingerprint !== fingerprintOf(postId, body)) fail('GUEST_REQUEST_CONFLICT', { field: 'request_id', request_id: body.request_id });
  set.status = 200;
  return { ...documentMembers(ctx.clock.now()), request_id: body.request_id, replayed: true, comment: guestComment(prior) };
}

/** A rolling window (the hour of a session): full until its oldest entry leaves it. */
function rateLimit(ctx: AppContext, count: { n: number; oldest: number | null }, limit: number, windowMs: number, scope: string): void {
  if (count.n < limit) return;
  const now = ctx.clock.now();
  failRetry('GUEST_RATE_LIMIT', (count.oldest ?? now) + windowMs, now, { scope, limit, window_seconds: windowMs / 1000 });
}

/** A daily limit: counted over the UTC day, full until the next UTC midnight (docs/decisions.md#paging-and-time: daily quotas reset then). */
function dailyLimit(ctx: AppContext, count: { n: number }, limit: number, scope: string): void {
  if (count.n < limit) return;
  const now = ctx.clock.now();
  failRetry('GUEST_RATE_LIMIT', nextUtcMidnight(now), now, { scope, limit, window: 'utc_day' });
}

/** The start of the UTC day `ms` falls in. */
const utcDayStart = (ms: number): number => nextUtcMidnight(ms) - DAY;

/** POST /api/pubs/posts/{post_id}/human-comments (the route has run checkGuestWrite). */
export async function postGuestComment(ctx: AppContext, http: Pick<Context, 'request' | 'set' | 'server'>, postId: string, body: GuestCommentBody) {
  const session = checkedSession(http.request);
  http.set.headers['cache-control'] = 'no-store';
  const replayed = replay(ctx, session, postId, body, http.set);
  if (replayed) return replayed;
  const solved = await checkChallenge(ctx, session.id, body.challenge);
  const nickname = body.nickname.trim();
  const text = body.comment.trim();
  // Every string sent is scanned for secrets (request_id, members the route ignores); the prose
  // rules read what people read.
  enforceContentRules(body, SECRETS_ONLY);
  enforceContentRules({ nickname, comment: text });
  const address = addressHash(ctx, http.request, http.server);
  const settings = ctx.config.comments;
  // The write pipeline's last stages (group commit, one transaction): the replay is checked again
  // inside it, for a twin request that committed meanwhile.
  return commitWrite(ctx, () =>
    tx(ctx.db, () => {
      const again = replay(ctx, session, postId, body, http.set);
      if (again) return { answer: again };
      const s = commentsStore(ctx.db);
      const item = publishedArticle(ctx, postId);
      const revisionId = checkRevision(ctx, item, body.article_revision_id);
      const parentId = body.parent_id?.toLowerCase() ?? null;
      if (parentId !== null && !s.shownInItem.get(item.id, parentId)) fail('COMMENT_PARENT_NOT_FOUND', { field: 'parent_id', parent_id: parentId });
      const now = ctx.clock.now();
      rateLimit(ctx, s.sessionSince.get(session.id, now - HOUR)!, settings.commentsPerSessionHour, HOUR, 'session');
      dailyLimit(ctx, s.addressSince.get(address, utcDayStart(now))!, settings.commentsPerAddressDay, 'address');
      spendChallenge(ctx, solved);
      const id = newId(ctx);
      const blocks = JSON.stringify([{ type: 'paragraph', text }]);
      s.insertGuest.run(
        id,
        s.nextSeq.get()!.seq,
        item.id,
        revisionId,
        parentId,
        session.id,
        body.request_id,
        fingerprintOf(postId, body),
        address,
        nickname,
        blocks,
        now,
      );
      http.set.status = 201;
      return {
        answer: { ...documentMembers(ctx.clock.now()), request_id: body.request_id, replayed: false, comment: guestComment(s.byId.get(id)!) },
        // Once committed, the article's cached page is replaced by one that shows the comment: the
        // writer who reloads sees it (src/pages/pubs.ts).
        announce: () => refreshArticlePage(ctx, item.id),
      };
    }),
  );
}

/** GET /api/pubs/human-comments/lookup?request_id=: a lost answer, within the same session. */
export function lookupGuestComment(ctx: AppContext, request: Request, set: Context['set'], requestId: string) {
  const session = checkedSession(request);
  set.headers['cache-control'] = 'no-store';
  const row = commentsStore(ctx.db).guestByRequest.get(session.id, requestId);
  if (!row) return fail('GUEST_REQUEST_NOT_FOUND', { request_id: requestId });
  return { ...documentMembers(ctx.clock.now()), request_id: requestId, replayed: true, comment: guestComment(row) };
}

/** The body as sent. */
export interface ReportBody {
  post_id: string;
  comment_id?: string | undefined;
  reason: string;
  challenge?: string | undefined;
  [member: string]: unknown;
}

/** POST /api/pubs/reports: stored privately for the operator; it hides nothing by itself. */
export async function fileReport(ctx: AppContext, http: Pick<Context, 'request' | 'set' | 'server'>, body: ReportBody) {
  const session = checkedSession(http.request);
  http.set.headers['cache-control'] = 'no-store';
  const solved = await checkChallenge(ctx, session.id, body.challenge);
  // Secrets only: a report is private, and quoting the price talk it reports is its purpose.
  enforceContentRules(body, SECRETS_ONLY);
  const address = addressHash(ctx, http.request, http.server);
  return commitWrite(ctx, () =>
    tx(ctx.db, () => {
      const s = commentsStore(ctx.db);
      const item = publishedArticle(ctx, body.post_id);
      const commentId = body.comment_id?.toLowerCase() ?? null;
      if (commentId !== null && !s.commentInItem.get(commentId, item.id))
        fail('NOT_FOUND', { comment_id: commentId }, 'This article has no comment with this id.');
      const now = ctx.clock.now();
      dailyLimit(ctx, s.reportsSince.get(session.id, utcDayStart(now))!, ctx.config.comments.reportsPerSessionDay, 'session');
      spendChallenge(ctx, solved);
      const id = newId(ctx);
      s.insertReport.run(id, s.nextReportSeq.get()!.seq, session.id, item.id, commentId, body.reason.trim(), address, now);
      http.set.status = 201;
      return { answer: { ...documentMembers(ctx.clock.now()), report_id: id, received_at: iso(now) } };
    }),
  );
}
