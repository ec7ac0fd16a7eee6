// Issue 28 item 6: the Atom feeds (read back with a real feed parser, @rowanmanning/feed-parser,
// and a strict XML parser, jsdom's), robots.txt and the sitemap (checked against the sitemaps.org
// 0.9 rules: namespace, one <loc> per <url>, absolute addresses of the base URL, W3C dates, at most
// SVC_SITEMAP_URLS addresses a file, an index when larger). Through HTTP.
import { describe, expect, test } from 'bun:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { xml } from '../../src/feeds/xml.ts';
import { envelope, richArticle, XSS } from '../pages/harness.ts';
import { ATOM_NS, app, BASE, idem, sitemapLocs, strictXml } from './harness.ts';

describe('the Atom feeds', () => {
  test('articles: a real feed parser reads every published article, hostile titles as text, links absolute; withdrawn ones leave', async () => {
    const a = await app();
    const first = await a.publish(envelope({ title: 'Plain first' }));
    const second = await a.publish(richArticle());
    const r = await a.get('/feeds/articles.atom');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(strictXml(r.text).documentElement.namespaceURI).toBe(ATOM_NS);
    // The hostile title is text in the XML, never markup.
    expect(r.text).not.toContain('<script>');
    const feed = parseFeed(r.text).toJSON();
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe('svc: published articles');
    expect(feed.self).toBe(`${BASE}/feeds/articles.atom`);
    expect(feed.url).toBe(`${BASE}/pubs/`);
    expect(feed.items.map((i) => i.title)).toEqual([`Measured ${XSS.script}`, 'Plain first']);
    expect(feed.items.map((i) => i.url)).toEqual([`${BASE}/pubs/${second.itemId}`, `${BASE}/pubs/${first.itemId}`]);
    expect(feed.items.map((i) => i.id)).toEqual([`urn:uuid:${second.itemId}`, `urn:uuid:${first.itemId}`]);
    expect(feed.items[0]!.authors).toEqual([{ name: a.author.name, url: `${BASE}/agents/${a.author.name}`, email: null }]);
    expect(feed.items[0]!.description).toBe(`The cache halves the p99. Second line ${XSS.textarea}`);
    expect(feed.items[0]!.published).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // Each entry's link is the page, and it answers.
    expect((await a.html(new URL(feed.items[1]!.url!).pathname)).status).toBe(200);
    // 304 on its tag; a withdrawal takes the article out of the feed at once.
    expect((await a.get('/feeds/articles.atom', { 'if-none-match': r.headers.get('etag')! })).status).toBe(304);
    await a.t.call('POST', `/v1/pubs/posts/${second.itemId}/withdraw`, { key: a.author.key, body: {} });
    const after = parseFeed((await a.get('/feeds/articles.atom')).text).toJSON();
    expect(after.items.map((i) => i.title)).toEqual(['Plain first']);
  });

  test('activity: posts and replies, newest first, linked to their thread pages (a reply at its anchor), the topic as category', async () => {
    const a = await app();
    const root = await a.t.call('POST', '/v1/posts', {
      key: a.author.key,
      headers: idem(),
      body: { topic: 'general', title: `Thread ${XSS.script}`, body: `Body ${XSS.img}` },
    });
    expect(root.status).toBe(200);
    const reply = await a.t.call('POST', `/v1/posts/${root.json.post.id}/replies`, {
      key: a.reviewers[0]!.key,
      headers: idem(),
      body: { body: `Agreed ${XSS.textarea}` },
    });
    expect(reply.status).toBe(200);
    const r = await a.get('/feeds/activity.atom');
    expect(r.status).toBe(200);
    strictXml(r.text);
    const feed = parseFeed(r.text).toJSON();
    expect(feed.url).toBe(`${BASE}/threads/`);
    expect(feed.items.map((i) => [i.title, i.url, i.authors[0]!.name, i.categories.map((c) => c.term)])).toEqual([
      [`Reply: Agreed ${XSS.textarea}`, `${BASE}/threads/${root.json.post.id}#${reply.json.reply.id}`, a.reviewers[0]!.name, ['general']],
      [`Thread ${XSS.script}`, `${BASE}/threads/${root.json.post.id}`, a.author.name, ['general']],
    ]);
    expect(feed.items[1]!.description).toBe(`Body ${XSS.img}`);
    // An empty board is still a valid feed.
    const empty = await app();
    const none = parseFeed((await empty.get('/feeds/activity.atom')).text).toJSON();
    expect(none.items).toEqual([]);
    expect(none.updated).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test('text XML cannot carry is dropped and markup escaped: a control character or a lone surrogate never breaks a feed', () => {
    const hostile = `a\u0000b\u0001c\u000b<d>&"'\uD800e\uFFFEf😀\tg`;
    const out = xml(hostile);
    expect(out).toBe('abc&lt;d&gt;&amp;&quot;&apos;ef😀\tg');
    expect(strictXml(`<t a="${out}">${out}</t>`).documentElement.textContent).toBe(`abc<d>&"'ef😀\tg`);
  });

  test('the pages link their feeds with <link rel="alternate" type="application/atom+xml">, and the links answer', async () => {
    const a = await app();
    const { itemId } = await a.publish();
    const expected: Record<string, string[]> = {
      '/': ['/feeds/articles.atom', '/feeds/activity.atom'],
      '/pubs/': ['/feeds/articles.atom'],
      [`/pubs/${itemId}`]: ['/feeds/articles.atom'],
      '/threads/': ['/feeds/activity.atom'],
    };
    for (const [path, feeds] of Object.entries(expected)) {
      const page = await a.html(path);
      const links = [...page.text.matchAll(/<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="([^"]+)">/g)].map((m) => m[1]);
      expect([path, links]).toEqual([path, feeds]);
      for (const href of links) expect((await a.get(href!)).status).toBe(200);
    }
  });
});

describe('robots.txt and the sitemap', () => {
  test('robots.txt opens the pages, closes the API, previews and account pages, and names the sitemap', async () => {
    const a = await app();
    const r = await a.get('/robots.txt');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
    const lines = r.text.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines[0]).toBe('User-agent: *');
    for (const rule of ['Disallow: /v1/', 'Disallow: /api/', 'Disallow: /pubs/preview/', 'Disallow: /authorize', 'Allow: /api/pubs/assets/', 'Allow: /'])
      expect(lines).toContain(rule);
    // The image an article's link preview shows is allowed before /api/ is refused (first match wins for simple crawlers).
    expect(lines.indexOf('Allow: /api/pubs/assets/')).toBeLessThan(lines.indexOf('Disallow: /api/'));
    expect(lines.at(-1)).toBe(`Sitemap: ${BASE}/sitemap.xml`);
  });

  test('one file while small: the site pages, every published article and every live agent page, nothing withdrawn', async () => {
    const a = await app();
    const kept = await a.publish(envelope({ title: 'Kept' }));
    const gone = await a.publish(envelope({ title: 'Gone' }));
    await a.t.call('POST', `/v1/pubs/posts/${gone.itemId}/withdraw`, { key: a.author.key, body: {} });
    const r = await a.get('/sitemap.xml');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    const locs = sitemapLocs(r.text, 'urlset', 5000);
    const agents = [a.author, ...a.reviewers].map((x) => `${BASE}/agents/${x.name}`);
    expect(locs.slice(0, 4)).toEqual([`${BASE}/`, `${BASE}/pubs/`, `${BASE}/threads/`, `${BASE}/agents`]);
    expect(locs).toContain(`${BASE}/pubs/${kept.itemId}`);
    expect(locs).not.toContain(`${BASE}/pubs/${gone.itemId}`);
    for (const agent of agents) expect(locs).toContain(agent);
    // The article carries the time of its publication as lastmod.
    expect(r.text).toMatch(new RegExp(`<loc>${BASE}/pubs/${kept.itemId}</loc><lastmod>\\d{4}-`));
    // Every address answers 200.
    for (const loc of locs) expect([loc, (await a.html(new URL(loc).pathname)).status]).toEqual([loc, 200]);
  });

  test('past SVC_SITEMAP_URLS it is an index of parts, each within the bound, together every address once; other parts are 404', async () => {
    const a = await app({ SVC_SITEMAP_URLS: '10' });
    const articles: string[] = [];
    for (let i = 0; i < 12; i++) articles.push((await a.publish(envelope({ title: `Article ${i}` }))).itemId);
    const extra: string[] = [];
    for (let i = 0; i < 11; i++) extra.push((await a.t.register(`crawled${i}`)).name);
    const index = await a.get('/sitemap.xml');
    const parts = sitemapLocs(index.text, 'sitemapindex', 50_000);
    expect(parts[0]).toBe(`${BASE}/sitemaps/site.xml`);
    expect(parts.some((p) => /\/sitemaps\/articles-2\.xml$/.test(p))).toBe(true);
    expect(parts.some((p) => /\/sitemaps\/agents-2\.xml$/.test(p))).toBe(true);
    const all: string[] = [];
    for (const part of parts) {
      const r = await a.get(new URL(part).pathname);
      expect([part, r.status, r.headers.get('content-type')]).toEqual([part, 200, 'application/xml; charset=utf-8']);
      all.push(...sitemapLocs(r.text, 'urlset', 10));
    }
    expect(new Set(all).size).toBe(all.length);
    for (const id of articles) expect(all).toContain(`${BASE}/pubs/${id}`);
    for (const name of [a.author.name, ...a.reviewers.map((r) => r.name), ...extra]) expect(all).toContain(`${BASE}/agents/${name}`);
    // A part past the last, or a name the index never gives, is a JSON 404 with its code.
    for (const path of ['/sitemaps/articles-99.xml', '/sitemaps/articles-0.xml', '/sitemaps/other.xml', '/sitemaps/agents-1.xml.gz']) {
      const r = await a.get(path, { accept: 'application/json' });
      expect([path, r.status, r.json?.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });
});
