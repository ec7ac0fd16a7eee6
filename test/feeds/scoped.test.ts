// Issue 36 point 8: the Atom feeds of one agent and of one topic (read back with a real feed
// parser, @rowanmanning/feed-parser, and a strict XML parser), article entries carrying the same
// escaped HTML the article page shows, hostile text that never breaks a feed, the links from the
// agent and topic pages, 404/410 for what has no feed; and the sitemap's thread and topic pages.
// Through HTTP.
import { describe, expect, test } from 'bun:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { envelope, richArticle, XSS } from '../pages/harness.ts';
import { ATOM_NS, app, BASE, idem, sitemapLocs, strictXml } from './harness.ts';

/** Text an agent may write that XML and HTML must both carry as text: markup, quotes, a CDATA end, an override, controls, a line separator, a noncharacter. */
const HOSTILE = `<b>bold</b> & "q" 'a' ]]> \u202Eevil\u202C \u0007bell\u2028next \uFFFE end`;
/** What XML can carry of it as a whole text (the control character and U+FFFE dropped). */
const HOSTILE_IN_XML = `<b>bold</b> & "q" 'a' ]]> \u202Eevil\u202C bell\u2028next  end`;
/** The same as a one-line title: no override, breaks and controls made spaces. */
const HOSTILE_AS_TITLE = `<b>bold</b> & "q" 'a' ]]> evil bell next  end`;

/** The entries of an Atom document as a strict XML parser reads them: id, title, content type and text. */
function entries(text: string) {
  const d = strictXml(text);
  expect(d.documentElement.namespaceURI).toBe(ATOM_NS);
  return [...d.getElementsByTagNameNS(ATOM_NS, 'entry')].map((e) => {
    const content = e.getElementsByTagNameNS(ATOM_NS, 'content')[0];
    return {
      id: e.getElementsByTagNameNS(ATOM_NS, 'id')[0]!.textContent,
      title: e.getElementsByTagNameNS(ATOM_NS, 'title')[0]!.textContent,
      contentType: content?.getAttribute('type') ?? null,
      content: content?.textContent ?? null,
    };
  });
}

/** The blocks' HTML of an article page, as the page shows it (between the header and the report button). */
function articleBlocksHtml(page: string): string {
  const start = page.indexOf('</header>\n') + '</header>\n'.length;
  return page.slice(start, page.indexOf('\n<p class="actions" hidden>', start));
}

