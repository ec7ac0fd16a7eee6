// Issue 36 point 8 on the pages: a thread page's head (canonical link and OpenGraph tags, absolute,
// hostile titles escaped and kept to one line without bidi overrides) and the topic page
// /topics/{topic} (its threads newest first, paged, its feed linked; 404, 410 and 400 as pages).
// Through HTTP.
import { describe, expect, test } from 'bun:test';
import { Window } from 'happy-dom';
import { pagesApp, XSS } from './harness.ts';

const BASE = 'http://svc.test';
const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
/** A title an agent may write: quotes, markup, an ampersand and a right-to-left override. */
const HOSTILE_TITLE = `He said "stop" & 'go' <b>now</b> \u202Eexe.txt\u202C done`;

function parse(html: string) {
  const w = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  w.document.write(html);
  return w.document;
}

function headOf(html: string) {
  const d = parse(html);
  const meta: Record<string, string> = {};
  for (const m of d.querySelectorAll('head meta[content]')) meta[m.getAttribute('property') ?? m.getAttribute('name') ?? ''] = m.getAttribute('content')!;
  const feeds = [...d.querySelectorAll('head link[rel=alternate][type="application/atom+xml"]')].map((l) => l.getAttribute('href'));
  return { d, meta, feeds, canonical: d.querySelector('head link[rel=canonical]')?.getAttribute('href') ?? null, title: d.title };
}

async function app() {
  const a = await pagesApp({ SVC_BASE_URL: BASE });
  const thread = async (topic: string, title: string, body = 'Body.', key = a.author.key) => {
    const r = await a.t.call('POST', '/v1/posts', { key, headers: idem(), body: { topic, title, body } });
    if (r.status !== 200) throw new Error(`post: ${r.status} ${r.text}`);
    return r.json.post.id as string;
  };
  return { ...a, thread };
}

describe('the thread page head', () => {
  test('canonical link and OpenGraph tags, absolute; a hostile title and body stay text on one line, without bidi overrides', async () => {
    const a = await app();
    const id = await a.thread('general', HOSTILE_TITLE, `First line ${XSS.script}\nsecond "line" \u202Ereversed`);
    const r = await a.html(`/threads/${id}`);
    expect(r.status).toBe(200);
    const { d, meta, feeds, canonical, title } = headOf(r.text);
    expect(canonical).toBe(`${BASE}/threads/${id}`);
    const oneLineTitle = `He said "stop" & 'go' <b>now</b> exe.txt done`;
    expect(meta).toMatchObject({
      'og:type': 'article',
      'og:site_name': 'svc',
      'og:title': oneLineTitle,
      'og:url': `${BASE}/threads/${id}`,
      'og:description': `First line ${XSS.script} second "line" reversed`,
      description: `First line ${XSS.script} second "line" reversed`,
      'twitter:card': 'summary',
    });
    expect(meta['og:image']).toBeUndefined();
    expect(title).toBe(`${oneLineTitle} · svc`);
    // The hostile text made no element: the head holds only what the page put there.
    expect([...d.querySelectorAll('script, img')].map((e) => e.outerHTML)).toEqual([]);
    expect([...d.querySelectorAll('b')].filter((b) => b.textContent === 'now')).toEqual([]);
    // No override in the head (a preview shows it out of context); the page shows the text as written.
    expect(r.text.split('</head>')[0]).not.toContain('\u202E');
    // The page itself still shows the title as written (escaped), and links the topic page and feed.
    expect(d.querySelector('h1')!.textContent).toBe(HOSTILE_TITLE);
    expect(feeds).toEqual(['/feeds/topics/general.atom']);
    expect(d.querySelector('header a[href="/topics/general"]')).not.toBeNull();
    // A reply address is sent on to the thread page, whose canonical link is the root's.
    const reply = await a.t.call('POST', `/v1/posts/${id}/replies`, { key: a.reviewers[0]!.key, headers: idem(), body: { body: 'A reply.' } });
    const sent = await a.html(`/threads/${reply.json.reply.id}`);
    expect([sent.status, sent.headers.get('location')]).toEqual([302, `/threads/${id}#${reply.json.reply.id}`]);
  });
});

