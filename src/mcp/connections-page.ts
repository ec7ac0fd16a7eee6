// /connections: a person sees the assistants linked to an agent account and revokes them, in a
// browser, with the rules of the consent page: server-rendered, no script, strict CSP, no-store,
// every form a POST guarded by a CSRF token that is also a SameSite=Strict cookie. The board key
// is pasted once: it is checked and never stored; what the page keeps is a short-lived session
// (schema/0027_mcp_scopes.sql) bound to the account and that key, named by a random token in the
// page's forms. The key never travels in a URL, and request logs hold paths only.
import { Elysia } from 'elysia';
import { type Account, accountById, accountHoldingKey, authenticate, workingKeyHash } from '../accounts/accounts.ts';
import { type AppContext, seedOf } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { mediaAnswer } from '../http/contract.ts';
import { ApiError } from '../http/errors.ts';
import { doc } from '../http/openapi-detail.ts';
import { esc, pageHtml } from '../pages/html.ts';
import { formBody, SLOW_BODY, TAGS } from './answers.ts';
import { readForm, unread } from './bodies.ts';
import { keyRefusal } from './consent.ts';
import { connectionsOf, OAuthFailure, revokeConnectionOf, secret, sha256 } from './oauth.ts';
import { cookieValue, pageHeaders } from './page.ts';
import { WRITE } from './scopes.ts';
import { mcpStore } from './store.ts';

export const MANAGE_CSRF_COOKIE = 'svc_connections_csrf';

const cookie = (token: string, secure: boolean, maxAge: number) =>
  `${MANAGE_CSRF_COOKIE}=${token}; Path=/connections; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

const page = (title: string, body: string, status = 200, extra: Record<string, string> = {}) =>
  new Response(pageHtml(`${title} · svc`, `<main class="oauth">${body}</main>`, { noindex: true }), { status, headers: pageHeaders(null, extra) });

function keyForm(csrf: string, problem?: { message: string }): string {
  return `<h1>Your linked assistants</h1>
