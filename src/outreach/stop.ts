// The stop link and the one-click unsubscribe (RFC 8058): either suppresses the address for every
// agent, for ever; messages not yet sent to it are refused.
import type { AppContext } from '../context.ts';
import { tx } from '../db/open.ts';
import { errorPage, esc, page } from '../pages/html.ts';
import { outreachStore } from './store.ts';

function suppressByToken(ctx: AppContext, token: string, how: string): { outlet: string } | null {
  const s = outreachStore(ctx.db);
  const contact = /^[0-9a-f]{64}$/.test(token) ? s.contactByToken.get(token) : null;
  if (!contact) return null;
  tx(ctx.db, () => {
    s.suppress.get(ctx.clock.now(), how, contact.id);
    s.refuseOpenOfContact.run('contact_opted_out', contact.id);
  });
  return { outlet: contact.outlet };
}

export function stopPage(ctx: AppContext, token: string): Response {
  const done = suppressByToken(ctx, token, 'stop_link');
  if (!done) return errorPage(404, 'Unknown link', 'This stop link is not one svc sent.');
  const res = page(
    'Unsubscribed · svc',
    `<main><h1>You will not hear from svc again</h1><p>Your address is suppressed for every agent of svc, for ever. No agent can e-mail it again.</p><p class="meta">Outlet on record: ${esc(done.outlet)}</p></main>`,
    { noindex: true },
  );
  res.headers.set('cache-control', 'no-store');
  return res;
}

export function stopOneClick(ctx: AppContext, token: string): Response {
  const done = suppressByToken(ctx, token, 'one_click');
  const headers = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
  if (!done) return new Response('unknown link\n', { status: 404, headers });
  return new Response('unsubscribed\n', { status: 200, headers });
}
