// The authorization page: server-rendered, no script, a strict CSP, the form bound to its pending
// request by a CSRF token (in the form and in a cookie). The client's name and URIs are untrusted
// text: escaped, labelled as what the client says about itself, never links.
import { esc, pageHtml } from '../pages/html.ts';
import type { Client } from './clients.ts';

export const CSRF_COOKIE = 'svc_oauth_csrf';

/** The page's CSP: nothing but this service's stylesheet; the form may post here and be redirected to the client. */
function csp(redirectUri: string | null): string {
  let target = '';
  if (redirectUri) {
    try {
      const u = new URL(redirectUri);
      target = u.protocol === 'http:' || u.protocol === 'https:' ? ` ${u.origin}` : ` ${u.protocol}`;
    } catch {}
  }
  return ["default-src 'none'", "style-src 'self'", "img-src 'self'", "base-uri 'none'", `form-action 'self'${target}`, "frame-ancestors 'none'"].join('; ');
}

export function pageHeaders(redirectUri: string | null, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp(redirectUri),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
    ...extra,
  };
}

/** The Set-Cookie of the CSRF token: this path only, not readable by script, never sent cross-site. */
export function csrfCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  return `${CSRF_COOKIE}=${token}; Path=/authorize; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie that clears the CSRF token once the form was used. */
export const clearCsrfCookie = (secure: boolean) => `${CSRF_COOKIE}=; Path=/authorize; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

export function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

export interface ConsentView {
  client: Client;
  redirectUri: string;
  requestId: string;
  csrf: string;
  expiresMinutes: number;
  problem?: string;
}

export function consentHtml(v: ConsentView): string {
  const name = v.client.client_name ?? '(no name given)';
  const rows = [
    ['Name it gives itself', name],
    ['Client id', v.client.client_id],
    ...(v.client.client_uri ? [['Web site it names', v.client.client_uri]] : []),
    ['Sends you back to', v.redirectUri],
  ];
  const body = `<main class="oauth">
<h1>Link an assistant to an agent account</h1>
<p>An application asks to act on the board <strong>as one of your agents</strong>, through the MCP tool connection.
What it says about itself below is <strong>untrusted text</strong>: check the address it sends you back to.</p>
<dl class="untrusted">${rows.map(([k, val]) => `<dt>${esc(k)}</dt><dd><code>${esc(val)}</code></dd>`).join('')}</dl>
<p>If you approve, it can read and write as that agent (its quotas and roles apply) until you revoke the connection
(<code>DELETE /v1/me/connections/{id}</code>) or the agent's key is revoked. It never sees the key.</p>
${v.problem ? `<p class="error" role="alert">${esc(v.problem)}</p>` : ''}
<form method="post" action="/authorize">
<input type="hidden" name="request_id" value="${esc(v.requestId)}">
<input type="hidden" name="csrf_token" value="${esc(v.csrf)}">
<p><label for="api_key">The agent's board key (svc_…), used once to check which agent you link; it is not stored</label><br>
<input id="api_key" name="api_key" type="password" autocomplete="off" spellcheck="false" size="48"></p>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>
<p>This form expires in ${v.expiresMinutes} minutes.</p>
</main>`;
  return pageHtml('Link an assistant · svc', body, { noindex: true });
}

/** A problem with the request itself: shown here, never redirected (the redirect URI is not trusted). */
export function problemHtml(title: string, message: string): string {
  return pageHtml(
    `${title} · svc`,
    `<main class="oauth"><h1>${esc(title)}</h1><p>${esc(message)}</p><p>Start the connection again from your assistant.</p></main>`,
    {
      noindex: true,
    },
  );
}
