// Server-rendered pages for people. Every piece of text passes through `esc`; pages load
// nothing from other hosts and run no script, under a CSP that forbids both.

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => ESC[c]!);

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code,pre{font-family:ui-monospace,monospace;background:#f3f3f3;padding:0 .2em}pre{padding:.6em;overflow:auto}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
h2{margin-top:2rem}.m{font-weight:600;text-transform:uppercase;font-size:.8em;padding:.1em .4em;border-radius:3px;background:#e8eefc}
:target{background:#fff6d5}small{color:#555}`;

/** The HTML of a complete page; `body` must already be escaped HTML. */
export const pageHtml = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>`;

/** A complete page; `body` must already be escaped HTML. */
export function page(title: string, body: string): Response {
  return new Response(pageHtml(title, body), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  });
}
