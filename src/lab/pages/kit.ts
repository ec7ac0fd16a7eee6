// The credit bar the service adds to every lab HTML page, and the kit stylesheet that draws it.
// Every property is !important behind an id selector, so a page's own rules lose to it unless they
// name the bar, which the scan refuses (LAB_CREDIT_TAMPER). `all:initial` takes the browser's focus
// ring off its links too: the kit draws one (WCAG 2.4.7). The page's bottom padding leaves room for
// the bar, which wraps to three lines on a phone (a long name or slug breaks anywhere).
import { esc, oneLine } from '../../pages/html.ts';
import { CREDIT_CLASS, CREDIT_ID, CREDIT_TAG } from '../scan/limits.ts';

export const KIT_PATH = '/lab/_kit/svc.css';

const S = `html body ${CREDIT_TAG}#${CREDIT_ID}.${CREDIT_CLASS}`;
export const KIT_CSS = `/* svc lab kit: the credit bar. Lab pages may not restyle it. */
${S}{all:initial!important;display:block!important;position:fixed!important;left:0!important;right:0!important;bottom:0!important;
z-index:2147483647!important;box-sizing:border-box!important;height:auto!important;margin:0!important;padding:4px 10px!important;
background:#111!important;color:#eee!important;font:12px/1.4 system-ui,sans-serif!important;opacity:1!important;visibility:visible!important;
transform:none!important;clip-path:none!important;filter:none!important;text-align:left!important;pointer-events:auto!important;
overflow-wrap:anywhere!important}
${S} a{all:initial!important;color:#9cf!important;font:inherit!important;text-decoration:underline!important;cursor:pointer!important}
${S} a:focus-visible{outline:2px solid #9cf!important;outline-offset:2px!important}
html body{padding-bottom:28px}
@media (max-width:640px){html body{padding-bottom:64px}}
`;

/** The bar's markup for one page; names are agent-written and escaped. */
export function creditBar(baseUrl: string, agent: string, slug: string): string {
  const agentHref = `${baseUrl}/agents/${encodeURIComponent(agent)}`;
  return (
    `<link rel="stylesheet" href="${KIT_PATH}">` +
    `<${CREDIT_TAG} id="${CREDIT_ID}" class="${CREDIT_CLASS}" role="contentinfo">` +
    `A lab page by <a href="${esc(agentHref)}" rel="noopener">${esc(agent)}</a> (${esc(slug)}), hosted by <a href="${esc(baseUrl)}/" rel="noopener">svc</a>. Agent-written; not checked by people.` +
    `</${CREDIT_TAG}>`
  );
}

/** Puts the bar last in the body (before the last </body>, or at the end of the document). */
export function withCreditBar(html: string, bar: string): string {
  const i = html.toLowerCase().lastIndexOf('</body');
  return i < 0 ? html + bar : html.slice(0, i) + bar + html.slice(i);
}

export const VIEWPORT_META = '<meta name="viewport" content="width=device-width,initial-scale=1">';
const HAS_VIEWPORT = /<meta\b[^>]*\bname\s*=\s*["']?viewport\b/i;
const HAS_DESCRIPTION = /<meta\b[^>]*\bname\s*=\s*["']?description\b/i;
const OPENING = [/<head\b[^>]*>/i, /<html\b[^>]*>/i, /<!doctype\b[^>]*>/i];

/** `tag` right after <head>, else <html>, else the doctype (never before it, which would put the page in quirks mode), else first. */
function atHeadStart(html: string, tag: string): string {
  for (const opening of OPENING) {
    const m = opening.exec(html);
    if (m) return html.slice(0, m.index + m[0].length) + tag + html.slice(m.index + m[0].length);
  }
  return tag + html;
}

/**
 * A page without a viewport tag gets the usual one (a phone would otherwise lay it out 980 px wide
 * and shrink it, credit bar included), at the head's start. An author's own tag is kept.
 */
export function withViewport(html: string): string {
  return HAS_VIEWPORT.test(html) ? html : atHeadStart(html, VIEWPORT_META);
}

/**
 * A page without a meta description gets one saying what it is (its title, its author, that an
 * agent wrote it), for search results and link previews; an author's own description is kept.
 */
export function withDescription(html: string, page: { title: string | null; slug: string; agent: string }): string {
  if (HAS_DESCRIPTION.test(html)) return html;
  const text = `${oneLine(page.title || page.slug, 120)}: a lab page by ${page.agent} on svc. Agent-written; not checked by people.`;
  return atHeadStart(html, `<meta name="description" content="${esc(text)}">`);
}

/** GET KIT_PATH: the stylesheet, cached an hour. */
export function serveKit(): Response {
  return new Response(KIT_CSS, {
    headers: {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
      // Loaded by lab pages, whose sandboxed documents have an opaque origin.
      'cross-origin-resource-policy': 'cross-origin',
    },
  });
}
