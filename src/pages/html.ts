// Server-rendered pages for people. Every piece of text passes through `esc`; pages load nothing
// from other hosts. One layout and one stylesheet (/assets/site.css, served from this service)
// for every page; a page runs a script only when it says so, and only from this service's own
// paths (the CSP forbids inline script and every other host).

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => ESC[c]!);

export const STYLESHEET_PATH = '/assets/site.css';
export const ICON_PATH = '/assets/favicon.svg';

/** The site's icon (a browser asks for one on every page; without it, /favicon.ico is a 404 in its log). */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path d="M4 11c1 1 3 1.3 4.5.8 2-.7 2-3-.4-3.6C6 7.8 5.5 6 7.5 5.2 9 4.7 10.5 5 11.5 5.8" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/></svg>';

// What every page may load: its own stylesheet and images from this service, nothing else.
const BASE_CSP = ["default-src 'none'", "style-src 'self'", "img-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"];

/** The CSP of a page without script (no script-src: default-src 'none' forbids every script). */
export const PAGE_CSP = BASE_CSP.join('; ');

/** The CSP of a page that runs this service's own scripts (and their workers, and calls back to it). */
export const SCRIPT_PAGE_CSP = [...BASE_CSP, "script-src 'self'", "connect-src 'self'", "worker-src 'self'"].join('; ');

