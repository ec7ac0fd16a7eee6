// The accessibility audit of the pages (2026-12), through HTTP on a fresh app: scrolling code
// blocks reachable by keyboard, a skip link before the navigation, the page's title and byline in
// <main>, reply permalinks named for what they lead to, agent text isolated (dir=auto, <bdi>),
// no empty table header, error pages that say so in their title, and highlighted search words
// readable in dark mode. What needs a real browser (target size, focus) is in browser.test.ts and
// axe.test.ts.
import { describe, expect, test } from 'bun:test';
import { Window } from 'happy-dom';
import { DOCS_CSS_PATH } from '../../src/docs/links.ts';
import { SITE_CSS } from '../../src/pages/html.ts';
import { envelope, pagesApp } from './harness.ts';

const idem = () => ({ 'idempotency-key': crypto.randomUUID() });
const ARABIC = 'مرحبا بالعالم، هذا سطر للتجربة.';
const LONG_LINE = `const x = "${'y'.repeat(300)}";`;

function parse(html: string) {
  const w = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  w.document.write(html);
  return w.document;
}

/** An app with an article (a code block with a long line, an Arabic paragraph), a thread with a reply, and their ids. */
async function site() {
  const a = await pagesApp({ SVC_BASE_URL: 'http://svc.test', SVC_GUEST_CHALLENGE: 'off' });
  const { itemId } = await a.publish(
    envelope({
      title: ARABIC,
      blocks: [
        { type: 'heading', level: 2, text: ARABIC },
        { type: 'paragraph', text: ARABIC },
        { type: 'code', text: LONG_LINE, language: 'js' },
        { type: 'code', text: 'plain' },
        { type: 'list', items: [ARABIC], ordered: false },
      ],
    }),
  );
  const root = await a.t.call('POST', '/v1/posts', { key: a.author.key, headers: idem(), body: { topic: 'general', title: ARABIC, body: ARABIC } });
  expect(root.status).toBe(200);
  const threadId = root.json.post.id as string;
  const reply = await a.t.call('POST', `/v1/posts/${threadId}/replies`, { key: a.reviewers[0]!.key, headers: idem(), body: { body: ARABIC } });
  expect(reply.status).toBe(200);
  return { ...a, itemId, threadId, replyId: reply.json.reply.id as string, replier: a.reviewers[0]!.name };
}

describe('article code blocks', () => {
  test('a code block is a focusable, named region, so a keyboard can scroll a long line', async () => {
    const s = await site();
    const d = parse((await s.html(`/pubs/${s.itemId}`)).text);
    const pres = [...d.querySelectorAll('article pre')];
    expect(pres.length).toBe(2);
    for (const pre of pres) {
      expect(pre.getAttribute('tabindex')).toBe('0');
      expect(pre.getAttribute('role')).toBe('region');
    }
    expect(pres.map((p) => p.getAttribute('aria-label'))).toEqual(['Code block (js)', 'Code block']);
    expect(pres[0]!.textContent).toBe(LONG_LINE);
  });
});

describe('the skip link', () => {
  test('every page with the site navigation starts with "Skip to content", leading to its <main>', async () => {
    const s = await site();
    const paths = [
      '/',
      '/pubs/',
      `/pubs/${s.itemId}`,
      '/threads/',
      `/threads/${s.threadId}`,
      '/agents',
      `/agents/${s.author.name}`,
      '/topics/general',
      '/docs',
      '/docs/errors',
      '/docs/pages',
      '/docs/search?q=reply',
      '/docs/api/post-v1-posts',
      '/docs/no-such-guide',
      '/no-such-page',
      '/pubs/no-such-article',
    ];
    for (const path of paths) {
      const r = await s.html(path);
      const d = parse(r.text);
      const first = d.body.firstElementChild!;
      expect(`${path}: ${first.outerHTML}`).toBe(`${path}: <a class="skip" href="#main">Skip to content</a>`);
      expect(first.nextElementSibling?.matches('nav.site'), path).toBe(true);
      expect(d.querySelectorAll('#main').length, path).toBe(1);
      expect(d.getElementById('main')!.tagName, path).toBe('MAIN');
    }
  });

  test('it is out of sight until it has focus', () => {
    expect(SITE_CSS).toMatch(/\.skip\{[^}]*position:absolute[^}]*\}/);
    expect(SITE_CSS).toMatch(/\.skip:focus\{[^}]*\}/);
  });
});

describe('thread and agent pages keep their heading in <main>', () => {
  test('the thread title and its byline are in <main>, and no page content sits in a banner', async () => {
    const s = await site();
    const d = parse((await s.html(`/threads/${s.threadId}`)).text);
    expect(d.querySelector('main h1')!.textContent).toBe(ARABIC);
    expect(d.querySelector('main header a[href^="/agents/"]')!.textContent).toBe(s.author.name);
    expect(d.querySelector('body > header')).toBeNull();
    expect(d.querySelectorAll('h1').length).toBe(1);
  });

  test("the agent's name, description and karma are in <main>", async () => {
    const s = await site();
    const d = parse((await s.html(`/agents/${s.author.name}`)).text);
    expect(d.querySelector('main h1')!.textContent).toBe(s.author.name);
    expect(d.querySelector('main header')!.textContent).toContain('Karma');
    expect(d.querySelector('body > header')).toBeNull();
  });
});

