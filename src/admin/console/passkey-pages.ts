// The console's passkey pieces: the sign-in page's passkey button, the Passkeys page, and the one
// small script both run (served from /console/passkey.js, the only script those two pages' CSP
// admits; the rest of the console stays script-free). The script only carries the WebAuthn
// ceremonies between the browser's authenticator and the JSON routes of passkey-routes.ts.
import type { AppContext } from '../../context.ts';
import { originOf } from '../../http/origin.ts';
import { esc, PAGE_CSP, pageHeaders, timeHtml } from '../../pages/html.ts';
import { passkeysOf } from './passkeys.ts';
import { fullConsole, type Session } from './session.ts';

export const PASSKEY_SCRIPT_PATH = '/console/passkey.js';

/** The headers of every console page: no caching, no framing (X-Frame-Options for browsers older than frame-ancestors). */
export const CONSOLE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...pageHeaders({ noindex: true }),
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

/**
 * The CSP of the two pages that run the passkey script: that one script by its full address, not
 * `script-src 'self'`, which would also admit the agents' lab files this origin serves as
 * text/javascript (/lab/…). Its calls go to the passkey routes only. The origin is the one the
 * console answers as (src/http/origin.ts), which the browser's address must be for passkeys anyway.
 */
export const passkeyPageCsp = (origin: string): string =>
  `${PAGE_CSP}; script-src ${origin}${PASSKEY_SCRIPT_PATH}; connect-src ${origin}/console/passkey/ ${origin}/console/passkeys/`;

/** The headers of the sign-in and Passkeys pages, for this request's origin. */
export const passkeyPageHeaders = (ctx: AppContext, request: Request): Record<string, string> => ({
  ...CONSOLE_PAGE_HEADERS,
  'content-security-policy': passkeyPageCsp(originOf(ctx.config, request)),
});

/** The sign-in page's passkey section (the button works only with the script). */
export const passkeySignInSection = (): string =>
  `<section class="passkey"><h2>Passkey</h2><p>An owner or operator who registered a passkey can use it instead of the key.</p>
<p><button type="button" id="passkey-sign-in">Sign in with a passkey</button></p><p id="passkey-status" role="status"></p></section>`;

/**
 * The Passkeys page: the account's passkeys with a remove form each (its button names the passkey),
 * and the register button. Each cell carries its column's name for the phone layout (data-label).
 */
export function passkeysPage(ctx: AppContext, s: Session, message?: string): string {
  const rows = passkeysOf(ctx, s.accountId)
    .map(
      (p) =>
        `<tr><td data-label="Passkey"><code>${esc(p.credential_id.slice(0, 16))}…</code></td><td data-label="Registered">${timeHtml(p.created_at)}</td><td data-label="Last used">${p.last_used_at === null ? 'never' : timeHtml(p.last_used_at)}</td><td data-label="Transports">${esc((JSON.parse(p.transports) as string[]).join(', '))}</td><td><form method="post" action="/console/passkeys/remove" class="act"><input type="hidden" name="csrf" value="${esc(s.csrf)}"><input type="hidden" name="credential_id" value="${esc(p.credential_id)}"><button>Remove<span class="visually-hidden"> passkey ${esc(p.credential_id.slice(0, 16))}…</span></button></form></td></tr>`,
    )
    .join('');
  const keyOff = !ctx.config.console.keySignIn;
  const table = rows
    ? `<div class="wide"><table><thead><tr><th>Passkey</th><th>Registered</th><th>Last used</th><th>Transports</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows}</tbody></table></div>`
    : '<p>None yet.</p>';
  const head = `<h1>Passkeys</h1>${message ? `<p class="done" role="status">${esc(message)}</p>` : ''}`;
  if (!fullConsole(s)) return `${head}<p>Passkeys are for owner and operator accounts: an editor signs in with its key.</p>${rows ? table : ''}`;
  return `${head}
<p>Passkeys of ${esc(s.name)} for signing in to this console. Reissuing or revoking this account’s key removes them all.${keyOff ? ' Key sign-in is off on this service for accounts with a passkey: remove the last one and the key signs in again.' : ''}</p>
${table}
<p><button type="button" id="passkey-register" data-csrf="${esc(s.csrf)}">Register a passkey</button></p><p id="passkey-status" role="status"></p>`;
}

// Plain browser JavaScript, no library: base64url to bytes and back, and the two ceremonies.
export const PASSKEY_SCRIPT = `'use strict';
(() => {
  const toB64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const toBytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4)), (c) => c.charCodeAt(0));
  const status = (text) => { const el = document.getElementById('passkey-status'); if (el) el.textContent = text; };
  async function post(url, body) {
    const r = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const j = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error((j.error && j.error.message) || 'HTTP ' + r.status);
    return j;
  }
  const common = (c) => ({ id: c.id, rawId: toB64(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(), authenticatorAttachment: c.authenticatorAttachment || undefined });
  async function register(button) {
    const csrf = button.dataset.csrf;
    const o = await post('/console/passkeys/options', { csrf });
    const c = await navigator.credentials.create({ publicKey: {
      ...o, challenge: toBytes(o.challenge), user: { ...o.user, id: toBytes(o.user.id) },
      excludeCredentials: (o.excludeCredentials || []).map((x) => ({ ...x, id: toBytes(x.id) })),
    } });
    const response = { clientDataJSON: toB64(c.response.clientDataJSON), attestationObject: toB64(c.response.attestationObject),
      transports: c.response.getTransports ? c.response.getTransports() : [] };
    await post('/console/passkeys/register', { csrf, credential: { ...common(c), response } });
    location.assign('/console/passkeys?registered=1');
  }
  async function signIn() {
    const o = await post('/console/passkey/options', {});
    const c = await navigator.credentials.get({ publicKey: { ...o, challenge: toBytes(o.challenge),
      allowCredentials: (o.allowCredentials || []).map((x) => ({ ...x, id: toBytes(x.id) })) } });
    const response = { clientDataJSON: toB64(c.response.clientDataJSON), authenticatorData: toB64(c.response.authenticatorData),
      signature: toB64(c.response.signature), userHandle: c.response.userHandle ? toB64(c.response.userHandle) : undefined };
    const done = await post('/console/passkey/sign-in', { credential: { ...common(c), response } });
    location.assign(done.location);
  }
  const wire = (id, run) => {
    const b = document.getElementById(id);
    if (!b) return;
    if (!window.PublicKeyCredential) { b.disabled = true; status('This browser has no passkey support.'); return; }
    b.addEventListener('click', () => { b.disabled = true; status('Waiting for the authenticator…');
      run(b).catch((e) => { status('Passkey: ' + e.message); b.disabled = false; }); });
  };
  wire('passkey-register', register);
  wire('passkey-sign-in', signIn);
})();
`;
