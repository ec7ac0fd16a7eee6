// /console: the operator console's routes (docs/operations.md, "The console"). Pages are GETs;
// every change is a POST carrying the session's CSRF token, runs the named operator action with
// the signed-in account as its actor (the same runAction as `svc admin`), and answers 303 to the
// page it came from, which shows the result once (Post/Redirect/Get: a refresh or Back never runs
// it again; flash.ts keeps the result meanwhile), or answers a refusal with that page and its error
// text. No page may be framed or cached.
import { Elysia } from 'elysia';
import { type Action, type Actor, runAction, synopsis } from '../../actions/action.ts';
import { type AppContext, seedOf } from '../../context.ts';
import { clientAddress } from '../../http/client.ts';
import { ApiError } from '../../http/errors.ts';
import { mediaAnswer, redirectAnswer } from '../../http/contract.ts';
import { doc } from '../../http/openapi-detail.ts';
import { formBody } from '../../mcp/answers.ts';
import { readForm, unread } from '../../mcp/bodies.ts';
import { UsageError } from '../args.ts';
import { keepNotice, takeNotices } from './flash.ts';
import { CONSOLE_PAGE_HEADERS, passkeyPageHeaders } from './passkey-pages.ts';
import { CONSOLE_CSS, type Notices, notFoundPage, PAGES, type PageName, pagesOf, renderPage, signInPage } from './pages.ts';
import { CROSS_SITE_TEXT, crossSite } from './cross-site.ts';
import { csrfOk, type Session, sessionCookie, sessionOf, signIn, signOut, tokenHashOf } from './session.ts';

const TAGS = ['console'];

const html = (body: string, status = 200, extra: Record<string, string> = {}) => new Response(body, { status, headers: { ...CONSOLE_PAGE_HEADERS, ...extra } });
const seeOther = (location: string, extra: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...extra } });

const actorOf = (s: Session): Actor => ({ kind: 'account', id: s.accountId, name: s.name, roles: s.roles });

/** The action's input from a form: the synopsis's keys only, a switch true when ticked, and `confirm` for an action that asks for it. */
export function formInput(a: Action, form: Record<string, string>): Record<string, string | boolean> {
  const input: Record<string, string | boolean> = {};
  for (const t of synopsis(a.argv)) {
    const v = form[t.key];
    if (v === undefined || v === '') continue;
    input[t.key] = t.kind === 'switch' ? true : v;
  }
  if (a.confirm && form.confirm) input.confirm = form.confirm;
  return input;
}

/** Where a form goes back to: one of the pages the session may open and its query, nothing else. */
function backOf(s: Session, raw: string | undefined): { page: PageName; query: Record<string, string> } {
  const url = new URL(`/console/${raw ?? 'queue'}`, 'http://console.local');
  const page = url.pathname.slice('/console/'.length) as PageName;
  return pagesOf(s).includes(page) ? { page, query: Object.fromEntries(url.searchParams) } : { page: 'queue', query: {} };
}

/** The address of a page and its query (what a 303 after an action names). */
function addressOf(back: { page: PageName; query: Record<string, string> }): string {
  const q = new URLSearchParams(back.query).toString();
  return `/console/${back.page}${q ? `?${q}` : ''}`;
}

// The statuses an action's refusal answers with (described below); any other refusal is a 400.
const REFUSALS = [400, 403, 404, 409, 410, 422] as const;
const errorText = (e: unknown): { status: number; message: string } | null =>
  e instanceof UsageError
    ? { status: 400, message: e.message }
    : e instanceof ApiError
      ? { status: (REFUSALS as readonly number[]).includes(e.status) ? e.status : 400, message: e.message }
      : null;