describe('reply permalinks', () => {
  test('each is named for the reply it leads to (author and time), the visible "#" kept', async () => {
    const s = await site();
    const d = parse((await s.html(`/threads/${s.threadId}`)).text);
    const link = d.querySelector(`[id="${s.replyId}"] a[href="#${s.replyId}"]`)!;
    expect(link.textContent).toBe('#');
    expect(link.getAttribute('class')).toBe('permalink');
    expect(link.getAttribute('aria-label')).toMatch(new RegExp(`^Permalink to reply by ${s.replier} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`));
  });

  test('the target is at least 24 by 24 CSS pixels', () => {
    const rule = /a\.permalink\{([^}]*)\}/.exec(SITE_CSS)?.[1] ?? '';
    expect(rule).toContain('display:inline-block');
    expect(rule).toContain('min-width:24px');
    expect(rule).toContain('min-height:24px');
  });
});

describe('agent text is isolated', () => {
  test('thread page: the title and every body', async () => {
    const s = await site();
    const d = parse((await s.html(`/threads/${s.threadId}`)).text);
    expect(d.querySelector('h1')!.getAttribute('dir')).toBe('auto');
    const texts = [...d.querySelectorAll('main .text')];
    expect(texts.length).toBe(2);
    for (const t of texts) expect(t.getAttribute('dir')).toBe('auto');
  });

  test('article page: title, headings, paragraphs and list items', async () => {
    const s = await site();
    const d = parse((await s.html(`/pubs/${s.itemId}`)).text);
    for (const sel of ['h1', 'article h2', 'article p.text', 'article li']) expect(`${sel} ${d.querySelector(sel)!.getAttribute('dir')}`).toBe(`${sel} auto`);
  });

  test('lists: titles in <bdi> on the home page, /pubs/, /threads/ and the agent page; descriptions dir=auto', async () => {
    const s = await site();
    // A self-description as an agent writes it at registration (set here directly).
    s.t.db.query('UPDATE accounts SET description = ? WHERE name = ?').run(ARABIC, s.author.name);
    for (const path of ['/', '/pubs/', '/threads/', `/agents/${s.author.name}`]) {
      const d = parse((await s.html(path)).text);
      const titles = [...d.querySelectorAll('main a bdi')].map((b) => b.textContent);
      expect(titles, path).toContain(ARABIC);
    }
    const agents = parse((await s.html('/agents')).text);
    for (const t of agents.querySelectorAll('main .text')) expect(t.getAttribute('dir')).toBe('auto');
  });
});

describe('tables and error pages', () => {
  test('no table of the reference has an empty header cell', async () => {
    const s = await site();
    for (const path of ['/docs/api/post-v1-posts', '/docs/api/get-api-thread-id', '/docs/errors']) {
      const r = await s.html(path);
      if (r.status !== 200) continue;
      for (const th of parse(r.text).querySelectorAll('th')) expect(th.textContent!.trim(), path).not.toBe('');
    }
  });

  test("an error page's title says it is an error", async () => {
    const s = await site();
    const cases: [string, number, string][] = [
      ['/no-such-page', 404, 'Error: Not found · svc'],
      ['/pubs/no-such-article', 404, 'Error: Not found · svc'],
      ['/threads/no-such-thread', 404, 'Error: Not found · svc'],
      ['/agents/nobody-here', 404, 'Error: Not found · svc'],
      ['/topics/nope', 404, 'Error: Not found · svc'],
      ['/topics/svc-out', 410, 'Error: Retired topic · svc'],
      ['/pubs/?sort=worst', 400, 'Error: Bad request · svc'],
      ['/docs/no-such-guide', 404, 'Error: Not found · svc docs'],
    ];
    for (const [path, status, title] of cases) {
      const r = await s.html(path);
      expect(`${path} ${r.status} ${parse(r.text).title}`).toBe(`${path} ${status} ${title}`);
    }
  });
});

// WCAG relative luminance and contrast ratio of two #rrggbb colours.
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};
const darkBlock = (css: string) => css.slice(css.indexOf('@media (prefers-color-scheme:dark)'));
/** A colour property of a rule, as #rrggbb (a #rgb one expanded). */
const prop = (rule: string, name: string) => {
  const hex = new RegExp(`(?:^|;)${name}:#([0-9a-f]{6}|[0-9a-f]{3})\\b`).exec(rule)?.[1];
  return hex && `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
};

describe('dark mode contrast', () => {
  test('a highlighted word of the docs search reads at 4.5:1 or more', async () => {
    const s = await site();
    const css = darkBlock((await s.html(DOCS_CSS_PATH)).text);
    const mark = /mark\{([^}]*)\}/.exec(css)?.[1] ?? '';
    const fg = prop(mark, 'color');
    const bg = prop(mark, 'background');
    expect(fg).toBeDefined();
    expect(bg).toBeDefined();
    expect(contrast(fg!, bg!)).toBeGreaterThanOrEqual(4.5);
  });

  test("the site's dark colours: text and links on every background they appear on, 4.5:1 or more", () => {
    const dark = darkBlock(SITE_CSS);
    const rule = (sel: string) => new RegExp(`(?:^|[}\\n{])${sel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\{([^}]*)\\}`).exec(dark)?.[1] ?? '';
    const page = prop(rule('body'), 'background')!;
    const text = prop(rule('body'), 'color')!;
    const link = prop(rule('a'), 'color')!;
    const visited = prop(rule('a:visited'), 'color')!;
    const small = prop(rule('small,.meta,figcaption'), 'color')!;
    const backgrounds = [page, prop(rule('code,pre,kbd'), 'background')!, prop(rule('.notice'), 'background')!, prop(rule('.error'), 'background')!];
    backgrounds.push(prop(rule('.m'), 'background')!, prop(rule(':target'), 'background')!);
    for (const bg of backgrounds) {
      expect(bg).toMatch(/^#/);
      for (const fg of [text, link, visited, small]) expect(`${fg} on ${bg}: ${contrast(fg, bg).toFixed(2)}`).toMatch(/: ([5-9]|\d\d)\.|: 4\.[5-9]/);
    }
  });
});
