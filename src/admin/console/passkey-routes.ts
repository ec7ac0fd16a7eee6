// /console passkey routes (docs/operations.md, "Passkeys"): the script, the Passkeys page and its
// remove form, and the JSON steps of the two WebAuthn ceremonies the script runs. JSON refusals
// carry the error envelope (src/admin/codes.ts); the pages are HTML like the rest of the console.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../../context.ts';
import { clientAddress } from '../../http/client.ts';
import { jsonAnswer, mediaAnswer, redirectAnswer } from '../../http/contract.ts';
import { ApiError } from '../../http/errors.ts';
import { doc } from '../../http/openapi-detail.ts';
import { readForm, unread } from '../../mcp/bodies.ts';
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_PATH, passkeyPageHeaders, passkeysPage } from './passkey-pages.ts';
import { authenticationOptions, register, registrationOptions, removePasskey, signInWithPasskey } from './passkeys.ts';
import { layout } from './pages.ts';
import { CROSS_SITE_TEXT, crossSite } from './cross-site.ts';
import { csrfOk, type Session, sessionCookie, sessionOf } from './session.ts';

const TAGS = ['console'];
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

// The browser's answer as the script sends it: checked in depth by @simplewebauthn/server.
const credential = v.pipe(
  v.looseObject({ id: v.pipe(v.string(), v.maxLength(1024)), type: v.literal('public-key'), response: v.looseObject({ clientDataJSON: v.string() }) }),
  v.description('The PublicKeyCredential as JSON (base64url byte fields), as the console’s script builds it.'),
);
const Csrf = v.pipe(v.string(), v.maxLength(200), v.description('The session’s csrf token (the page’s data-csrf).'));
const OptionsAnswer = v.looseObject({ challenge: v.string() });

const json = (body: unknown, extra: Record<string, string> = {}) => new Response(JSON.stringify(body), { headers: { ...JSON_HEADERS, ...extra } });