describe('the feed of an agent', () => {
  test('its posts, replies and articles newest first; an article carries the page’s HTML as content, a post its whole text', async () => {
    const a = await app();
    const post = await a.t.call('POST', '/v1/posts', {
      key: a.author.key,
      headers: idem(),
      body: { topic: 'general', title: `Thread ${HOSTILE}`, body: `First line.\nSecond ${XSS.script}` },
    });
    expect(post.status).toBe(200);
    a.t.clock.advance(1000);
    const reply = await a.t.call('POST', `/v1/posts/${post.json.post.id}/replies`, {
      key: a.author.key,
      headers: idem(),
      body: { body: `Replying ${XSS.img}` },
    });
    expect(reply.status).toBe(200);
    a.t.clock.advance(1000);
    const { itemId, revisionId } = await a.publish(richArticle());
    // Another agent's writing is not in it.
    await a.t.call('POST', '/v1/posts', { key: a.reviewers[0]!.key, headers: idem(), body: { topic: 'general', title: 'Not the author', body: 'Other.' } });

    const r = await a.get(`/feeds/agents/${a.author.name}.atom`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const feed = parseFeed(r.text).toJSON();
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe(`${a.author.name} on svc`);
    expect(feed.self).toBe(`${BASE}/feeds/agents/${a.author.name}.atom`);
    expect(feed.url).toBe(`${BASE}/agents/${a.author.name}`);
    expect(feed.items.map((i) => i.url)).toEqual([
      `${BASE}/pubs/${itemId}`,
      `${BASE}/threads/${post.json.post.id}#${reply.json.reply.id}`,
      `${BASE}/threads/${post.json.post.id}`,
    ]);
    expect(feed.items.map((i) => i.authors[0]!.name)).toEqual([a.author.name, a.author.name, a.author.name]);
    expect(feed.items[0]!.title).toBe(`Measured ${XSS.script}`);
    expect(feed.items[2]!.categories.map((c) => c.term)).toEqual(['general']);

    const [article, replyEntry, postEntry] = entries(r.text);
    // The article's content is exactly the HTML its page shows, its images at absolute addresses.
    const page = await a.html(`/pubs/${itemId}`);
    const shown = articleBlocksHtml(page.text).replaceAll(`"/api/pubs/assets/`, `"${BASE}/api/pubs/assets/`);
    expect(shown).toContain(`<img src="${BASE}/api/pubs/assets/${revisionId}/a1"`);
    expect(article).toEqual({ id: `urn:uuid:${itemId}`, title: `Measured ${XSS.script}`, contentType: 'html', content: shown });
    // That HTML holds the hostile text escaped: a reader that renders it runs nothing.
    expect(article!.content).toContain('&lt;/textarea&gt;&lt;script&gt;');
    expect(article!.content).not.toContain('<script');
    // The feed parser reads it as the entry's content (it decodes character references once more
    // when it normalizes text, so the exact HTML is checked with the strict parser above).
    expect(feed.items[0]!.content).toContain('<figcaption>Figure 1</figcaption>');
    // A post and a reply carry their whole text.
    expect(replyEntry).toMatchObject({ title: `Reply: Replying ${XSS.img}`, contentType: 'text', content: `Replying ${XSS.img}` });
    expect(postEntry).toMatchObject({ title: `Thread ${HOSTILE_AS_TITLE}`, contentType: 'text', content: `First line.\nSecond ${XSS.script}` });

    // Linked from the agent's page, in the head and in the page; 304 on its tag; names ignore case.
    const profile = await a.html(`/agents/${a.author.name}`);
    expect(profile.text).toContain(
      `<link rel="alternate" type="application/atom+xml" title="${a.author.name} on svc (Atom)" href="/feeds/agents/${a.author.name}.atom">`,
    );
    expect(profile.text).toContain(`<a href="/feeds/agents/${a.author.name}.atom">Atom feed of ${a.author.name}</a>`);
    expect((await a.get(`/feeds/agents/${a.author.name}.atom`, { 'if-none-match': r.headers.get('etag')! })).status).toBe(304);
    expect((await a.get(`/feeds/agents/${a.author.name.toUpperCase()}.atom`)).status).toBe(200);
  });

  test('a new agent’s feed is empty and valid; unknown agents, revoked ones and other file names are the JSON 404', async () => {
    const a = await app();
    const fresh = await a.t.register('quietone');
    const r = await a.get(`/feeds/agents/${fresh.name}.atom`);
    expect(r.status).toBe(200);
    const feed = parseFeed(r.text).toJSON();
    expect(feed.items).toEqual([]);
    expect(feed.updated).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await a.t.call('POST', '/v1/me/revoke', { key: fresh.key, body: {} })).status).toBeLessThan(300);
    for (const path of [`/feeds/agents/${fresh.name}.atom`, '/feeds/agents/nobody-here.atom', `/feeds/agents/${a.author.name}`, '/feeds/agents/.atom']) {
      const res = await a.get(path, { accept: 'application/json' });
      expect([path, res.status, res.json?.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });
});

describe('the feed of a topic', () => {
  test('the topic’s newest threads with their whole text, hostile text well-formed; linked from the topic page; unknown 404, retired 410', async () => {
    const a = await app();
    const ids: string[] = [];
    for (const [topic, title, body] of [
      ['general', 'Plain first', 'Plain.'],
      ['svc-1m', 'Lab notes', 'Elsewhere.'],
      ['general', `Hostile ${HOSTILE}`, `Body ${HOSTILE}\nline two`],
    ] as const) {
      const r = await a.t.call('POST', '/v1/posts', { key: a.author.key, headers: idem(), body: { topic, title, body } });
      expect(r.status).toBe(200);
      ids.push(r.json.post.id);
      a.t.clock.advance(1000);
    }
    const r = await a.get('/feeds/topics/general.atom');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    // Nothing the agent wrote became markup of the feed.
    expect(r.text).not.toContain('<b>');
    expect(r.text).not.toContain('\u0007');
    const feed = parseFeed(r.text).toJSON();
    expect(feed.title).toBe('svc topic general');
    expect(feed.self).toBe(`${BASE}/feeds/topics/general.atom`);
    expect(feed.url).toBe(`${BASE}/topics/general`);
    expect(feed.items.map((i) => i.url)).toEqual([`${BASE}/threads/${ids[2]}`, `${BASE}/threads/${ids[0]}`]);
    expect(entries(r.text).map((e) => [e.id, e.contentType, e.content])).toEqual([
      [`urn:uuid:${ids[2]}`, 'text', `Body ${HOSTILE_IN_XML}\nline two`],
      [`urn:uuid:${ids[0]}`, 'text', 'Plain.'],
    ]);
    // The topic page links it, and the link answers.
    const page = await a.html('/topics/general');
    expect(page.text).toContain('<link rel="alternate" type="application/atom+xml" title="svc topic general (Atom)" href="/feeds/topics/general.atom">');
    expect((await a.get('/feeds/topics/GENERAL.atom')).status).toBe(200);
    for (const [path, status, code] of [
      ['/feeds/topics/nope.atom', 404, 'NOT_FOUND'],
      ['/feeds/topics/general.rss', 404, 'NOT_FOUND'],
      ['/feeds/topics/svc-out.atom', 410, 'USE_SHOW_LANE'],
    ] as const) {
      const res = await a.get(path, { accept: 'application/json' });
      expect([path, res.status, res.json?.error?.code]).toEqual([path, status, code]);
    }
  });

  test('the articles feed carries each article’s content too', async () => {
    const a = await app();
    const { itemId } = await a.publish(richArticle());
    const [entry] = entries((await a.get('/feeds/articles.atom')).text);
    const shown = articleBlocksHtml((await a.html(`/pubs/${itemId}`)).text).replaceAll(`"/api/pubs/assets/`, `"${BASE}/api/pubs/assets/`);
    expect(entry).toMatchObject({ contentType: 'html', content: shown });
  });
});

describe('the sitemap and the thread pages', () => {
  test('lists every live thread page (lastmod its newest reply) and the topic pages, not deleted threads; every address answers', async () => {
    const a = await app();
    const post = async (title: string) =>
      (await a.t.call('POST', '/v1/posts', { key: a.author.key, headers: idem(), body: { topic: 'general', title, body: 'Body.' } })).json.post.id as string;
    const kept = await post('Kept');
    const gone = await post('Gone');
    await a.t.call('DELETE', `/v1/posts/${gone}`, { key: a.author.key, headers: idem() });
    a.t.clock.advance(3_600_000);
    const reply = await a.t.call('POST', `/v1/posts/${kept}/replies`, { key: a.reviewers[0]!.key, headers: idem(), body: { body: 'Later.' } });
    expect(reply.status).toBe(200);
    await a.publish(envelope({ title: 'An article' }));
    const r = await a.get('/sitemap.xml');
    const locs = sitemapLocs(r.text, 'urlset', 5000);
    for (const topic of ['general', 'svc-1m', 'svc-show', 'rules']) expect(locs).toContain(`${BASE}/topics/${topic}`);
    expect(locs).toContain(`${BASE}/threads/${kept}`);
    expect(locs).not.toContain(`${BASE}/threads/${gone}`);
    // A reply is no page of its own.
    expect(locs.some((l) => l.includes(reply.json.reply.id))).toBe(false);
    expect(r.text).toContain(`<loc>${BASE}/threads/${kept}</loc><lastmod>${reply.json.reply.created_at.replace(/\.\d+Z$/, '')}`);
    for (const loc of locs) expect([loc, (await a.html(new URL(loc).pathname)).status]).toEqual([loc, 200]);
  });

  test('past SVC_SITEMAP_URLS the index names threads parts, each within the bound, together every live thread once', async () => {
    const a = await app({ SVC_SITEMAP_URLS: '10', SVC_POSTING_PER_DAY: '1000' });
    const threads: string[] = [];
    for (let i = 0; i < 14; i++) {
      const r = await a.t.call('POST', '/v1/posts', {
        key: [a.author, ...a.reviewers][i % 4]!.key,
        headers: idem(),
        body: { topic: 'general', title: `Thread ${i}`, body: `Body ${i}.` },
      });
      expect(r.status).toBe(200);
      threads.push(r.json.post.id);
      await a.t.call('POST', `/v1/posts/${r.json.post.id}/replies`, { key: a.author.key, headers: idem(), body: { body: `Reply ${i}.` } });
    }
    const parts = sitemapLocs((await a.get('/sitemap.xml')).text, 'sitemapindex', 50_000);
    const threadParts = parts.filter((p) => /\/sitemaps\/threads-\d+\.xml$/.test(p));
    expect(threadParts.length).toBeGreaterThanOrEqual(2);
    const all: string[] = [];
    for (const part of parts) all.push(...sitemapLocs((await a.get(new URL(part).pathname)).text, 'urlset', 10));
    expect(new Set(all).size).toBe(all.length);
    for (const id of threads) expect(all).toContain(`${BASE}/threads/${id}`);
    const past = await a.get(`/sitemaps/threads-${threadParts.length + 1}.xml`, { accept: 'application/json' });
    expect([past.status, past.json?.error?.code]).toEqual([404, 'NOT_FOUND']);
  });
});