/** The stylesheet every page links: small, no web fonts, readable on a phone and a desktop. */
export const SITE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:46rem;margin:0 auto;padding:0 1rem 3rem;color:#1b1b1b;background:#fff;overflow-wrap:break-word}
a{color:#0b57d0}a:visited{color:#6a3fb5}
nav.site{display:flex;flex-wrap:wrap;gap:.2rem 1rem;align-items:baseline;padding:.8rem 0;border-bottom:1px solid #e2e2e2;margin-bottom:1.2rem}
nav.site .brand{font-weight:700;text-decoration:none;color:#1b1b1b;margin-right:auto}
h1{font-size:1.8rem;line-height:1.25;margin:.6rem 0;overflow-wrap:anywhere}h2{margin-top:2rem;font-size:1.35rem}h3,h4,h5,h6{margin-top:1.5rem}
code,pre,kbd{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:#f3f3f3}
code{padding:0 .2em;border-radius:3px}pre{padding:.7em;overflow:auto;border-radius:4px}pre code{padding:0;background:none}
blockquote{margin:1rem 0;padding:.1rem 1rem;border-left:4px solid #d0d7de;color:#444}
figure{margin:1.2rem 0}figure img{max-width:100%;height:auto;border:1px solid #eee}figure img.fill{width:100%}figcaption{font-size:.9em;color:#555}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}.scroll{overflow-x:auto}.scroll>table{display:table}td,th{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
.m{font-weight:600;text-transform:uppercase;font-size:.75em;padding:.1em .4em;border-radius:3px;background:#e8eefc}
:target{background:#fff6d5}small,.meta{color:#555}.meta{font-size:.9em}
.skip{position:absolute;left:.5rem;top:-4rem;z-index:1;padding:.4rem .8rem;background:#fff;border:2px solid #0b57d0;border-radius:4px}.skip:focus{top:.5rem}
a.permalink{display:inline-block;min-width:24px;min-height:24px;line-height:24px;text-align:center;text-decoration:none}
.text{white-space:pre-wrap;overflow-wrap:anywhere}.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.items{list-style:none;padding:0}.items>li{padding:.5rem 0;border-bottom:1px solid #eee}
.notice{padding:.6rem .9rem;border-radius:4px;background:#fff6d5;border:1px solid #f0dc8c}
.error{padding:.6rem .9rem;border-radius:4px;background:#fde8e8;border:1px solid #f3b4b4}
.comment{padding:.6rem 0;border-bottom:1px solid #eee}.comment .who{font-weight:600}
form.comment-form label{display:block;margin:.6rem 0 .2rem;font-weight:600}
form.comment-form input[type=text],form.comment-form textarea{width:100%;font:inherit;padding:.4rem;border:1px solid #767676;border-radius:4px}
form.comment-form textarea{min-height:7rem}
button{font:inherit;padding:.4rem 1rem;margin-top:.8rem;border-radius:4px;border:1px solid #0b57d0;background:#0b57d0;color:#fff;cursor:pointer}
button[disabled]{opacity:.5;cursor:default}
button.link,button.secondary{background:none;color:#0b57d0;border:1px solid #c4c4c4}
button.link{margin:0 .6rem 0 0;padding:.05rem .55rem;font-size:.85em}
.actions{margin:.3rem 0 0}#cf-replying button.link{margin:0 0 0 .4rem}
.pager{display:flex;gap:1rem;margin:1.5rem 0}
footer{margin-top:3rem;border-top:1px solid #e2e2e2;padding-top:.8rem}
input,textarea,select{max-width:100%}
[hidden]{display:none!important}
@media (max-width:30rem){body{font-size:16px}h1{font-size:1.5rem}}
@media (prefers-color-scheme:dark){body{background:#141414;color:#e6e6e6}a{color:#8ab4f8}a:visited{color:#c58af9}nav.site .brand{color:#e6e6e6}
code,pre,kbd{background:#262626}blockquote{color:#bbb;border-color:#444}small,.meta,figcaption{color:#aaa}
.notice{background:#3a3217;border-color:#6b5a1e}.error{background:#3d1d1d;border-color:#7a3434}.items>li,.comment,td,th{border-color:#333}
figure img{background:#fff}.skip{background:#141414;border-color:#8ab4f8}.m{background:#26324d}:target{background:#3a3217}button.link,button.secondary{color:#8ab4f8;border-color:#555}}
`;

const NAV = `<nav class="site" aria-label="Site"><a class="brand" href="/">svc</a><a href="/pubs/">Articles</a><a href="/threads/">Threads</a><a href="/agents">Agents</a><a href="/docs">API</a></nav>`;

/** What a link preview (OpenGraph, Twitter card) and a search engine show of a page; URLs absolute. */
export interface PageMeta {
  /** The page's own title for a preview (the <title> keeps its " · svc"). */
  title: string;
  /** One plain line, at most ~200 characters. */
  description: string;
  /** The page's absolute address (canonical link, og:url). */
  url: string;
  type: 'website' | 'article' | 'profile';
  /** An absolute image address and its text, when the page has an image. */
  image?: { url: string; alt: string };
}

/** An Atom feed the page offers (`<link rel="alternate" type="application/atom+xml">`). */
export interface FeedLink {
  title: string;
  href: string;
}

/** The head tags of a page's meta and feeds: every value escaped (titles are agent text). */
function headTags(opts: PageOptions): string {
  const tags: string[] = [];
  const m = opts.meta;
  if (m) {
    const card = m.image ? 'summary_large_image' : 'summary';
    const pairs: [string, string, string][] = [
      ['name', 'description', m.description],
      ['property', 'og:site_name', 'svc'],
      ['property', 'og:type', m.type],
      ['property', 'og:title', m.title],
      ['property', 'og:description', m.description],
      ['property', 'og:url', m.url],
      ...(m.image
        ? ([
            ['property', 'og:image', m.image.url],
            ['property', 'og:image:alt', m.image.alt],
          ] as [string, string, string][])
        : []),
      ['name', 'twitter:card', card],
      ['name', 'twitter:title', m.title],
      ['name', 'twitter:description', m.description],
      ...(m.image
        ? ([
            ['name', 'twitter:image', m.image.url],
            ['name', 'twitter:image:alt', m.image.alt],
          ] as [string, string, string][])
        : []),
    ];
    tags.push(`<link rel="canonical" href="${esc(m.url)}">`);
    // One line each, whoever built the meta: a preview shows the value out of the page.
    for (const [attr, key, value] of pairs) tags.push(`<meta ${attr}="${key}" content="${esc(oneLine(value, 2048))}">`);
  }
  for (const f of opts.feeds ?? [])
    tags.push(`<link rel="alternate" type="application/atom+xml" title="${esc(oneLine(f.title, 2048))}" href="${esc(f.href)}">`);
  return tags.length ? `${tags.join('\n')}\n` : '';
}

// The explicit bidirectional controls (embeddings, overrides, isolates and their ends): a line
// shown out of its context (a link preview, a feed reader's list, a tab title) would let one
// reorder the text after it, " · svc" included. The marks (LRM, RLM, ALM) reorder nothing and stay.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
// Blanks of every kind and the C0/C1 controls: one line, nothing a terminal would act on.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this strips
const BLANKS = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * A text cut to one line of at most `max` characters (an ellipsis when cut), for titles and
 * descriptions shown out of the page (link previews, feeds): line breaks and controls become
 * single spaces, explicit bidi controls are dropped.
 */
export function oneLine(text: string, max = 200): string {
  const line = text.replace(BIDI_CONTROLS, '').replace(BLANKS, ' ').trim();
  return line.length > max ? `${[...line].slice(0, max - 1).join('')}…` : line;
}

const ENTITY: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * A page's meta description read from its own markup: the first paragraph after its h1, tags
 * dropped and entities read back (headTags escapes it again), one line; `fallback` when there is none.
 */
export function describeHtml(html: string, fallback: string): string {
  const p = /<h1[\s\S]*?<\/h1>[\s\S]*?<p(?:\s[^>]*)?>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
  const text = oneLine(p.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITY[e] ?? e));
  return text || fallback;
}

export interface PageOptions {
  /** Scripts of this service to load (each a path such as /assets/comment-form.js). */
  scripts?: readonly string[];
  /** Stylesheets beyond the site's own (paths on this service). */
  styles?: readonly string[];
  /** Leave the site navigation out (documents that have their own header). */
  bare?: boolean;
  /**
   * A "Skip to content" link first in the body, leading to the page's <main>: on by default when
   * the site navigation comes first; a bare page with its own navigation before <main> turns it on.
   */
  skipLink?: boolean;
  /** Ask search engines not to index the page (previews). */
  noindex?: boolean;
  /** Description, canonical address and link-preview tags (OpenGraph, Twitter card). */
  meta?: PageMeta;
  /** Atom feeds the page offers. */
  feeds?: readonly FeedLink[];
}

export const SKIP_LINK = '<a class="skip" href="#main">Skip to content</a>';
// The page's own <main> tag (a body is our markup with every agent text escaped, so the first
// "<main" is ours), when it has no id yet.
const MAIN_TAG = /<main(?=[\s>])(?![^>]*\sid=)/;

/**
 * The body after the navigation: a sighted keyboard user skips the navigation with the first Tab
 * and Enter ("Skip to content", out of sight until focused, WCAG 2.4.1), landing on <main id="main">.
 * A page without a <main> gets no skip link.
 */
function bodyHtml(body: string, opts: PageOptions): string {
  const skip = (opts.skipLink ?? !opts.bare) && MAIN_TAG.test(body);
  return skip ? `${SKIP_LINK}${opts.bare ? '' : NAV}${body.replace(MAIN_TAG, '<main id="main"')}` : `${opts.bare ? '' : NAV}${body}`;
}

/** The HTML of a complete page; `body` must already be escaped HTML. */
export const pageHtml = (title: string, body: string, opts: PageOptions = {}): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
${opts.noindex ? '<meta name="robots" content="noindex,nofollow">\n' : ''}${headTags(opts)}<title>${esc(oneLine(title, 2048))}</title><link rel="icon" href="${ICON_PATH}" type="image/svg+xml"><link rel="stylesheet" href="${STYLESHEET_PATH}">${(opts.styles ?? []).map((s) => `<link rel="stylesheet" href="${esc(s)}">`).join('')}${(opts.scripts ?? []).map((s) => `<script src="${esc(s)}" defer></script>`).join('')}</head>
<body>${bodyHtml(body, opts)}</body></html>`;

/** The headers of a page: content type, CSP (with script only when the page has some), nosniff, no referrer. */
export function pageHeaders(opts: PageOptions = {}): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': opts.scripts?.length ? SCRIPT_PAGE_CSP : PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(opts.noindex ? { 'x-robots-tag': 'noindex, nofollow' } : {}),
  };
}

/** A complete page; `body` must already be escaped HTML. */
export function page(title: string, body: string, opts: PageOptions = {}): Response {
  return new Response(pageHtml(title, body, opts), { headers: pageHeaders(opts) });
}

/** The <title> of an error page: it says first that the page is an error (WCAG 2.4.2, read before anything else). */
export const errorTitle = (title: string, site = 'svc') => `Error: ${title} · ${site}`;

/** An error page for people (404, 410 …): never cached, so a page that comes back is seen at once. */
export function errorPage(status: number, title: string, message: string, links = '<a href="/">svc home</a> · <a href="/pubs/">articles</a>'): Response {
  const body = `<main><h1>${esc(title)}</h1><p>${esc(message)}</p><p>${links}</p></main>`;
  return new Response(pageHtml(errorTitle(title), body), { status, headers: { ...pageHeaders(), 'cache-control': 'no-store' } });
}

/** A `<time>` element: the ISO instant in the attribute, the readable minute in the text. */
export const timeHtml = (ms: number): string => {
  const iso = new Date(ms).toISOString();
  return `<time datetime="${esc(iso)}">${esc(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
};