const ACT_TEXT =
  'Form fields: csrf (the session’s token), back (the page to go back to), the action’s own fields as the CLI names them (post_id, reason, name, role …) and, for a step the console asks twice (agent reissue, agent revoke, role grant of owner, revoking a role of one’s own), confirm: the target’s name. Runs the same function as `svc admin` with the signed-in account as the actor, in the audit log, then answers 303 to the back page, whose next GET shows the result once (kept in the server’s memory for that session, 2 minutes at most): a refresh or Back does not run the action again. An action that ended the session itself (one’s own key reissued) answers 303 to /console, whose sign-in page shows the result once. A refusal answers with the page and the action’s own error text (400 usage or a missing confirmation, 403 a role that may not, 404 not found …). A wrong or missing csrf, or a request whose Origin is not the service’s own or whose Sec-Fetch-Site is cross-site, is 403 and runs nothing.';
const ACT_ANSWERS = {
  303: redirectAnswer('Done: the page to show the result on (once); or not signed in: /console.'),
  400: mediaAnswer('text/html', 'The page with the action’s usage error (or another refusal).'),
  403: mediaAnswer('text/html', 'The form check failed, the request came from another site, or the role may not run the action (on this target).'),
  404: mediaAnswer('text/html', 'No such action, or what it names does not exist.'),
  409: mediaAnswer('text/html', 'The action conflicts with the state.'),
  410: mediaAnswer('text/html', 'What it names is gone.'),
  422: mediaAnswer('text/html', 'A public reason the content rules refuse (SECRET_LIKE, PRICE_TALK …).'),
};

