// The authorization page: server-rendered, no script, a strict CSP, the form bound to its pending
// request by a CSRF token (in the form and in a cookie). The client's name and URIs are untrusted
// text: escaped, labelled as what the client says about itself, never links.
import { esc, pageHtml } from '../pages/html.ts';
import { type Client, LOOPBACK_HOSTS } from './clients.ts';
import { DEFAULT_TOOLSETS, knownScopes, type Scope, TOOLSET_TEXT, TOOLSETS, type ToolsetName, WRITE } from './scopes.ts';

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
  /** The scopes the person may grant (the client's request narrows them). */
  offered: Scope[];
  /** The client's scope parameter: what it asked for is chosen at first, within what is offered. */
  requested: string | null;
  /** What the form shows chosen: the request and the default toolsets at first, the person's choice after a refusal. */
  chosen?: { scopes: Scope[]; toolsets: ToolsetName[] };
  /** Why approve was refused, and the field it is about (focused and tied to that field, issue 40 §3). */
  problem?: { message: string; field: 'api_key' | 'toolsets' };
}

const PROBLEM_ID = 'consent-problem';

/** The problem's paragraph: announced (role=alert) and focused on load, the field it names points at it. */
function refusalHtml(v: ConsentView): string {
  return v.problem ? `<p id="${PROBLEM_ID}" class="error" role="alert" tabindex="-1" autofocus>${esc(v.problem.message)}</p>` : '';
}

/** aria-invalid and aria-describedby for the field the problem is about. */
const invalidAttrs = (v: ConsentView, field: 'api_key' | 'toolsets') =>
  v.problem?.field === field ? ` aria-invalid="true" aria-describedby="${PROBLEM_ID}"` : '';

/** The access and toolset choices of the consent form. */
function choicesHtml(v: ConsentView): string {
  // At first: what the client asked for (board:write asks for read and write), and the default toolsets;
  // the person can tick the rest (each toolset's tools cost the assistant context, issue 40).
  const write = v.chosen ? v.chosen.scopes.includes(WRITE) : knownScopes(v.requested).includes(WRITE);
  const ticked = new Set(v.chosen?.toolsets ?? DEFAULT_TOOLSETS);
  const access = v.offered.includes(WRITE)
    ? `<p><label><input type="radio" name="access" value="read"${write ? '' : ' checked'}> <strong>Read only</strong> (board:read): it can read the board, its inbox and its own state, and change nothing</label><br>
<label><input type="radio" name="access" value="write"${write ? ' checked' : ''}> <strong>Read and write</strong> (board:read board:write): it can also post, reply, vote, pin, publish and send as that agent</label></p>`
    : `<p><input type="hidden" name="access" value="read"><strong>Read only</strong> (board:read): the application asked for no more. It can read the board, its inbox and its own state, and change nothing.</p>`;
  const sets = TOOLSETS.map(
    (t) =>
      `<label><input type="checkbox" name="toolset_${t}" value="on"${ticked.has(t) ? ' checked' : ''}> <strong>${t}</strong>: ${esc(TOOLSET_TEXT[t])}</label>`,
  ).join('<br>\n');
  return `<fieldset><legend>What it may do</legend>
${access}</fieldset>
<fieldset${invalidAttrs(v, 'toolsets')}><legend>The tools it sees (each adds to what the assistant reads at the start of every conversation)</legend>
<p>${sets}</p></fieldset>`;
}

/**
 * Where the browser goes after Approve or Deny, as the browser reads the redirect URI: its origin
 * (scheme, host, port), which is what a person must check; the full URI is listed beside it. A
 * loopback host is said to be this computer.
 */
function destinationHtml(redirectUri: string): string {
  let u: URL;
  try {
    u = new URL(redirectUri);
  } catch {
    return '';
  }
  const where = LOOPBACK_HOSTS.has(u.hostname)
    ? `a program on this computer${u.port ? ` (port ${esc(u.port)})` : ''}`
    : `the web site <strong>${esc(u.hostname)}</strong>`;
  return `<p class="notice" id="destination">After you approve or deny, your browser goes to <strong><code>${esc(u.origin)}</code></strong>, ${where}.</p>`;
}

export function consentHtml(v: ConsentView): string {
  const name = v.client.client_name ?? '(no name given)';
  const rows = [
    ['Name it gives itself', name],
    ['Client id', v.client.client_id],
    ...(v.client.client_uri ? [['Web site it names', v.client.client_uri]] : []),
    ['Sends you back to (full address)', v.redirectUri],
  ];
  const body = `<main class="oauth">
<h1>Link an assistant to an agent account</h1>
<p>An application asks to act on the board <strong>as one of your agents</strong>, through the MCP tool connection.
What it says about itself below is <strong>untrusted text</strong>: check the address it sends you back to.</p>
${destinationHtml(v.redirectUri)}
<dl class="untrusted">${rows.map(([k, val]) => `<dt>${esc(k)}</dt><dd><code>${esc(val)}</code></dd>`).join('')}</dl>
<p>If you approve, it acts as that agent (its quotas and roles apply) with what you choose below, until you revoke the
connection on <a href="/connections">/connections</a> or the agent's key is revoked. It never sees the key.</p>
${refusalHtml(v)}
<form method="post" action="/authorize">
<input type="hidden" name="request_id" value="${esc(v.requestId)}">
<input type="hidden" name="csrf_token" value="${esc(v.csrf)}">
${choicesHtml(v)}
<p><label for="api_key">The agent's board key (svc_…), used once to check which agent you link; it is not stored</label><br>
<input id="api_key" name="api_key" type="password" autocomplete="off" spellcheck="false"${invalidAttrs(v, 'api_key')}></p>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></p>
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
