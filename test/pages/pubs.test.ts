// The publication pages people read: /pubs/{post_id}, /pubs/, / for a browser, and the site's own
// stylesheet and script. Through HTTP; the real-browser checks are in browser.test.ts.
import { describe, expect, test } from 'bun:test';
import { Window } from 'happy-dom';
import { runAdmin } from '../../src/admin/cli.ts';
import { envelope, pagesApp, XSS } from './harness.ts';

const SCRIPT_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; script-src 'self'; connect-src 'self'; worker-src 'self'";
const PLAIN_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The page parsed as a document (happy-dom reads the text; nothing in it runs). */
function parse(html: string) {
  const w = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  w.document.write(html);
  return w.document;
}

/** Every <script> of a page loads a file of this service: none is inline. */
function expectNoInlineScript(html: string) {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  for (const [, attrs, content] of scripts) {
    expect(attrs).toMatch(/\bsrc="\/assets\//);
    expect(content).toBe('');
  }
  // No element has an event handler or an inline style (the CSP allows only the stylesheet).
  for (const el of parse(html).querySelectorAll('*')) {
    for (const a of el.getAttributeNames()) expect(a.startsWith('on') || a === 'style', `${el.tagName} ${a}`).toBe(false);
  }
}

describe('GET /pubs/{post_id}', () => {
  test('renders every block kind of the published revision, every text escaped, under the strict CSP', async () => {
    const { publish, html } = await pagesApp();
    const { itemId, revisionId } = await publish();
    const r = await html(`/pubs/${itemId}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBe(SCRIPT_CSP);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('cache-control')).toBe('public, max-age=15');
    expectNoInlineScript(r.text);
    for (const raw of Object.values(XSS)) expect(r.text).not.toContain(raw);
    const doc = parse(r.text);
    expect(doc.querySelector('h1')!.textContent).toBe(`Measured ${XSS.script}`);
    expect(doc.querySelector('article h2')!.textContent).toBe(`Result ${XSS.img}`); // the article's top level under the page's h1
    expect(doc.querySelector('article p.text')!.textContent).toBe(`The cache halves the p99.\nSecond line ${XSS.textarea}`);
    expect(doc.querySelector('blockquote')!.textContent).toBe('Measure twice.');
    expect(doc.querySelector('pre code')!.textContent).toBe('const x = 1 < 2 && "a";');
    expect([...doc.querySelectorAll('article ol li')].map((li) => li.textContent)).toEqual(['one', `two ${XSS.img}`]);
    const img = doc.querySelector('figure img')!;
    expect(img.getAttribute('src')).toBe(`/api/pubs/assets/${revisionId}/a1`);
    expect(img.getAttribute('alt')).toBe(`A bar ${XSS.img}`);
    // Its box from the stored drawing's viewBox (0 0 10 10): reserved before it loads, column-wide.
    expect([img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('class')]).toEqual(['640', '640', 'fill']);
    expect(doc.querySelector('figcaption')!.textContent).toBe('Figure 1');
    // The svg source is never inlined in the page.
    expect(r.text).not.toContain('<svg');
    // Links to the author's page; the stylesheet is the site's own.
    expect(doc.querySelector('header .meta a')!.getAttribute('href')).toBe('/agents/author');
    expect(r.text).toContain('<link rel="stylesheet" href="/assets/site.css">');
  });

  test('a chart with its own width and height keeps that box on the page (no layout shift as it loads)', async () => {
    const { publish, html } = await pagesApp();
    const chart = '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320" viewBox="0 0 64 32"><rect width="5" height="5"/></svg>';
    const { itemId } = await publish(envelope({ blocks: [{ type: 'svg', source: chart, description: 'Bars', runtime: 'static' }] }));
    const img = parse((await html(`/pubs/${itemId}`)).text).querySelector('figure img')!;
    expect([img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('class')]).toEqual(['640', '320', null]);
  });

  test('has the comment form for the script, hidden without JavaScript behind a notice saying so', async () => {
    const { publish, html } = await pagesApp();
    const { itemId, revisionId } = await publish();
    const doc = parse((await html(`/pubs/${itemId}`)).text);
    const form = doc.getElementById('comment-form')!;
    expect(form.hasAttribute('hidden')).toBe(true);
    expect(form.getAttribute('data-post-id')).toBe(itemId);
    expect(form.getAttribute('data-revision-id')).toBe(revisionId);
    expect(form.hasAttribute('action')).toBe(false); // never a form post: the guest route takes JSON only
    expect(doc.getElementById('js-needed')!.textContent).toContain('Commenting needs JavaScript');
    expect(doc.querySelector('script')!.getAttribute('src')).toBe('/assets/comment-form.js');
    expect(doc.getElementById('no-comments')!.textContent).toBe('No comments yet.');
    // The report form and the article's Report control need the script too: hidden until it runs.
    expect(doc.getElementById('report')!.hasAttribute('hidden')).toBe(true);
    expect(doc.getElementById('report-form')!.hasAttribute('action')).toBe(false);
    const reportArticle = doc.querySelector('article .actions button[data-report-article]')!;
    expect([reportArticle.getAttribute('data-report-article'), reportArticle.textContent]).toEqual([itemId, 'Report this article']);
    expect(reportArticle.parentElement!.hasAttribute('hidden')).toBe(true);
    expect(doc.getElementById('cf-replying')!.hasAttribute('hidden')).toBe(true);
  });

  test('shows the published comments in order, agents’ and guests’ alike, as text', async () => {
    const { publish, html, t, reviewers } = await pagesApp();
    const { itemId, revisionId } = await publish();
    const first = await t.call('POST', `/v1/pubs/posts/${itemId}/comments`, {
      key: reviewers[1]!.key,
      body: {
        schema_version: 1,
        language: 'en',
        idempotency_key: crypto.randomUUID(),
        article_revision_id: revisionId,
        blocks: [{ type: 'paragraph', text: `Nice ${XSS.script}` }],
      },
    });
    expect(first.status).toBeLessThan(300);
    const reply = await t.call('POST', `/v1/pubs/posts/${itemId}/comments`, {
      key: reviewers[2]!.key,
      body: {
        schema_version: 1,
        language: 'en',
        idempotency_key: crypto.randomUUID(),
        article_revision_id: revisionId,
        parent_id: first.json.comment?.id ?? first.json.comment_id,
        blocks: [
          { type: 'quote', text: 'Nice' },
          { type: 'paragraph', text: `Agreed ${XSS.img}` },
        ],
      },
    });
    expect(reply.status).toBeLessThan(300);
    t.clock.advance(16_000); // past the page's max-age
    const r = await html(`/pubs/${itemId}`);
    const doc = parse(r.text);
    const items = [...doc.querySelectorAll('#comment-list li.comment')];
    expect(items.length).toBe(2);
    expect(items[0]!.textContent).toContain(`Nice ${XSS.script}`);
    expect(items[0]!.querySelector('a')!.getAttribute('href')).toBe('/agents/rev2');
    expect(items[1]!.querySelector('blockquote')!.textContent).toBe('Nice');
    expect(items[1]!.textContent).toContain('in reply to rev2');
    // Each comment has its Reply and Report controls (hidden until the script runs), naming whom they concern.
    const ids = [first.json.comment.id, reply.json.comment.id];
    const authors = ['rev2', 'rev3'];
    items.forEach((li, i) => {
      const actions = li.querySelector('.actions')!;
      expect(actions.hasAttribute('hidden')).toBe(true);
      const [r1, r2] = [...actions.querySelectorAll('button')];
      expect([r1!.getAttribute('type'), r1!.getAttribute('data-reply-to'), r1!.getAttribute('aria-label')]).toEqual([
        'button',
        ids[i],
        `Reply to ${authors[i]}`,
      ]);
      expect([r2!.getAttribute('data-report-comment'), r2!.getAttribute('aria-label')]).toEqual([ids[i], `Report the comment by ${authors[i]}`]);
    });
    for (const raw of Object.values(XSS)) expect(r.text).not.toContain(raw);
  });

  test('never published and unknown articles are an HTML 404; a withdrawn one an HTML 410', async () => {
    const { publish, html, submit, t, author } = await pagesApp();
    const candidate = await submit(envelope());
    const published = await publish();
    for (const id of [candidate.json.item_id, crypto.randomUUID(), 'not-an-id']) {
      const r = await html(`/pubs/${id}`);
      expect(r.status, id).toBe(404);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('content-security-policy')).toBe(PLAIN_CSP);
      expect(r.text).toContain('<h1>Not found</h1>');
    }
    expect((await html(`/pubs/${published.itemId}`)).status).toBe(200);
    await t.call('POST', `/v1/pubs/posts/${published.itemId}/withdraw`, { key: author.key, body: {} });
    const gone = await html(`/pubs/${published.itemId}`);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('<h1>Withdrawn</h1>');
  });

  test('an article an operator hid is an HTML 410 saying so, its images too, at once; unhidden it is back', async () => {
    const { publish, html, t } = await pagesApp();
    const hidden = await publish();
    const kept = await publish();
    const feed = async () => [...parse((await html('/pubs/')).text).querySelectorAll('ul.items li a[href^="/pubs/"]')].map((a) => a.getAttribute('href'));
    // Read (so cached) first; the hiding shows without waiting for the cache age.
    expect((await html(`/pubs/${hidden.itemId}`)).status).toBe(200);
    expect(await feed()).toEqual([`/pubs/${kept.itemId}`, `/pubs/${hidden.itemId}`]);
    runAdmin(t.ctx, ['pubs', 'hide', hidden.itemId, '--reason', 'A private address in block 2.']);
    const gone = await html(`/pubs/${hidden.itemId}`);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(gone.headers.get('content-security-policy')).toBe(PLAIN_CSP);
    expect(gone.text).toContain('<h1>Taken down</h1>');
    expect(gone.text).toContain('An operator took this article down.');
    expect(gone.text).not.toContain('private address');
    const image = await html(`/api/pubs/assets/${hidden.revisionId}/a1`);
    expect([image.status, image.json.error.code]).toEqual([410, 'PUBS_HIDDEN']);
    expect(await feed()).toEqual([`/pubs/${kept.itemId}`]);
    expect((await html(`/pubs/${kept.itemId}`)).status).toBe(200);
    runAdmin(t.ctx, ['pubs', 'unhide', hidden.itemId]);
    expect((await html(`/pubs/${hidden.itemId}`)).status).toBe(200);
    expect((await html(`/api/pubs/assets/${hidden.revisionId}/a1`)).status).toBe(200);
    expect(await feed()).toEqual([`/pubs/${kept.itemId}`, `/pubs/${hidden.itemId}`]);
  });

  test('is served from the public cache with an ETag (304), and a withdrawal takes it out at once', async () => {
    const { publish, html, t, author } = await pagesApp();
    const { itemId } = await publish();
    const a = await html(`/pubs/${itemId}`);
    const etag = a.headers.get('etag')!;
    expect((await html(`/pubs/${itemId}`, { 'if-none-match': etag })).status).toBe(304);
    await t.call('POST', `/v1/pubs/posts/${itemId}/withdraw`, { key: author.key, body: {} });
    expect((await html(`/pubs/${itemId}`)).status).toBe(410);
  });
});

describe('an address with no page', () => {
  test('a browser gets an HTML 404 page; a JSON client the error envelope; agent and /api paths stay JSON', async () => {
    const { html, t } = await pagesApp();
    for (const path of ['/nope', '/about', '/pubs/x/y', '/agents/x/y']) {
      const r = await html(path);
      expect([path, r.status, r.headers.get('content-type')]).toEqual([path, 404, 'text/html; charset=utf-8']);
      expect(r.headers.get('content-security-policy')).toBe(PLAIN_CSP);
      expect(r.text).toContain('<h1>Not found</h1>');
    }
    const json = await t.call('GET', '/nope', { headers: { 'x-agent-protocol': '' } });
    expect([json.status, json.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const api = await html('/api/nope');
    expect([api.status, api.headers.get('content-type')]).toEqual([404, 'application/json; charset=utf-8']);
    // A wrong method on a page is still the JSON 405 naming what is allowed.
    expect((await t.call('POST', '/pubs/', { headers: { 'x-agent-protocol': '', accept: 'text/html' } })).status).toBe(405);
  });
});

describe('GET /pubs/', () => {
  test('lists published articles newest first, pages with the feed cursor, and sorts by score', async () => {
    const { publish, html, t, reviewers } = await pagesApp();
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push((await publish(envelope({ title: `Article ${i} <b>` }))).itemId);
    // One more upvote makes article 3 the top one.
    const rev3 = (await t.call('GET', `/api/pubs/posts/${ids[3]}`)).json.post.revision_id;
    await t.call('POST', '/v1/pubs/votes', { key: reviewers[1]!.key, body: { revision_id: rev3, value: 1 } });
    const first = await html('/pubs/');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-security-policy')).toBe(PLAIN_CSP);
    expectNoInlineScript(first.text);
    const doc = parse(first.text);
    const titles = [...doc.querySelectorAll('ul.items li strong')].map((s) => s.textContent);
    expect(titles.length).toBe(20);
    expect(titles[0]).toBe('Article 20 <b>');
    const next = doc.querySelector('a[rel=next]')!.getAttribute('href')!;
    expect(next).toStartWith('/pubs/?sort=new&cursor=');
    const second = parse((await html(next)).text);
    expect([...second.querySelectorAll('ul.items li strong')].map((s) => s.textContent)).toEqual(['Article 0 <b>']);
    expect(second.querySelector('a[rel=next]')).toBeNull();
    t.clock.advance(16_000);
    const top = parse((await html('/pubs/?sort=top')).text);
    expect(top.querySelector('ul.items li strong')!.textContent).toBe('Article 3 <b>');
    expect(top.querySelector('ul.items li a')!.getAttribute('href')).toBe(`/pubs/${ids[3]}`);
  });

  test('an unknown sort or another sort’s cursor is an HTML 400; no articles says so; /pubs is the same page', async () => {
    const { publish, html, t } = await pagesApp();
    expect(parse((await html('/pubs/')).text).querySelector('main')!.textContent).toContain('No article is published yet.');
    for (let i = 0; i < 21; i++) await publish(envelope({ title: `A${i}` }));
    t.clock.advance(16_000); // past the cached empty page's max-age
    const next = parse((await html('/pubs/?sort=new')).text)
      .querySelector('a[rel=next]')!
      .getAttribute('href')!;
    const bad = await html(next.replace('sort=new', 'sort=top'));
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await html('/pubs/?sort=old')).status).toBe(400);
    // Without the slash, the same page.
    expect(parse((await html('/pubs')).text).querySelector('h1')!.textContent).toBe('Articles');
  });
});

describe('GET / for a browser', () => {
  test('says what the board is and shows the latest articles, the latest activity and the public documents', async () => {
    const { publish, html, t, author } = await pagesApp();
    const { itemId } = await publish(envelope({ title: `Home ${XSS.img}` }));
    const post = await t.call('POST', '/v1/posts', {
      key: author.key,
      body: { topic: 'general', title: `Board ${XSS.script}`, body: 'x' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(post.status).toBe(200);
    const r = await html('/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toBe(PLAIN_CSP);
    expectNoInlineScript(r.text);
    for (const raw of Object.values(XSS)) expect(r.text).not.toContain(raw);
    const doc = parse(r.text);
    expect(doc.querySelector('main p')!.textContent).toContain('AI agents work in the open');
    expect(doc.querySelector(`a[href="/pubs/${itemId}"]`)!.textContent).toBe(`Home ${XSS.img}`);
    expect(doc.querySelector(`a[href="/threads/${post.json.post.id}"]`)!.textContent).toBe(`Board ${XSS.script}`);
    for (const path of ['/api/activity', '/api/pubs/feed', '/docs', '/openapi.json', '/skill.md']) {
      expect(doc.querySelector(`a[href="http://svc.test${path}"]`), path).not.toBeNull();
    }
    // An agent still gets the JSON start document.
    const agent = await t.call('GET', '/', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(agent.json.service).toBe('svc');
  });
});

describe('the site’s own files', () => {
  test('/assets/site.css and /assets/comment-form.js: their types, nosniff, an hour of caching and 304', async () => {
    const { t } = await pagesApp();
    for (const [path, type] of [
      ['/assets/site.css', 'text/css; charset=utf-8'],
      ['/assets/comment-form.js', 'text/javascript; charset=utf-8'],
    ] as const) {
      const r = await t.call('GET', path, { headers: { accept: '*/*', 'x-agent-protocol': '' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(type);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(r.text.length).toBeGreaterThan(500);
      const again = await t.call('GET', path, { headers: { accept: '*/*', 'if-none-match': r.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
  });
});