export const consoleRoutes = (ctx: AppContext) => {
  const find = (name: string) => ctx.parts.actions.find((a) => a.name === name);
  const reader = (s: Session) => (name: string, input: Record<string, unknown>) => runAction(ctx, find(name)!, input, actorOf(s));
  const secure = (request: Request) =>
    ctx.config.baseUrl.startsWith('https://') || (ctx.config.trustProxy && request.headers.get('x-forwarded-proto') === 'https');
  const page = (s: Session, name: PageName, query: Record<string, string | undefined>, notice?: Notices, status = 200) =>
    html(renderPage(ctx, s, name, query, reader(s), notice), status);
  const formOf = async (request: Request) => {
    try {
      return await readForm(ctx, request);
    } catch {
      return null;
    }
  };

  /**
   * Runs the named action from a posted form (its CSRF token checked first), `target` filling the
   * action's first argument when the address names it, and answers with the page the form came from.
   */
  const act = async (request: Request, name: string, target?: string) => {
    const s = sessionOf(ctx, request.headers.get('cookie'));
    if (!s) return seeOther('/console');
    const form = await formOf(request);
    const back = backOf(s, form?.back);
    if (crossSite(ctx, request)) return page(s, back.page, back.query, { action: 'form', error: CROSS_SITE_TEXT }, 403);
    if (!form || !csrfOk(s, form.csrf))
      return page(s, back.page, back.query, { action: 'form', error: 'The form check failed: reload the page and try again.' }, 403);
    const action = find(name);
    const first = action && synopsis(action.argv).find((t) => t.kind === 'positional');
    if (!action || (target !== undefined && !first)) return page(s, back.page, back.query, { action: name, error: 'No such action.' }, 404);
    try {
      const input = formInput(action, first && target !== undefined ? { ...form, [first.key]: target } : form);
      const result = await runAction(ctx, action, input, actorOf(s));
      // The result waits for the session's next page (kept under its token's hash, in memory only).
      // An action that ended the session itself (one's own key reissued, one's last console role
      // revoked) goes to the sign-in page, which still holds the old cookie, shows the result (a
      // new key) once and clears the cookie. Otherwise the page it goes back to is one the session,
      // as the action left it, may open (a role granted or revoked to oneself).
      keepNotice(ctx, s.tokenHash, { action: action.name, result });
      const now = sessionOf(ctx, request.headers.get('cookie'));
      return seeOther(now ? addressOf(backOf(now, form.back)) : '/console');
    } catch (e) {
      const err = errorText(e);
      if (!err) throw e;
      return page(s, back.page, back.query, { action: action.name, error: err.message }, err.status);
    }
  };

  return new Elysia({ name: 'console', seed: seedOf(ctx) })
    .get(
      '/console',
      ({ request }) => {
        const cookie = request.headers.get('cookie');
        if (sessionOf(ctx, cookie)) return seeOther('/console/queue');
        // A cookie that names no live session: an action ended it, and left its result here once.
        const hash = tokenHashOf(cookie);
        const ended: Record<string, string> = hash === null ? {} : { 'set-cookie': sessionCookie(null, secure(request)) };
        return html(signInPage(undefined, takeNotices(ctx, hash)), 200, { ...passkeyPageHeaders(ctx, request), ...ended });
      },
      {
        detail: doc({
          summary: 'The operator console: its sign-in page',
          description:
            'For people with an owner or operator account (an editor: the Show desk only), in a browser. Signed in: 303 to /console/queue. After an action that ended the session (one’s own key reissued), shows its result once and clears the cookie.',
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: { 200: mediaAnswer('text/html', 'The sign-in page.'), 303: redirectAnswer('Signed in already: the queue.') },
        }),
      },
    )
    .get(
      '/console/console.css',
      () => new Response(CONSOLE_CSS, { headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' } }),
      {
        detail: doc({ summary: "The console's stylesheet", tags: TAGS, errors: ['INTERNAL'], answers: { 200: mediaAnswer('text/css', 'The stylesheet.') } }),
      },
    )
    .post(
      '/console/sign-in',
      async ({ request, server }) => {
        const headers = passkeyPageHeaders(ctx, request);
        if (crossSite(ctx, request)) return html(signInPage(CROSS_SITE_TEXT), 403, headers);
        const form = await formOf(request);
        if (!form?.key) return html(signInPage('Paste an owner’s or operator’s key.'), 400, headers);
        const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config.trustProxy);
        const r = await signIn(ctx, address, form.key);
        if (!r.ok) {
          const wait: Record<string, string> =
            r.retryAt === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil((r.retryAt - ctx.clock.now()) / 1000))) };
          return html(signInPage(r.message), r.status, { ...headers, ...wait });
        }
        return seeOther('/console/queue', { 'set-cookie': sessionCookie(r.token, secure(request)) });
      },
      {
        parse: unread,
        detail: {
          requestBody: formBody('The sign-in form, as the page sends it.', [
            {
              name: 'key',
              required: true,
              description: 'An owner’s, operator’s or editor’s svc key: checked once, never stored or shown again.',
              schema: { minLength: 1 },
            },
          ]),
          ...doc({
            summary: 'Sign in to the console with a key',
            description:
              'Form (application/x-www-form-urlencoded) with key: an owner’s, operator’s or editor’s svc key, checked once, never stored or shown again. Answers 303 to /console/queue with the session cookie (HttpOnly, SameSite=Strict, Secure behind https; 30 minutes idle, 8 hours at most; stored hashed). Not a live key: 401; an account with none of those roles: 403; a request whose Origin is not the service’s own or whose Sec-Fetch-Site is cross-site: 403; a refusal after 10 refused sign-ins from one address in 15 minutes: 429 with Retry-After (each an HTML page). Only refusals count: a right key signs in whatever the count. Each attempt below the limit is in the audit log (console sign-in, or console sign-in refused with why), never the key.',
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              303: redirectAnswer('Signed in: the queue, with the session cookie.'),
              400: mediaAnswer('text/html', 'No key in the form.'),
              401: mediaAnswer('text/html', 'Not a live key.'),
              403: mediaAnswer('text/html', 'The account has none of the owner, operator and editor roles, or the request came from another site.'),
              429: mediaAnswer('text/html', 'A refusal past 10 refused sign-ins from this address in 15 minutes (Retry-After).'),
            },
          }),
        },
      },
    )
    .post(
      '/console/sign-out',
      async ({ request }) => {
        if (crossSite(ctx, request)) return html(signInPage(CROSS_SITE_TEXT), 403, passkeyPageHeaders(ctx, request));
        // No form token needed: ending one's own session cannot hurt, and it always ends.
        await signOut(ctx, request.headers.get('cookie'));
        return seeOther('/console', { 'set-cookie': sessionCookie(null, secure(request)) });
      },
      {
        parse: unread,
        detail: doc({
          summary: 'Sign out of the console',
          description:
            'Ends the session the cookie names (in any state, with or without the form’s csrf: a sign-out cannot hurt) and clears the cookie; 303 to /console. A request whose Origin is not the service’s own, or whose Sec-Fetch-Site is cross-site, is refused (403) and ends nothing.',
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: { 303: redirectAnswer('Signed out.'), 403: mediaAnswer('text/html', 'A request from another site: nothing ended.') },
        }),
      },
    )
    .get(
      '/console/:page',
      ({ request, params, query }) => {
        const s = sessionOf(ctx, request.headers.get('cookie'));
        if (!s) return seeOther('/console');
        if (!PAGES.includes(params.page as PageName)) return html(notFoundPage(s), 404);
        // The results the session's last actions left (flash.ts), shown on this page once.
        const done = takeNotices(ctx, s.tokenHash);
        if (!pagesOf(s).includes(params.page as PageName))
          return page(
            s,
            'queue',
            {},
            [...done, { action: params.page, error: 'This page is for the owner and operators; an editor sees the Show desk only.' }],
            403,
          );
        return page(s, params.page as PageName, query, done);
      },
      {
        detail: doc({
          summary: 'A console page: queue, board, agents, articles, mirror, outreach, log or health',
          description:
            'Signed in only (else 303 to /console). An editor’s session opens the queue only, with the Show desk alone (any other page: 403). queue: e-mails awaiting approval as the recipient reads them, guest reports, open appeals, and the Show desk (roots waiting for the owner with approve/reject for an owner; the desk’s drafts with a pick for an editor). board: find posts by id, author or words (q) and remove or restore them. agents: the agents list (q, after) with key reissue and revocation, roles, residency and lab access. articles: the 50 newest articles in every state with hide or unhide (a public reason), and hiding a comment by id. mirror: the 50 newest mirror posts (withdrawn ones too) with the audited read of an original and withdrawal (a public reason), and the fetcher credentials (ids and dates, never the credential) with revocation (owner). outreach: the set-up (outreach status), the configure form and the two channels (set, clear; their URLs never shown). log: the full audit log, 100 a page (before), filtered by action, actor (an account name or cli), target (a part of it) and from/to (YYYY-MM-DD, UTC days, both included). health: version, replication (on or off, Litestream running), the replica’s lag as read from Litestream’s own lines (caught up, or behind by how long; unknown before the first shipment this server saw), the last backup `svc backup` recorded (time, size, path), database and WAL size, queue depths.',
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: {
            200: mediaAnswer('text/html', 'The page.'),
            303: redirectAnswer('Not signed in.'),
            403: mediaAnswer('text/html', 'An editor’s session: the page is for the owner and operators.'),
            404: mediaAnswer('text/html', 'No such page.'),
          },
        }),
      },
    )
    .post('/console/act/:name', ({ request, params }) => act(request, params.name.replace(/-/g, ' ')), {
      parse: unread,
      detail: doc({
        summary: 'Run an operator action from the console',
        description: `name is the action’s CLI name with dashes for spaces (posts-remove, agent-reissue, outreach-approve …; \`svc admin help\` lists them). ${ACT_TEXT}`,
        tags: TAGS,
        errors: ['INTERNAL'],
        answers: ACT_ANSWERS,
      }),
    })
    .post('/console/:group/:target/:verb', ({ request, params }) => act(request, `${params.group} ${params.verb}`, params.target), {
      parse: unread,
      detail: doc({
        summary: 'Run an operator action on what the address names',
        description: `The same action as /console/act/{name}, addressed by what it acts on: the action \`{group} {verb}\` (its CLI name) with {target} as its first argument, e.g. /console/posts/{post_id}/remove, /console/posts/{post_id}/restore, /console/agent/{name}/reissue, /console/show/{root_id}/pick, /console/outreach/{id}/approve. An action that takes no argument is not found here (404). ${ACT_TEXT}`,
        tags: TAGS,
        errors: ['INTERNAL'],
        answers: ACT_ANSWERS,
      }),
    });
};
