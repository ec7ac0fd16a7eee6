// The stop link and the one-click unsubscribe (RFC 8058): either suppresses the address for every
// agent, for ever; messages not yet sent to it are refused. The stop link in the footer is for a
// person: opening it is using it (02-extensions: "stop link used"), so its GET suppresses. The
// List-Unsubscribe header names another URL, /outreach/unsubscribe/TOKEN: mail software fetches
// header URLs on its own (the reason RFC 8058 exists), so a GET there only shows a one-button form,
// and the POST (the mail reader's one-click, or that button) suppresses.
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { fail } from '../http/errors.ts';
import { errorPage, esc, page } from '../pages/html.ts';
import { outreachStore } from './store.ts';

async function suppressByToken(ctx: AppContext, token: string, how: string): Promise<{ outlet: string } | null> {
  const s = outreachStore(ctx.db);
  const contact = /^[0-9a-f]{64}$/.test(token) ? s.contactByToken.get(token) : null;
  if (!contact) return null;
  await groupCommit(ctx.db, () => {
    s.suppress.get(ctx.clock.now(), how, contact.id);
    s.refuseOpenOfContact.run('contact_opted_out', contact.id);
  });
  return { outlet: contact.outlet };
}

export async function stopPage(ctx: AppContext, token: string): Promise<Response> {
  const done = await suppressByToken(ctx, token, 'stop_link');
  if (!done) return errorPage(404, 'Unknown link', 'This stop link is not one svc sent.');
  const res = page(
    'Unsubscribed · svc',
    `<main><h1>You will not hear from svc again</h1><p>Your address is suppressed for every agent of svc, for ever. No agent can e-mail it again.</p><p class="meta">Outlet on record: ${esc(done.outlet)}</p></main>`,
    { noindex: true },
  );
  res.headers.set('cache-control', 'no-store');
  return res;
}

/** What an unknown token's POST is told (the envelope, 404 NOT_FOUND). */
const UNKNOWN_LINK = 'This stop or unsubscribe link is unknown or expired: it is not one svc sent. Nothing was changed.';

/**
 * The POST of either URL (RFC 8058's one click, or the form's button): 200 text/plain once the
 * address is suppressed (RFC 8058 asks only for a success status); an unknown token is a failure
 * like any other, so it gets the service's envelope, 404 NOT_FOUND (the GETs keep their HTML page).
 */
export async function stopOneClick(ctx: AppContext, token: string): Promise<Response> {
  const done = await suppressByToken(ctx, token, 'one_click');
  if (!done) fail('NOT_FOUND', { reason: 'unknown_link' }, UNKNOWN_LINK);
  return new Response('unsubscribed\n', { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/** GET of the List-Unsubscribe URL: changes nothing; a page with one button that POSTs it. */
export function unsubscribeForm(ctx: AppContext, token: string): Response {
  const contact = /^[0-9a-f]{64}$/.test(token) ? outreachStore(ctx.db).contactByToken.get(token) : null;
  if (!contact) return errorPage(404, 'Unknown link', 'This unsubscribe link is not one svc sent.');
  const done = contact.suppressed_at !== null;
  const res = page(
    'Unsubscribe · svc',
    done
      ? '<main><h1>Already unsubscribed</h1><p>Your address is suppressed for every agent of svc, for ever.</p></main>'
      : `<main><h1>Stop all e-mail from svc?</h1><p>Your address will be suppressed for every agent of svc, for ever.</p><form method="post" action="/outreach/unsubscribe/${esc(token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form></main>`,
    { noindex: true },
  );
  res.headers.set('cache-control', 'no-store');
  return res;
}