describe('GET /topics/{topic}', () => {
  test('lists the topic’s live threads newest first, each linked, with its feed and a canonical link; other topics are not there', async () => {
    const a = await app();
    const first = await a.thread('general', 'First general thread');
    const lab = await a.thread('svc-1m', 'Notes from the lab', 'A finding, measured twice.', a.reviewers[0]!.key);
    const hostile = await a.thread('general', HOSTILE_TITLE, 'Body.', a.reviewers[1]!.key);
    await a.t.call('POST', `/v1/posts/${first}/replies`, { key: a.reviewers[0]!.key, headers: idem(), body: { body: 'A reply.' } });
    const r = await a.html('/topics/general');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=15');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    const { d, meta, feeds, canonical } = headOf(r.text);
    const links = [...d.querySelectorAll('ul.items li > a')].map((l) => [l.getAttribute('href'), l.textContent]);
    expect(links).toEqual([
      [`/threads/${hostile}`, HOSTILE_TITLE],
      [`/threads/${first}`, 'First general thread'],
    ]);
    expect(links.flat()).not.toContain(`/threads/${lab}`);
    expect(d.querySelectorAll('main b, main script').length).toBe(0);
    expect(d.querySelector('ul.items li:last-child .meta')!.textContent).toContain('1 reply');
    expect(canonical).toBe(`${BASE}/topics/general`);
    expect(meta['og:url']).toBe(`${BASE}/topics/general`);
    expect(meta['og:type']).toBe('website');
    expect(feeds).toEqual(['/feeds/topics/general.atom']);
    // One h1, landmarks, and every link says where it goes.
    expect(d.querySelectorAll('h1').length).toBe(1);
    expect(d.querySelector('main')).not.toBeNull();
    expect(d.querySelector('nav.site')).not.toBeNull();
    for (const l of d.querySelectorAll('a')) expect(l.textContent!.trim().length).toBeGreaterThan(0);
    // Case ignored, the same page; 304 on its tag.
    expect((await a.html('/topics/GENERAL')).status).toBe(200);
    expect((await a.html('/topics/general', { 'if-none-match': r.headers.get('etag')! })).status).toBe(304);
    // A deleted thread leaves the page.
    expect((await a.t.call('DELETE', `/v1/posts/${first}`, { key: a.author.key, headers: idem() })).status).toBe(200);
    a.t.clock.advance(16_000);
    const after = parse((await a.html('/topics/general')).text);
    expect([...after.querySelectorAll('ul.items li > a')].map((l) => l.getAttribute('href'))).toEqual([`/threads/${hostile}`]);
  });

  test('pages back in time after the last thread shown, every thread once', async () => {
    const a = await pagesApp({ SVC_BASE_URL: BASE, SVC_POSTING_PER_DAY: '1000' });
    const ids: string[] = [];
    for (let i = 0; i < 33; i++) {
      const r = await a.t.call('POST', '/v1/posts', {
        key: [a.author, ...a.reviewers][i % 4]!.key,
        headers: idem(),
        body: { topic: 'general', title: `Finding number ${i}`, body: `Finding ${i}: the cache was measured ${i} times.` },
      });
      expect([i, r.status]).toEqual([i, 200]);
      ids.push(r.json.post.id);
    }
    const page1 = parse((await a.html('/topics/general')).text);
    const hrefs1 = [...page1.querySelectorAll('ul.items li > a')].map((l) => l.getAttribute('href')!);
    expect(hrefs1.length).toBe(30);
    expect(hrefs1[0]).toBe(`/threads/${ids[32]}`);
    const next = page1.querySelector('a[rel=next]')!.getAttribute('href')!;
    expect(next).toBe(`/topics/general?before=${ids[3]}`);
    const r2 = await a.html(next);
    expect(r2.status).toBe(200);
    const page2 = parse(r2.text);
    const hrefs2 = [...page2.querySelectorAll('ul.items li > a')].map((l) => l.getAttribute('href')!);
    expect([...hrefs1, ...hrefs2]).toEqual(ids.toReversed().map((id) => `/threads/${id}`));
    expect(page2.querySelector('a[rel=next]')).toBeNull();
    expect(page2.querySelector('nav.pager a[href="/topics/general"]')).not.toBeNull();
    expect(headOf(r2.text).canonical).toBe(`${BASE}/topics/general?before=${ids[3]}`);
  });

  test('an unknown topic is an HTML 404, the retired one an HTML 410 naming its successor, a foreign page link an HTML 400', async () => {
    const a = await app();
    const other = await a.thread('general', 'Elsewhere');
    const cases: [string, number, string][] = [
      ['/topics/nope', 404, 'general'],
      ['/topics/svc-out', 410, 'svc-show'],
      [`/topics/svc-show?before=${other}`, 400, 'Start again'],
      [`/topics/general?before=${'x'.repeat(37)}`, 400, 'one thread id'],
      ['/topics/general?before=a&before=b', 400, 'one thread id'],
    ];
    for (const [path, status, says] of cases) {
      const r = await a.html(path);
      expect([path, r.status, r.headers.get('content-type'), r.headers.get('cache-control')]).toEqual([path, status, 'text/html; charset=utf-8', 'no-store']);
      expect(parse(r.text).querySelector('main')!.textContent).toContain(says);
    }
    // Every topic the board reads has its page.
    for (const topic of ['general', 'svc-1m', 'svc-show', 'rules']) expect([topic, (await a.html(`/topics/${topic}`)).status]).toEqual([topic, 200]);
  });
});
