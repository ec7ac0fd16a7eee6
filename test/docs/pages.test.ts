// /docs is a table of contents with one page per section and a search box (docs/decisions.md): every
// page reached from the contents is under 150 KB, every internal link resolves to a page holding its
// anchor (old /docs#route anchors included), every guide in docs/ has its page, every error code's
// `docs` URL lands on its row, and the search works as a plain GET form.
import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { docsUrl } from '../../src/http/errors.ts';
import { serviceCodes } from '../../src/compose.ts';
import { operationAnchor, referenceUrl } from '../../src/docs/links.ts';
import { makeApp } from '../helpers.ts';

const CODES = serviceCodes();
const MAX_PAGE_BYTES = 150 * 1024;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
const idsOf = (html: string) => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decode(m[1] ?? '')));
const hrefsOf = (html: string) => [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => decode(m[1] ?? ''));

async function crawl() {
  const t = makeApp();
  const pages = new Map<string, { status: number; bytes: number; html: string; csp: string | null; type: string }>();
  const get = async (path: string) => {
    const known = pages.get(path);
    if (known) return known;
    const res = await t.app.handle(new Request(`http://svc.test${path}`, { headers: { accept: 'text/html' } }));
    const html = await res.text();
    const page = {
      status: res.status,
      bytes: Buffer.byteLength(html),
      html,
      csp: res.headers.get('content-security-policy'),
      type: res.headers.get('content-type') ?? '',
    };
    pages.set(path, page);
    return page;
  };
  // Every /docs page the contents reach, and the pages they link to in turn.
  const queue = ['/docs'];
  const links: { from: string; href: string }[] = [];
  while (queue.length > 0) {
    const path = queue.shift() ?? '';
    if (pages.has(path)) continue;
    const page = await get(path);
    if (!path.startsWith('/docs') || !page.type.startsWith('text/html')) continue;
    for (const href of hrefsOf(page.html)) {
      const url = new URL(href, `http://svc.test${path}`);
      if (url.origin !== 'http://svc.test') continue;
      links.push({ from: path, href: url.pathname + url.search + url.hash });
      if (!pages.has(url.pathname + url.search)) queue.push(url.pathname + url.search);
    }
  }
  return { t, pages, links, get };
}

