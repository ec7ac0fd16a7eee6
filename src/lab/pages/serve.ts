// Published lab sites at /lab/{agent}/{slug}/…: the stored files with the credit bar added to every
// HTML page, each under a strict CSP, nosniff and its extension's type. The service sets no cookie.
import type { AppContext } from '../../context.ts';
import { type Answers, mediaAnswer, redirectAnswer } from '../../http/contract.ts';
import { clientAddress } from '../../http/client.ts';
import { pathOf } from '../../http/families.ts';
import { esc, page } from '../../pages/html.ts';
import { badPathReason, SERVED_TYPES, typeOf } from '../scan/paths.ts';
import { creditBar, withCreditBar, withDescription, withViewport } from './kit.ts';
import { recordView } from './stats.ts';
import { readSiteFile } from './storage.ts';
import { labStore } from './store.ts';

// Scripts and styles of the site only; no network access from scripts, no framing, no forms,
// no <base> games. Inline scripts and handlers do not run (no 'unsafe-inline' for scripts).
// `sandbox allow-scripts` gives every lab page an opaque origin: its scripts run, but they can
// read no cookie or storage of the service's origin and every request they cause is cross-origin
// (the guest session cookie of the publication layer lives on this origin). The site's own files
// therefore answer any origin (CORP cross-origin, ACAO *): they are public anyway.
const LAB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self'; " +
  "connect-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'; " +
  'sandbox allow-scripts';

const LAB_HEADERS: Record<string, string> = {
  'content-security-policy': LAB_CSP,
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'cross-origin',
  'access-control-allow-origin': '*',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  // Only features Chromium knows by these names (an unknown one, such as bluetooth, is a console warning on every page).
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()',
  'cache-control': 'public, max-age=60',
};

/** The answers of a lab address whose site is missing: HTML pages for people, never JSON. */
export const MISSING_SITE: Answers = {
  404: mediaAnswer('text/html', 'No live lab page (or no such file in it): an HTML page saying so.'),
  410: mediaAnswer('text/html', 'The owner of this service took the page down: an HTML page saying so.'),
};

/** Every media type a lab file is served with (by extension), without parameters. */
const LAB_FILE_MEDIA = [...new Set([...SERVED_TYPES.values()].map((t) => t.contentType.split(';')[0]!.trim()))];

/** The answers of /lab/{agent}/{slug}/{path}: one media type per served extension. */
export const LAB_FILE_ANSWERS: Answers = {
  200: mediaAnswer(
    LAB_FILE_MEDIA,
    `The file, with its extension's media type (${[...SERVED_TYPES.keys()].join(', ')}); an empty path is the folder's index.html. HTML pages carry the credit bar. Cache-Control: public, max-age=60. A JSON file is the site's own data: any JSON value.`,
  ),
  308: redirectAnswer('A folder of the site named without its trailing slash: the same address with it.'),
  ...MISSING_SITE,
};

function status(res: Response, code: number): Response {
  const headers = new Headers(res.headers);
  headers.set('cache-control', 'no-store');
  return new Response(res.body, { status: code, headers });
}

const notFound = () => status(page('Not found', '<h1>Not found</h1><p>No lab page lives at this address.</p>'), 404);

const redirect = (to: string) => new Response(null, { status: 308, headers: { location: to, 'cache-control': 'no-store' } });

const manifests = new Map<string, Set<string>>(); // version → paths (a version never changes)
function pathsOf(version: string, json: string): Set<string> {
  let paths = manifests.get(version);
  if (!paths) {
    if (manifests.size > 1000) manifests.clear();
    paths = new Set((JSON.parse(json) as { path: string }[]).map((f) => f.path));
    manifests.set(version, paths);
  }
  return paths;
}

export async function serveLabFile(ctx: AppContext, request: Request, socketAddress: string | undefined): Promise<Response> {
  const raw = pathOf(request.url).split('/'); // ['', 'lab', agent, slug, …rest]
  let segments: string[];
  try {
    segments = raw.map((s) => decodeURIComponent(s));
  } catch {
    return notFound();
  }
  const [, , agent = '', slug = ''] = segments;
  const store = labStore(ctx.db);
  const taken = store.takedownByName.get(agent.toLowerCase(), slug);
  if (taken) return status(page('Taken down', `<h1>Taken down</h1><p>The owner of this service took the lab page ${esc(slug)} down.</p>`), 410);
  const row = store.liveByNameSlug.get(agent.toLowerCase(), slug);
  if (!row) return notFound();
  if (raw.length === 4) return redirect(`${pathOf(request.url)}/`);
  let path = segments.slice(4).join('/');
  if (path === '' || path.endsWith('/')) path += 'index.html';
  if (badPathReason(path)) return notFound();
  const paths = pathsOf(row.version, row.files);
  if (!paths.has(path)) return paths.has(`${path}/index.html`) ? redirect(`${pathOf(request.url)}/`) : notFound();
  const type = typeOf(path);
  if (!type) return notFound();
  const bytes = readSiteFile(ctx, row.id, row.version, path);
  if (!bytes) return notFound();
  const headers = { ...LAB_HEADERS, 'content-type': type.contentType };
  if (type.ext !== 'html') return new Response(bytes, { headers });
  recordView(ctx, row.id, clientAddress(request, socketAddress, ctx.config.trustProxy));
  const html = withCreditBar(
    withViewport(withDescription(new TextDecoder().decode(bytes), { title: row.title, slug: row.slug, agent: row.name })),
    creditBar(ctx.config.baseUrl, row.name, row.slug),
  );
  return new Response(html, { headers });
}
