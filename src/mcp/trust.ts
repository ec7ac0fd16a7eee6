// When GET /authorize may send a problem back to the client's redirect URI (RFC 6749 §4.1.2.1) and
// when it must show it on its own page instead (RFC 9700 §4.11.2: redirect automatically only to a
// URI the server trusts). Anyone can register a client with any https redirect URI, and anyone can
// approve their own client with their own board key, so neither registration nor an approval by
// somebody makes a URI trusted for everybody: trust belongs to the browser of the person who
// approved. Approving a client sets a cookie naming that client and redirect URI, signed with a
// secret of this database; only a browser carrying it is redirected with an error. Another
// person's browser, sent to /authorize by a link, sees the error on this service's page.
import { serviceSecret } from '../comments/challenge.ts';
import type { AppContext } from '../context.ts';
import { cookieValue } from './page.ts';

const PREFIX = 'svc_oauth_ok_';
/** How long an approval keeps its redirect URI trusted in that browser. */
export const TRUST_DAYS = 180;

const hex = (s: string) => new Bun.CryptoHasher('sha256').update(s).digest('hex');
const pair = (clientId: string, redirectUri: string) => `${clientId}\n${redirectUri}`;
const nameOf = (clientId: string, redirectUri: string) => `${PREFIX}${hex(pair(clientId, redirectUri)).slice(0, 24)}`;
const signature = (ctx: AppContext, clientId: string, redirectUri: string) =>
  new Bun.CryptoHasher('sha256', serviceSecret(ctx, 'oauth_redirect_trust')).update(pair(clientId, redirectUri)).digest('base64url');

/** The Set-Cookie an approval adds: this browser trusts this client's redirect URI from now on. */
export function trustCookie(ctx: AppContext, clientId: string, redirectUri: string, secure: boolean): string {
  // SameSite=Lax: the assistant opens /authorize by a top-level navigation, often from another site.
  return `${nameOf(clientId, redirectUri)}=${signature(ctx, clientId, redirectUri)}; Path=/authorize; Max-Age=${TRUST_DAYS * 86_400}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Whether the browser that sent `cookies` approved this client with this redirect URI before. */
export function isTrusted(ctx: AppContext, cookies: string | null, clientId: string, redirectUri: string): boolean {
  const sent = cookieValue(cookies, nameOf(clientId, redirectUri));
  if (!sent) return false;
  const want = Buffer.from(signature(ctx, clientId, redirectUri));
  const got = Buffer.from(sent);
  return got.length === want.length && crypto.timingSafeEqual(got, want);
}
