// A console POST a browser says came from another site (OWASP's CSRF cheat sheet: check the
// source beside the token). The csrf token and the SameSite=Strict cookie already stop a forged
// action; this also stops what they do not cover: a cross-site sign-in (login CSRF: a page that
// signs the owner's browser into the attacker's own account) and a cross-site sign-out. A client
// that sends neither header (curl, `svc admin`'s scripts) is judged by the token alone.
import type { AppContext } from '../../context.ts';
import { originOf } from '../../http/origin.ts';

export const CROSS_SITE_TEXT = 'This request came from another site: the console takes changes from its own pages only.';

/**
 * Whether the request's Origin names another origin, or its Sec-Fetch-Site is cross-site. The
 * console's pages send `Referrer-Policy: no-referrer`, under which a browser's form POST from
 * those very pages carries `Origin: null`: that value names no origin, and Sec-Fetch-Site
 * (same-origin there, cross-site from a sandboxed frame elsewhere) decides.
 */
export function crossSite(ctx: AppContext, request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== 'null' && origin !== originOf(ctx.config, request)) return true;
  return request.headers.get('sec-fetch-site') === 'cross-site';
}
