// GET /threads/{id}: the server-rendered thread page people read. Valid HTML5, every agent-written
// string escaped, no script, strict CSP, replies at their #anchors, HTML 404s.
import { describe, expect, test } from 'bun:test';
import { Window } from 'happy-dom';
import { board, deleteAccount, deletePost, makeCrew, read, seedReply, seedThread } from './fixtures.ts';

const XSS_TITLE = '<script>alert(1)</script> "><img src=x onerror=alert(1)>';
const XSS_BODY = `"><img src=x onerror=alert(1)>\n<script>alert(1)</script>\n<a href="javascript:alert(1)">x</a> & 'quotes' </article></main></body>`;

/** The structure every page must have: one doctype first, one html (with lang), head, body, charset and title. */
function expectValidStructure(html: string) {
  expect(html.startsWith('<!doctype html>\n')).toBe(true);
  for (const tag of ['html', 'head', 'body', 'title']) {
    expect(html.match(new RegExp(`<${tag}[\\s>]`, 'g'))?.length, `<${tag}>`).toBe(1);
    expect(html.match(new RegExp(`</${tag}>`, 'g'))?.length, `</${tag}>`).toBe(1);
  }
  expect(html).toMatch(/<html lang="[a-z]{2}">/);
  expect(html).toContain('<meta charset="utf-8">');
  expect(html.indexOf('<head>')).toBeLessThan(html.indexOf('</head>'));
  expect(html.indexOf('</head>')).toBeLessThan(html.indexOf('<body>'));
  expect(html.trimEnd().endsWith('</body></html>')).toBe(true);
  // Every element opened in the body is closed, in order (void elements aside).
  const body = html.slice(html.indexOf('<body>') + 6, html.indexOf('</body>'));
  const stack: string[] = [];
  for (const m of body.matchAll(/<(\/?)([a-z][a-z0-9]*)\b[^>]*>/g)) {
    const [, closing, name] = m as unknown as [string, string, string];
    if (['br', 'img', 'meta', 'hr', 'input'].includes(name)) continue;
    if (!closing) stack.push(name);
    else expect(stack.pop(), `</${name}>`).toBe(name);
  }
  expect(stack).toEqual([]);
  // Ids are unique.
  const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
  expect(new Set(ids).size).toBe(ids.length);
}

function parse(html: string) {
  const window = new Window();
  return new window.DOMParser().parseFromString(html, 'text/html');
}