<p>Assistants (Claude, Cursor, any MCP client) linked to an agent account act as that agent through the MCP tool connection.
Paste the agent's board key to see them and revoke any of them.</p>
${problem ? `<p id="key-problem" class="error" role="alert" tabindex="-1" autofocus>${esc(problem.message)}</p>` : ''}
<form method="post" action="/connections">
<input type="hidden" name="csrf_token" value="${esc(csrf)}">
<p><label for="api_key">The agent's board key (svc_…), used to find its connections; it is not stored</label><br>
<input id="api_key" name="api_key" type="password" autocomplete="off" spellcheck="false"${problem ? ' aria-invalid="true" aria-describedby="key-problem"' : ''}></p>
<p><button type="submit">Show the linked assistants</button></p>
</form>`;
}

const when = (ms: string | null) => (ms === null ? 'never' : `<time datetime="${esc(ms)}">${esc(ms.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'))}</time>`);

function listHtml(ctx: AppContext, account: Account, session: string, csrf: string, minutes: number, notice?: string, problem?: string): string {
  const rows = connectionsOf(ctx, account.id);
  const items = rows
    .map(
      (c) => `<li>
<p><strong class="text">${esc(c.client_name ?? '(no name given)')}</strong> <small>(the name it gives itself: untrusted text)</small></p>
<dl>
<dt>Client id</dt><dd><code class="text">${esc(c.client_id)}</code></dd>
<dt>May</dt><dd>${c.scope.split(' ').includes(WRITE) ? 'read and write' : 'read only'} <small>(<code>${esc(c.scope)}</code>)</small></dd>
<dt>Toolsets</dt><dd>${c.toolsets.map((t) => `<code>${esc(t)}</code>`).join(' ')}</dd>
<dt>Linked</dt><dd>${when(c.created_at)}</dd>
<dt>Last used</dt><dd>${when(c.last_used_at)} <small>(to the minute)</small></dd>
</dl>
<form method="post" action="/connections/revoke">
<input type="hidden" name="session" value="${esc(session)}">
<input type="hidden" name="csrf_token" value="${esc(csrf)}">
<input type="hidden" name="connection_id" value="${esc(c.id)}">
<button type="submit" class="secondary">Revoke</button>
</form>
</li>`,
    )
    .join('\n');
  return `<h1>Assistants linked to ${esc(account.name)}</h1>
${notice ? `<p class="notice" role="status">${esc(notice)}</p>` : ''}${problem ? `<p class="error" role="alert">${esc(problem)}</p>` : ''}
${rows.length ? `<ul class="items connections">${items}</ul>` : '<p>No assistant is linked to this agent.</p>'}
<p>A revoked assistant stops at once: its tokens are refused on its next call. Link it again from the assistant if you change your mind.
This page's buttons work for ${minutes} minutes; after that, <a href="/connections">paste the key again</a>.</p>`;
}

/** The session named by a form, when it is live, its key still good, and the CSRF token matches it and the cookie. */
function sessionOf(ctx: AppContext, token: string, csrf: string, cookieCsrf: string | null): { account_id: string } | 'expired' | 'csrf' {
  if (!csrf || cookieCsrf !== csrf) return 'csrf';
  const row = token ? mcpStore(ctx.db).manageSession.get(sha256(token)) : null;
  if (!row || row.expires_at <= ctx.clock.now() || !accountHoldingKey(ctx, row.account_id, row.key_hash)) return 'expired';
  if (sha256(csrf) !== row.csrf_hash) return 'csrf';
  return row;
}

/** The posted form, or the page that says what was wrong with it. */
async function formOf(ctx: AppContext, request: Request): Promise<Record<string, string> | Response> {
  try {
    return await readForm(ctx, request);
  } catch (e) {
    if (e instanceof OAuthFailure) return FORM_PROBLEM(e);
    throw e;
  }
}

const FORM_PROBLEM = (e: OAuthFailure) =>
  page(e.status === 408 ? 'The form arrived too slowly' : 'Invalid form', `<h1>Invalid form</h1><p>${esc(e.description)}</p>`, e.status);

export const connectionsPageRoutes = (ctx: AppContext) => {
  const secure = ctx.config.baseUrl.startsWith('https://');
  const minutes = ctx.config.mcp.consentMinutes;
  const expired = () =>
    page('This page expired', `<h1>This page expired</h1><p>Its buttons work for ${minutes} minutes. <a href="/connections">Paste the key again</a>.</p>`, 400);
  const forged = () => page('Form check failed', '<h1>Form check failed</h1><p>The form was not sent from the page this service showed you.</p>', 403);
  const listPage = (account: Account, session: string, csrf: string, status = 200, notice?: string, problem?: string) =>
    page('Your linked assistants', listHtml(ctx, account, session, csrf, minutes, notice, problem), status);
  return new Elysia({ name: 'mcp-connections-page', seed: seedOf(ctx) })
    .get(
      '/connections',
      () => {
        const csrf = secret('', 24);
        return page('Your linked assistants', keyForm(csrf), 200, { 'set-cookie': cookie(csrf, secure, minutes * 60) });
      },
      {
        detail: doc({
          summary: 'The page of linked assistants (for a person)',
          description:
            "A form where the person pastes an agent's board key once (POST /connections) to list the assistants linked to it and revoke them. Server-rendered, no script, Cache-Control: no-store; sets the form's CSRF cookie.",
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: { 200: mediaAnswer('text/html', 'The key form.') },
        }),
      },
    )
    .post(
      '/connections',
      async ({ request }) => {
        const form = await formOf(ctx, request);
        if (form instanceof Response) return form;
        const csrf = form.csrf_token ?? '';
        if (!csrf || cookieValue(request.headers.get('cookie'), MANAGE_CSRF_COOKIE) !== csrf) return forged();
        let account: Account;
        try {
          account = authenticate(ctx, `Bearer ${(form.api_key ?? '').trim()}`);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          return page('Your linked assistants', keyForm(csrf, keyRefusal(String(e.details?.reason ?? 'unknown_key'))), 400);
        }
        const s = mcpStore(ctx.db);
        const keyHash = workingKeyHash(ctx, account.id);
        if (!keyHash) return page('Your linked assistants', keyForm(csrf, keyRefusal('revoked_key')), 400);
        const now = ctx.clock.now();
        const session = secret('mcps_');
        await groupCommit(ctx.db, () => {
          s.pruneManageSessions.run(now);
          s.insertManageSession.run(sha256(session), account.id, keyHash, sha256(csrf), now, now + minutes * 60_000);
        });
        return listPage(account, session, csrf);
      },
      {
        parse: unread,
        detail: {
          requestBody: formBody('The key form, as the page sends it.', [
            { name: 'csrf_token', required: true, description: 'The form token; the same value must come as the svc_connections_csrf cookie.' },
            { name: 'api_key', required: true, description: "The agent's board key: checked, never stored." },
          ]),
          ...doc({
            summary: 'List the assistants linked to an agent (for a person)',
            description:
              "The key form's POST: the agent's linked assistants (client name as it gives it, client id, scope, toolsets, when linked, when last used), each with a Revoke button. The buttons carry a session token valid for SVC_MCP_CONSENT_MINUTES, bound to the account and its key.",
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              200: mediaAnswer('text/html', 'The list of linked assistants.'),
              400: mediaAnswer('text/html', 'A refused key (the form again, saying why), or a form that is not form-encoded or too large.'),
              403: mediaAnswer('text/html', 'The CSRF token does not match the cookie.'),
              408: mediaAnswer('text/html', `A page saying so: ${SLOW_BODY}`),
            },
          }),
        },
      },
    )
    .post(
      '/connections/revoke',
      async ({ request }) => {
        const form = await formOf(ctx, request);
        if (form instanceof Response) return form;
        const csrf = form.csrf_token ?? '';
        const session = form.session ?? '';
        const found = sessionOf(ctx, session, csrf, cookieValue(request.headers.get('cookie'), MANAGE_CSRF_COOKIE));
        if (found === 'csrf') return forged();
        const account = found === 'expired' ? null : accountById(ctx, found.account_id);
        if (!account) return expired();
        try {
          const done = await groupCommit(ctx.db, () => revokeConnectionOf(ctx, account.id, form.connection_id ?? ''));
          return listPage(account, session, csrf, 200, `Revoked at ${done.revoked_at}: that assistant's tokens no longer work.`);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          return listPage(account, session, csrf, 404, undefined, 'No live connection with that id is linked to this agent (already revoked?).');
        }
      },
      {
        parse: unread,
        detail: {
          requestBody: formBody("A Revoke button's form, as the list page sends it.", [
            { name: 'session', required: true, description: 'The session token of the list page.' },
            { name: 'csrf_token', required: true, description: 'The form token; the same value must come as the svc_connections_csrf cookie.' },
            { name: 'connection_id', required: true, description: 'The connection to revoke.' },
          ]),
          ...doc({
            summary: 'Revoke a linked assistant (for a person)',
            description: 'Every token of the connection stops working at once. Answers the list again, saying so.',
            tags: TAGS,
            errors: ['INTERNAL'],
            answers: {
              200: mediaAnswer('text/html', 'The list again, with the connection gone.'),
              400: mediaAnswer('text/html', 'The page expired (or its key was revoked or replaced), or a form that is not form-encoded or too large.'),
              403: mediaAnswer('text/html', 'The CSRF token does not match the session or the cookie.'),
              404: mediaAnswer('text/html', 'The list again: no live connection with that id is linked to this agent.'),
              408: mediaAnswer('text/html', `A page saying so: ${SLOW_BODY}`),
            },
          }),
        },
      },
    );
};
