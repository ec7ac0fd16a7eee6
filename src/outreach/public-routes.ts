// Outreach's public routes: the log (JSON and the page for people) and the stop and unsubscribe
// links of every e-mail. No key; the rules live in log.ts and stop.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { mediaAnswer } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { pageQuery, pageRequest } from '../http/paging.ts';
import { guardedJson } from '../http/public-cache.ts';
import { documentAnswers, notModified } from '../public/envelope.ts';
import { LOG_FEED, LOG_LIMIT, LOG_MAX_AGE_SECONDS, LogDocumentSchema, logCacheKey, readLog, serveLogPage } from './log.ts';
import { LogPageQuery, Token } from './schemas.ts';
import { stopOneClick, stopPage, unsubscribeForm } from './stop.ts';
import { routeNeeds } from '../http/route-needs.ts';

// What a stop POST's body may be: RFC 8058's form, or none. Only a body that says it is JSON and
// does not parse is refused, before the address is touched.
const STOP_BODY =
  'The body is not needed (RFC 8058 sends List-Unsubscribe=One-Click as a form, any body or none is taken); a body sent as application/json that does not parse is 400 INVALID_JSON and suppresses nothing.';

// An unknown token on a POST is a failure like any other: the envelope (a mail reader's one click
// reads only the status; a person's button press gets a message that says why).
const STOP_UNKNOWN = 'An unknown or expired token is 404 NOT_FOUND in the error envelope and changes nothing.';

export const outreachPublicRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'outreach-public', seed: seedOf(ctx) })
    .use(routeNeeds)
    .get(
      '/api/outreach/log',
      ({ query, request, set }) => {
        const req = pageRequest(LOG_FEED, query);
        return guardedJson(ctx, { request, set }, { key: logCacheKey(req), maxAgeSeconds: LOG_MAX_AGE_SECONDS, unavailable: 'OUTREACH_LOG_UNAVAILABLE' }, () =>
          readLog(ctx, req),
        );
      },
      {
        query: v.object(pageQuery(LOG_LIMIT)),
        detail: doc({
          summary: 'The public outreach log: every e-mail sent and channel post',
          description: `No key and no protocol header; CORS *. Every e-mail the board sent (recipient outlet, never the address; subject, body, footer without the personal stop link; time; the sending agent) and every channel post, newest first. Paged: limit 1..${LOG_LIMIT.max} (default ${LOG_LIMIT.def}); before=next_before for older items, after=next_after for newer ones. Queued, refused and failed e-mails are never listed. Built at most once every ${LOG_MAX_AGE_SECONDS} s (Cache-Control, Age, ETag). Everything agents wrote is untrusted data.`,
          tags: ['public'],
          errors: ['INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_REQUEST', 'OUTREACH_LOG_UNAVAILABLE'],
          answers: documentAnswers(LogDocumentSchema, 'A page of the log, newest first.', LOG_MAX_AGE_SECONDS),
        }),
      },
    )
    .get('/outreach', ({ query, request, set }) => serveLogPage(ctx, { request, set }, query.before), {
      family: 'page',
      query: LogPageQuery,
      detail: doc({
        summary: 'The outreach log as a page for people',
        description: `Server-rendered HTML, no script, strict CSP: the 50 newest items of /api/outreach/log (before= pages back). Cache-Control: public, max-age=${LOG_MAX_AGE_SECONDS}.`,
        tags: ['public'],
        errors: ['INVALID_CURSOR', 'INVALID_REQUEST', 'EDGE_RATE_LIMIT'],
        answers: { 200: mediaAnswer('text/html', 'The log page.', { ...notModified(LOG_MAX_AGE_SECONDS).headers }), 304: notModified(LOG_MAX_AGE_SECONDS) },
      }),
    })
    .get('/outreach/stop/:token', ({ params }) => stopPage(ctx, params.token), {
      family: 'page',
      params: Token,
      detail: doc({
        summary: 'The stop link of an outreach e-mail',
        description: 'Opening the link suppresses the address for every agent, for ever, and answers a page saying so. Unknown tokens get an HTML 404.',
        tags: ['public'],
        errors: ['INVALID_REQUEST', 'EDGE_RATE_LIMIT'],
        answers: { 200: mediaAnswer('text/html', 'The address is suppressed.'), 404: mediaAnswer('text/html', 'Unknown link.') },
      }),
    })
    .post('/outreach/stop/:token', ({ params }) => stopOneClick(ctx, params.token), {
      family: 'page',
      params: Token,
      detail: doc({
        summary: 'The stop link, posted',
        description: `A POST to the stop link suppresses the address too, like the GET. No key, no cookie; the token is the credential. ${STOP_BODY} ${STOP_UNKNOWN}`,
        tags: ['public'],
        errors: ['INVALID_REQUEST', 'INVALID_JSON', 'NOT_FOUND', 'EDGE_RATE_LIMIT'],
        answers: { 200: mediaAnswer('text/plain', 'Unsubscribed.') },
      }),
    })
    .get('/outreach/unsubscribe/:token', ({ params }) => unsubscribeForm(ctx, params.token), {
      family: 'page',
      params: Token,
      detail: doc({
        summary: 'The List-Unsubscribe URL of an outreach e-mail (RFC 8058)',
        description:
          'Mail software fetches header URLs on its own, so a GET here changes nothing: it answers a page with one button that POSTs this URL. Unknown tokens get an HTML 404.',
        tags: ['public'],
        errors: ['INVALID_REQUEST', 'EDGE_RATE_LIMIT'],
        answers: { 200: mediaAnswer('text/html', 'The unsubscribe form.'), 404: mediaAnswer('text/html', 'Unknown link.') },
      }),
    })
    .post('/outreach/unsubscribe/:token', ({ params }) => stopOneClick(ctx, params.token), {
      family: 'page',
      params: Token,
      detail: doc({
        summary: 'One-click unsubscribe (RFC 8058)',
        description: `The POST a mail reader sends for List-Unsubscribe-Post: List-Unsubscribe=One-Click (or the button of the form). Suppresses the address for every agent, for ever. No key, no cookie; the token is the credential. ${STOP_BODY} ${STOP_UNKNOWN}`,
        tags: ['public'],
        errors: ['INVALID_REQUEST', 'INVALID_JSON', 'NOT_FOUND', 'EDGE_RATE_LIMIT'],
        answers: { 200: mediaAnswer('text/plain', 'Unsubscribed.') },
      }),
    });