describe('GET /threads/{id}', () => {
  test('renders the thread: title, author, body, each reply at its anchor, a link to the JSON', async () => {
    const {
      t,
      agents: [alice, bob],
    } = await board('alice', 'bob');
    makeCrew(t, bob!);
    const root = seedThread(t, alice!, { title: 'Experiment: warm cache', body: 'Target: cold path\nMetric: p99', topic: 'svc-1m' });
    const first = seedReply(t, bob!, root.id, { body: 'Started: now' });
    const second = seedReply(t, alice!, root.id, { body: 'Delivered: https://example.org', replyTo: first.id });
    const r = await read(t, `/threads/${root.id}`, { accept: 'text/html', 'user-agent': 'Mozilla/5.0 AppleWebKit Chrome/120 Safari/537' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=30');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expectValidStructure(r.text);
    const doc = parse(r.text);
    expect(doc.title).toBe('Experiment: warm cache · svc');
    expect(doc.querySelector('h1')!.textContent).toBe('Experiment: warm cache');
    expect(doc.getElementById(root.id)!.textContent).toContain('Target: cold path\nMetric: p99');
    expect(doc.getElementById(first.id)!.textContent).toContain('Started: now');
    expect(doc.getElementById(first.id)!.textContent).toContain('bob');
    expect(doc.getElementById(first.id)!.textContent).toContain('crew');
    expect(doc.getElementById(second.id)!.querySelector(`a[href="#${first.id}"]`)).not.toBeNull();
    expect(doc.querySelector(`a[href="/api/thread/${root.id}"]`)).not.toBeNull();
    // An agent's link is text, never a link.
    expect(doc.querySelector('a[href^="https://example.org"]')).toBeNull();
    // The url every JSON document gives lands on these anchors.
    const activity = await read(t, '/api/activity');
    expect(activity.json.items[0].url).toBe(`http://svc.test/threads/${root.id}#${second.id}`);
  });

  test('hostile titles and bodies appear escaped, and the page has no script', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!, { title: XSS_TITLE, body: XSS_BODY });
    const reply = seedReply(t, alice!, root.id, { body: XSS_BODY });
    const r = await read(t, `/threads/${root.id}`);
    expect(r.text).not.toMatch(/<script/i);
    expect(r.text).not.toMatch(/<img/i);
    expect(r.text).not.toContain('href="javascript:');
    expect(r.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(r.text).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expectValidStructure(r.text);
    // Escaping round-trips: a reader sees exactly what was written.
    const doc = parse(r.text);
    expect(doc.title).toBe(`${XSS_TITLE} · svc`);
    expect(doc.querySelector('h1')!.textContent).toBe(XSS_TITLE);
    expect(doc.getElementById(root.id)!.textContent).toBe(XSS_BODY);
    expect(doc.getElementById(reply.id)!.textContent).toContain(XSS_BODY);
    expect(doc.querySelectorAll('script, img, iframe, object').length).toBe(0);
  });

  test('sends the strict CSP of every page: nothing from elsewhere, no script', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    const r = await read(t, `/threads/${root.id}`);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test("a reply's id is sent on to its thread's page at the reply's anchor", async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    const reply = seedReply(t, alice!, root.id);
    const r = await read(t, `/threads/${reply.id}`);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`/threads/${root.id}#${reply.id}`);
  });

  test('shows the first 200 replies and says how many there are', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    const replies = Array.from({ length: 203 }, () => seedReply(t, alice!, root.id));
    const r = await read(t, `/threads/${root.id}`);
    const doc = parse(r.text);
    expect(doc.getElementById(replies[199]!.id)).not.toBeNull();
    expect(doc.getElementById(replies[200]!.id)).toBeNull();
    expect(r.text).toContain('203 replies');
    expect(r.text).toContain('Showing the first 200 of 203 replies');
  });

  test('is served from the cache for its 30 s, writes or not', async () => {
    const {
      t,
      agents: [alice],
    } = await board('alice');
    const root = seedThread(t, alice!);
    const first = await read(t, `/threads/${root.id}`);
    t.clock.advance(10_000);
    const cached = await read(t, `/threads/${root.id}`);
    expect(cached.text).toBe(first.text);
    expect(cached.headers.get('age')).toBe('10');
    const reply = seedReply(t, alice!, root.id, { body: 'fresh reply' });
    expect((await read(t, `/threads/${root.id}`)).text).toBe(first.text);
    t.clock.advance(20_000);
    const fresh = await read(t, `/threads/${root.id}`);
    expect(fresh.text).toContain(reply.id);
    expect(fresh.headers.get('age')).toBe('0');
  });

  describe('an HTML 404 page, not JSON', () => {
    test.each(['unknown', 'malformed', 'deleted root', 'reply of a deleted root', 'deleted account'])('%s', async (what) => {
      const {
        t,
        agents: [alice],
      } = await board('alice');
      const root = seedThread(t, alice!);
      const reply = seedReply(t, alice!, root.id);
      await read(t, `/threads/${root.id}`); // cached first: a deletion must still show
      let id = root.id;
      if (what === 'unknown') id = crypto.randomUUID();
      if (what === 'malformed') id = '%3Cscript%3E';
      if (what === 'deleted root') deletePost(t, root.id);
      if (what === 'reply of a deleted root') {
        deletePost(t, root.id);
        id = reply.id;
      }
      if (what === 'deleted account') deleteAccount(t, alice!);
      const r = await read(t, `/threads/${id}`);
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
      expectValidStructure(r.text);
      expect(r.text).toContain('Not found');
      expect(r.text).not.toContain('<script');
    });
  });
});
