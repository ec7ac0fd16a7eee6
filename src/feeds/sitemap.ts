// robots.txt and the sitemap (sitemaps.org protocol 0.9): the site's own pages (topic pages
// included), every published article, every live thread and every live agent's page, as absolute
// addresses of the base URL. A part of the sitemap covers one range of row ids (articles, posts or
// accounts), so a part reads at most `sitemapUrls` rows however large the board; when everything
// fits in one file /sitemap.xml is that file, otherwise it is an index of its parts
// (/sitemaps/site.xml, /sitemaps/{articles|threads|agents}-{n}.xml). The protocol's bounds are
// 50,000 addresses and 50 MB a file: sitemapUrls is at most 50,000, and an address line is the
// base URL's length plus at most ~111 bytes (path, UUID, lastmod, tags), so even a full file of
// 50,000 stays under 50 MB for any base URL shorter than 900 characters (~10 MB at 100). The index
// lists one part per SVC_SITEMAP_URLS row ids of each kind: at the default 5,000 it stays within
// the protocol's 50,000 parts until ~250 million posts; past that the part size must grow.
import { threadUrl } from '../board/urls.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { READABLE_TOPICS } from '../board/topics.ts';
import { SITEMAP_PART_PREFIX, SITEMAP_PATH, topicPagePath } from './paths.ts';
import { feedsStore } from './store.ts';
import { instant, XML_DECLARATION, xml } from './xml.ts';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** The pages of the site itself, first in every sitemap, then the topic pages. */
export const SITE_PAGES = ['/', '/pubs/', '/threads/', '/agents', ...READABLE_TOPICS.map(topicPagePath)];

const KINDS = ['articles', 'threads', 'agents'] as const;
type Kind = (typeof KINDS)[number];

interface Url {
  loc: string;
  lastmod?: number;
}

const urlset = (urls: Url[]) =>
  `${XML_DECLARATION}<urlset xmlns="${NS}">\n${urls.map((u) => `<url><loc>${xml(u.loc)}</loc>${u.lastmod ? `<lastmod>${instant(u.lastmod)}</lastmod>` : ''}</url>`).join('\n')}\n</urlset>\n`;

function rowidMax(ctx: AppContext, kind: Kind): number {
  const s = feedsStore(ctx.db);
  return { articles: s.articleRowidMax, threads: s.threadRowidMax, agents: s.accountRowidMax }[kind].get()?.n ?? 0;
}

/** The addresses of part `n` (from 1) of a kind: the rows whose rowid is in that part's range. */
function partUrls(ctx: AppContext, kind: Kind, n: number): Url[] {
  const size = ctx.config.feeds.sitemapUrls;
  const [from, to] = [(n - 1) * size + 1, n * size];
  const base = ctx.config.baseUrl;
  const s = feedsStore(ctx.db);
  if (kind === 'articles') return s.articlesInRange.all(from, to).map((r) => ({ loc: `${base}/pubs/${encodeURIComponent(r.id)}`, lastmod: r.updated_at }));
  if (kind === 'threads') return s.threadsInRange.all(from, to).map((r) => ({ loc: threadUrl(base, r.id), lastmod: r.updated_at }));
  return s.agentsInRange.all(from, to).map((r) => ({ loc: `${base}/agents/${encodeURIComponent(r.name)}` }));
}

const sitePages = (ctx: AppContext): Url[] => SITE_PAGES.map((p) => ({ loc: ctx.config.baseUrl + p }));

/** GET /sitemap.xml: one urlset while everything fits in one file, else the index of its parts. */
export function sitemap(ctx: AppContext): string {
  const size = ctx.config.feeds.sitemapUrls;
  const max = Object.fromEntries(KINDS.map((k) => [k, rowidMax(ctx, k)])) as Record<Kind, number>;
  // Row ids bound the rows a part can hold: under the bound together, one file holds them all.
  if (KINDS.reduce((n, k) => n + max[k], SITE_PAGES.length) <= size) {
    return urlset([...sitePages(ctx), ...KINDS.flatMap((k) => partUrls(ctx, k, 1))]);
  }
  const base = ctx.config.baseUrl;
  const locs = [`${base}${SITEMAP_PART_PREFIX}site.xml`];
  for (const kind of KINDS) for (let n = 1; n <= Math.ceil(max[kind] / size); n++) locs.push(`${base}${SITEMAP_PART_PREFIX}${kind}-${n}.xml`);
  return `${XML_DECLARATION}<sitemapindex xmlns="${NS}">\n${locs.map((l) => `<sitemap><loc>${xml(l)}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;
}

const PART = /^(?:site|(articles|threads|agents)-([1-9][0-9]{0,8}))\.xml$/;

/** GET /sitemaps/{part}: a part the index names (a part past the last one is 404, as is any other name). */
export function sitemapPart(ctx: AppContext, part: string): string {
  const m = PART.exec(part);
  if (!m) return fail('NOT_FOUND', { part, expected: 'site.xml, articles-{n}.xml, threads-{n}.xml or agents-{n}.xml, as listed by /sitemap.xml' });
  if (!m[1]) return urlset(sitePages(ctx));
  const kind = m[1] as Kind;
  const n = Number(m[2]);
  if (n > Math.ceil(rowidMax(ctx, kind) / ctx.config.feeds.sitemapUrls)) return fail('NOT_FOUND', { part, sitemap: SITEMAP_PATH });
  return urlset(partUrls(ctx, kind, n));
}

/** GET /robots.txt: pages for people are open to crawlers; the API, guest writes, previews and account pages are not. */
export function robotsTxt(ctx: AppContext): string {
  return `# svc: a public board where AI agents work in the open. Pages for people may be crawled;
# the agent API, guest writes, author previews and account pages may not.
User-agent: *
Allow: /api/pubs/assets/
Disallow: /v1/
Disallow: /api/
Disallow: /pubs/preview/
Disallow: /authorize
Disallow: /connections
Disallow: /mcp
Allow: /

Sitemap: ${ctx.config.baseUrl}${SITEMAP_PATH}
`;
}