describe('/docs, one page per section', () => {
  test('every page reached from the contents answers 200 under 150 KB with the pages’ CSP; every internal link lands on a page holding its anchor', async () => {
    const { pages, links, get } = await crawl();
    const docsPages = [...pages].filter(([path, page]) => path.startsWith('/docs') && page.type.startsWith('text/html'));
    // The guides, the errors page, the search and every route of the reference (124 and more).
    expect(docsPages.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const [path, page] of docsPages) {
      if (page.status !== 200) problems.push(`${path}: ${page.status}`);
      if (page.bytes >= MAX_PAGE_BYTES) problems.push(`${path}: ${page.bytes} bytes`);
      if (!page.csp?.includes("default-src 'none'")) problems.push(`${path}: CSP ${page.csp}`);
      if (/<script/i.test(page.html)) problems.push(`${path}: a script`);
    }
    for (const { from, href } of links) {
      const [target = '', anchor] = href.split('#');
      const page = await get(target);
      if (page.status !== 200) problems.push(`${from} → ${href}: ${page.status}`);
      else if (anchor && !idsOf(page.html).has(decodeURIComponent(anchor))) problems.push(`${from} → ${href}: no id="${anchor}" there`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  test('every guide in docs/ has its page, linked from the contents with its title', async () => {
    const { get } = await crawl();
    const contents = await get('/docs');
    const files = readdirSync(join(import.meta.dir, '../../docs')).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const name = file.slice(0, -3);
      const page = await get(`/docs/${name}`);
      expect(page.status, file).toBe(200);
      expect(contents.html, file).toContain(`href="/docs/${name}"`);
      const title = /<h1>(.*?)<\/h1>/.exec(page.html)?.[1]?.replace(/<[^>]*>/g, '');
      expect(title, file).toBeTruthy();
      expect(contents.html, file).toContain(`<strong>${title}</strong>`);
    }
    // A link between guides becomes the other guide's page; a heading keeps GitHub's anchor.
    const operations = await get('/docs/operations');
    expect(operations.html).toContain('id="backup-and-restore"');
    expect(operations.html).toContain('href="#backup-and-restore"');
    expect((await get('/docs/outreach')).html).toContain('href="/docs/lab-pages"');
  }, 60_000);

  test('every error code’s docs URL and every route’s reference URL land on a page holding the anchor; the old /docs#route anchors stay on the contents', async () => {
    const { t, get } = await crawl();
    const problems: string[] = [];
    const errors = await get('/docs/errors');
    for (const code of Object.keys(CODES)) {
      const url = new URL(docsUrl('http://svc.test', code));
      if (url.pathname !== '/docs/errors' || !idsOf(errors.html).has(url.hash.slice(1))) problems.push(`${code}: ${url}`);
    }
    const contents = await get('/docs');
    const spec = (await t.call('GET', '/openapi.json')).json;
    for (const [path, item] of Object.entries<Record<string, unknown>>(spec.paths)) {
      for (const method of Object.keys(item)) {
        const url = new URL(referenceUrl('http://svc.test', method.toUpperCase(), path));
        const page = await get(url.pathname);
        const anchor = operationAnchor(method, path);
        if (page.status !== 200 || !idsOf(page.html).has(anchor)) problems.push(`${method} ${path}: ${url.pathname} (${page.status})`);
        // The contents page keeps the single page's anchor, on an entry linking to the route's page.
        const entry = new RegExp(`<li id="${anchor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"><a href="${url.pathname}">`);
        if (!entry.test(contents.html)) problems.push(`/docs#${anchor}: no entry linking to ${url.pathname}`);
      }
    }
    expect(problems).toEqual([]);
    // A document's own docs link (GET /api/jobs) names its route's page.
    const jobs = await t.call('GET', '/api/jobs', { headers: { accept: 'application/json' } });
    expect(jobs.json.docs).toBe('http://svc.test/docs/api/get-api-jobs');
  }, 60_000);

  test('a page no section has is an HTML 404 pointing to the contents', async () => {
    const { get } = await crawl();
    for (const path of ['/docs/no-such-guide', '/docs/api/get-no-such-route']) {
      const page = await get(path);
      expect(page.status, path).toBe(404);
      expect(page.html, path).toContain('href="/docs"');
    }
  });
});

describe('/docs/search, a GET form that works without JavaScript', () => {
  test('every docs page carries the form; results hold every word and link to anchors that exist', async () => {
    const { get } = await crawl();
    for (const path of ['/docs', '/docs/errors', '/docs/pubs', '/docs/api/post-v1-posts']) {
      expect((await get(path)).html, path).toContain('<form class="docs-search" role="search" method="get" action="/docs/search">');
    }
    const page = await get('/docs/search?q=Idempotency-Key%20replay');
    expect(page.status).toBe(200);
    const results = [...page.html.matchAll(/<li><a href="([^"]*)">/g)].map((m) => decode(m[1] ?? ''));
    expect(results.length).toBeGreaterThan(2);
    for (const href of results) {
      const [target = '', anchor] = href.split('#');
      const found = await get(target);
      expect(found.status, href).toBe(200);
      if (anchor) expect(idsOf(found.html).has(anchor), href).toBe(true);
      const text = found.html.toLowerCase();
      expect(text, href).toContain('idempotency-key');
      expect(text, href).toContain('replay');
    }
    // A section naming the word in its heading comes first: the code itself.
    const code = await get('/docs/search?q=NAME_TAKEN');
    expect(code.html).toMatch(/<ol class="items"><li><a href="\/docs\/errors#NAME_TAKEN">/);
    // The query is shown escaped, kept in the box, and marked in the snippets.
    const hostile = await get(`/docs/search?q=${encodeURIComponent('<script>alert(1)</script> key')}`);
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt; key"');
    expect((await get('/docs/search?q=guide')).html).toContain('<mark>');
  });

  test('no words, no match, a repeated or an overlong query: a page, never an error', async () => {
    const { get } = await crawl();
    expect((await get('/docs/search')).html).toContain('Type words to find');
    expect((await get('/docs/search?q=zzqqxxnothing')).html).toContain('No section holds');
    const repeated = await get('/docs/search?q=quota&q=other&utm_source=x');
    expect(repeated.status).toBe(200);
    expect(repeated.html).toContain('value="quota"');
    const long = await get(`/docs/search?q=${'a'.repeat(500)}`);
    expect(long.status).toBe(200);
    expect(long.html).toContain('Only the first 200 characters');
  });
});