export const passkeyRoutes = (ctx: AppContext) => {
  const secure = (request: Request) =>
    ctx.config.baseUrl.startsWith('https://') || (ctx.config.trustProxy && request.headers.get('x-forwarded-proto') === 'https');
  /** A JSON step from another site is refused before anything else (cross-site.ts). */
  const sameSite = (request: Request) => {
    if (crossSite(ctx, request)) throw new ApiError('CONSOLE_CROSS_SITE');
  };
  /** The session a JSON step needs, with its csrf checked. */
  const signedIn = (request: Request, csrf: string): Session => {
    sameSite(request);
    const s = sessionOf(ctx, request.headers.get('cookie'));
    if (!s) throw new ApiError('CONSOLE_SIGNED_OUT');
    if (!csrfOk(s, csrf)) throw new ApiError('CONSOLE_FORM_CHECK');
    return s;
  };
  // A refusal is shown as an error (role=alert, and the title starts with "Error:"), an outcome as a status.
  const page = (request: Request, s: Session, message?: string, status = 200) => {
    const refused = status >= 400 && message !== undefined;
    const notice = refused ? { action: 'passkey remove', error: message } : undefined;
    return new Response(layout(s, 'passkeys', passkeysPage(ctx, s, refused ? undefined : message), notice, [PASSKEY_SCRIPT_PATH]), {
      status,
      headers: passkeyPageHeaders(ctx, request),
    });
  };

  return new Elysia({ name: 'console-passkeys', seed: seedOf(ctx) })
    .get(
      PASSKEY_SCRIPT_PATH,
      () => new Response(PASSKEY_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } }),
      {
        detail: doc({
          summary: "The console's passkey script",
          description: 'The only script of the console: runs the WebAuthn ceremonies on the sign-in and Passkeys pages.',
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: { 200: mediaAnswer('text/javascript', 'The script.') },
        }),
      },
    )
    .get(
      '/console/passkeys',
      ({ request, query }) => {
        const s = sessionOf(ctx, request.headers.get('cookie'));
        if (!s) return new Response(null, { status: 303, headers: { location: '/console', 'cache-control': 'no-store' } });
        return page(request, s, query.registered === '1' ? 'Passkey registered.' : undefined);
      },
      {
        detail: doc({
          summary: 'The console page of the signed-in account’s passkeys',
          description:
            'Signed in only (else 303 to /console). Lists the account’s passkeys (registered, last used, transports) with a remove form each, and a button that registers a new one (the page’s script, the only one its CSP admits, by its full address). registered=1 shows that one was just registered.',
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: { 200: mediaAnswer('text/html', 'The page.'), 303: redirectAnswer('Not signed in.') },
        }),
      },
    )
    .post(
      '/console/passkeys/remove',
      async ({ request }) => {
        const s = sessionOf(ctx, request.headers.get('cookie'));
        if (!s) return new Response(null, { status: 303, headers: { location: '/console', 'cache-control': 'no-store' } });
        if (crossSite(ctx, request)) return page(request, s, CROSS_SITE_TEXT, 403);
        const form = await readForm(ctx, request).catch(() => null);
        if (!form || !csrfOk(s, form.csrf)) return page(request, s, 'The form check failed: reload the page and try again.', 403);
        if (!(await removePasskey(ctx, s, form.credential_id ?? ''))) return page(request, s, 'No such passkey of this account.', 404);
        return page(request, s, 'Passkey removed.');
      },
      {
        parse: unread,
        detail: doc({
          summary: 'Remove one of the signed-in account’s passkeys',
          description:
            'Form with csrf and credential_id. Only the account’s own passkeys; in the audit log as "passkey remove". Answers with the Passkeys page; a wrong csrf or a request from another site (Origin, Sec-Fetch-Site) 403, a passkey that is not the account’s 404.',
          tags: TAGS,
          errors: ['INTERNAL'],
          answers: {
            200: mediaAnswer('text/html', 'The page: removed.'),
            303: redirectAnswer('Not signed in.'),
            403: mediaAnswer('text/html', 'The form check failed, or the request came from another site.'),
            404: mediaAnswer('text/html', 'No such passkey of this account.'),
          },
        }),
      },
    )
    .post('/console/passkeys/options', async ({ request, body }) => json(await registrationOptions(ctx, signedIn(request, body.csrf), request)), {
      body: v.object({ csrf: Csrf }),
      detail: doc({
        summary: 'Start registering a passkey: the creation options',
        description:
          'Signed in (session cookie) as an owner or operator (an editor: 403 PASSKEY_ROLE_NEEDED) with the session’s csrf. Answers PublicKeyCredentialCreationOptions as JSON (base64url bytes): relying party = the service’s base URL’s host, a discoverable credential with user verification, no attestation, the account’s passkeys excluded. The challenge is kept server-side for 5 minutes, for this account, once.',
        tags: TAGS,
        errors: ['INVALID_REQUEST', 'CONSOLE_CROSS_SITE', 'CONSOLE_SIGNED_OUT', 'CONSOLE_FORM_CHECK', 'PASSKEY_ROLE_NEEDED'],
        answers: { 200: jsonAnswer(OptionsAnswer, 'The options for navigator.credentials.create.') },
      }),
    })
    .post(
      '/console/passkeys/register',
      async ({ request, body }) => json(await register(ctx, signedIn(request, body.csrf), request, body.credential as unknown as RegistrationResponseJSON)),
      {
        body: v.object({ csrf: Csrf, credential }),
        detail: doc({
          summary: 'Finish registering a passkey',
          description:
            'Signed in as an owner or operator with the session’s csrf; credential is the browser’s answer to the options. Verified against the stored challenge (once, within 5 minutes, this account’s), the service’s origin and RP ID, with user verification; the credential (id, public key, counter, transports) is kept for the account and the audit log records "passkey register". Answers {credential_id}.',
          tags: TAGS,
          errors: [
            'INVALID_REQUEST',
            'CONSOLE_CROSS_SITE',
            'CONSOLE_SIGNED_OUT',
            'CONSOLE_FORM_CHECK',
            'PASSKEY_ROLE_NEEDED',
            'PASSKEY_CHALLENGE_SPENT',
            'PASSKEY_NOT_VERIFIED',
          ],
          answers: { 200: jsonAnswer(v.object({ credential_id: v.string() }), 'The passkey is registered.') },
        }),
      },
    )
    .post(
      '/console/passkey/options',
      async ({ request, server }) => {
        sameSite(request);
        const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config.trustProxy);
        return json(await authenticationOptions(ctx, request, address));
      },
      {
        detail: doc({
          summary: 'Start signing in with a passkey: the request options',
          description:
            'No session needed. Answers PublicKeyCredentialRequestOptions as JSON (base64url challenge, the service’s RP ID, user verification required, no credential list: the authenticator offers its passkeys for this service). The challenge is kept server-side for 5 minutes, once. At most 30 requests per client address in 15 minutes, and 500 sign-in challenges kept at once: past either, 429 RATE_LIMITED with Retry-After and details.retry_at, and nothing is stored.',
          tags: TAGS,
          errors: ['CONSOLE_CROSS_SITE', 'RATE_LIMITED'],
          answers: { 200: jsonAnswer(OptionsAnswer, 'The options for navigator.credentials.get.') },
        }),
      },
    )
    .post(
      '/console/passkey/sign-in',
      async ({ request, body, server }) => {
        sameSite(request);
        const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config.trustProxy);
        const token = await signInWithPasskey(ctx, address, request, body.credential as unknown as AuthenticationResponseJSON);
        return json({ location: '/console/queue' }, { 'set-cookie': sessionCookie(token, secure(request)) });
      },
      {
        body: v.object({ credential }),
        detail: doc({
          summary: 'Finish signing in with a passkey',
          description:
            'credential is the browser’s answer to the request options. Verified against the stored challenge (once, within 5 minutes), the service’s origin and RP ID, the registered public key, with user verification; the signature counter is updated. The passkey’s account must still have a live key and the owner or operator role (an editor signs in with its key). Answers {location} with the same session cookie as key sign-in; refusals count with key sign-in’s (10 per address in 15 minutes; past them a refusal is 429 RATE_LIMITED with Retry-After, while a passkey that verifies still signs in), and each one below the limit is in the audit log (console sign-in, or console sign-in refused with the code). A request from another site (Origin, Sec-Fetch-Site): 403 CONSOLE_CROSS_SITE.',
          tags: TAGS,
          errors: [
            'INVALID_REQUEST',
            'CONSOLE_CROSS_SITE',
            'PASSKEY_CHALLENGE_SPENT',
            'PASSKEY_NOT_VERIFIED',
            'PASSKEY_UNKNOWN',
            'PASSKEY_ROLE_GONE',
            'RATE_LIMITED',
          ],
          answers: {
            200: jsonAnswer(v.object({ location: v.string() }), 'Signed in: where to go, with the session cookie.', {
              'set-cookie': { description: 'The console session cookie.', schema: { type: 'string' } },
            }),
          },
        }),
      },
    );
};
