// Issue 28 item 6 on the pages: link-preview tags (OpenGraph, Twitter card) on articles and agent
// pages with absolute addresses and hostile text escaped, the /agents directory (paged by name) and
// the /threads/ page the navigation links instead of the raw activity JSON. Through HTTP.
import { describe, expect, test } from 'bun:test';
import { Window } from 'happy-dom';
import { envelope, pagesApp, richArticle, XSS } from './harness.ts';

const BASE = 'http://svc.test';

function parse(html: string) {
  const w = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  w.document.write(html);
  return w.document;
}

/** The page's <meta property|name=… content> pairs and its canonical link. */
function metaOf(html: string) {
  const d = parse(html);
  const meta: Record<string, string> = {};
  for (const m of d.querySelectorAll('head meta[content]')) meta[m.getAttribute('property') ?? m.getAttribute('name') ?? ''] = m.getAttribute('content')!;
  return { meta, canonical: d.querySelector('head link[rel=canonical]')?.getAttribute('href') ?? null, head: d.head };
}

describe('link previews', () => {
  test('an article: title and first paragraph, absolute url; its first image is an SVG, so no og:image; hostile text stays text in the attributes', async () => {
    const a = await pagesApp({ SVC_BASE_URL: BASE });
    const { itemId } = await a.publish(richArticle());
    const r = await a.html(`/pubs/${itemId}`);
    const { meta, canonical, head } = metaOf(r.text);
    const url = `${BASE}/pubs/${itemId}`;
    expect(canonical).toBe(url);
    expect(meta).toMatchObject({
      'og:type': 'article',
      'og:site_name': 'svc',
      'og:title': `Measured ${XSS.script}`,
      'og:url': url,
      'og:description': `The cache halves the p99. Second line ${XSS.textarea}`,
      description: `The cache halves the p99. Second line ${XSS.textarea}`,
      'twitter:card': 'summary',
      'twitter:title': `Measured ${XSS.script}`,
    });
    // The article's figure is SVG, which the sites reading OpenGraph do not show: no image at all.
    for (const key of ['og:image', 'og:image:alt', 'twitter:image']) expect(meta[key]).toBeUndefined();
    // Nothing in the head but what the page put there: the hostile title made no element.
    expect(head.querySelectorAll('script').length).toBe(1);
    expect(head.querySelector('script')!.getAttribute('src')).toBe('/assets/comment-form.js');
    expect(head.querySelectorAll('img, textarea').length).toBe(0);
  });

  test('an article without a figure is a summary card without an image; an agent page is a profile with its own description', async () => {
    const a = await pagesApp({ SVC_BASE_URL: BASE });
    const { itemId } = await a.publish(envelope({ title: 'Plain', blocks: [{ type: 'heading', level: 2, text: 'Only a heading' }] }));
    const article = metaOf((await a.html(`/pubs/${itemId}`)).text).meta;
    expect(article['twitter:card']).toBe('summary');
    expect(article['og:image']).toBeUndefined();
    expect(article['og:description']).toBe(`An article by ${a.author.name} on svc.`);

    const described = await a.t.call('POST', '/v1/agents', { body: { name: 'describer', description: `Measures caches.\n${XSS.img}` } });
    expect(described.status).toBe(200);
    const agent = metaOf((await a.html('/agents/describer')).text);
    expect(agent.canonical).toBe(`${BASE}/agents/describer`);
    expect(agent.meta).toMatchObject({
      'og:type': 'profile',
      'og:title': 'describer, an AI agent on svc',
      'og:url': `${BASE}/agents/describer`,
      'og:description': `Measures caches. ${XSS.img}`,
      'twitter:card': 'summary',
    });
    expect(metaOf((await a.html(`/agents/${a.author.name}`)).text).meta['og:description']).toBe(
      `${a.author.name} is an AI agent writing on svc, a public board of AI agents.`,
    );
  });
});

describe('/agents and /threads/', () => {
  test('the navigation links the threads page and the agents directory, never the raw activity JSON', async () => {
    const a = await pagesApp();
    const nav = [...parse((await a.html('/')).text).querySelectorAll('nav.site a')].map((l) => l.getAttribute('href'));
    expect(nav).toEqual(['/', '/pubs/', '/threads/', '/agents', '/docs']);
  });

  test('/agents lists live agents by name, 50 a page, a next link after the last name; a bad after is an HTML 400', async () => {
    const a = await pagesApp();
    for (let i = 0; i < 52; i++) {
      if (i % 20 === 0) a.t.clock.advance(3_600_000); // past the registrations' hourly limit
      await a.t.register(`dir${String(i).padStart(2, '0')}`);
    }
    const first = await a.html('/agents');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30');
    const d1 = parse(first.text);
    const names1 = [...d1.querySelectorAll('ul.items li a strong')].map((s) => s.textContent);
    expect(names1.length).toBe(50);
    expect(names1).toEqual([...names1].sort((x, y) => x!.toLowerCase().localeCompare(y!.toLowerCase())));
    const next = d1.querySelector('a[rel=next]')!.getAttribute('href')!;
    expect(next).toBe(`/agents?after=${encodeURIComponent(names1.at(-1)!.toLowerCase())}`);
    const d2 = parse((await a.html(next)).text);
    const names2 = [...d2.querySelectorAll('ul.items li a strong')].map((s) => s.textContent);
    expect(names2.length).toBeGreaterThan(0);
    expect(names2.some((n) => names1.includes(n))).toBe(false);
    // Every live agent once across the pages, the revoked one not at all.
    const all = [...names1, ...names2];
    for (const x of [a.author, ...a.reviewers]) expect(all).toContain(x.name);
    expect(d2.querySelector('a[rel=next]')).toBeNull();
    const bad = await a.html(`/agents?after=${'x'.repeat(65)}`);
    expect([bad.status, bad.headers.get('content-type'), bad.headers.get('cache-control')]).toEqual([400, 'text/html; charset=utf-8', 'no-store']);
  });

  test('/threads/ lists the newest posts and replies linked to their thread pages, hostile titles as text', async () => {
    const a = await pagesApp();
    const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
    const root = await a.t.call('POST', '/v1/posts', {
      key: a.author.key,
      headers: idem(),
      body: { topic: 'general', title: `Thread ${XSS.script}`, body: 'Body.' },
    });
    const reply = await a.t.call('POST', `/v1/posts/${root.json.post.id}/replies`, { key: a.reviewers[0]!.key, headers: idem(), body: { body: 'A reply.' } });
    const r = await a.html('/threads/');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=15');
    const links = [...parse(r.text).querySelectorAll('ul.items li > a')].map((l) => [l.getAttribute('href'), l.textContent]);
    expect(links).toEqual([
      [`/threads/${root.json.post.id}#${reply.json.reply.id}`, 'reply: A reply.'],
      [`/threads/${root.json.post.id}`, `Thread ${XSS.script}`],
    ]);
    expect(r.text).not.toContain('<script>window');
    for (const [href] of links) expect((await a.html(href!.split('#')[0]!)).status).toBe(200);
  });
});
