// What the accessibility audit asked of the console (items 3, 5, 9 and the console parts of 12),
// checked through HTTP in the HTML the pages send: a skip link to <main id="main"> on every page
// and the sign-in page; titles in the h1's words, "Error: …" first when the page shows an error;
// table cells that carry their column's name for the phone layout, with no empty column header;
// cards named by a heading, repeated buttons named after their item, and every field with a
// visible label (the two role pickers told apart). Chromium checks the rendering
// (console-browser.test.ts) and axe-core the pages (console-axe.test.ts).
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { CONSOLE_CSS } from '../../src/admin/console/pages.ts';
import { BASE } from '../helpers.ts';
import { commentsApp } from '../comments/harness.ts';
import { SoftPasskey } from './authenticator.ts';
import { act, send, signedIn, type T, unescaped } from './console-harness.ts';

const ORIGIN = 'http://svc.test';
const PAGES = ['queue', 'board?q=zeppelin', 'agents', 'articles', 'mirror', 'outreach', 'log', 'health', 'passkeys'] as const;

const titleOf = (html: string) => unescaped(/<title>([^<]*)<\/title>/.exec(html)![1]!);
const h1Of = (html: string) => unescaped(/<h1>([\s\S]*?)<\/h1>/.exec(html)![1]!.replace(/<[^>]+>/g, ''));
/** Text as a screen reader gets it from markup: tags out, entities read, spaces collapsed. */
const textOf = (html: string) =>
  unescaped(html.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
const buttonsOf = (html: string) => [...html.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((m) => textOf(m[1]!));
const cardsOf = (html: string) => [...html.matchAll(/<(li|article) class="card[^"]*">[\s\S]*?<\/\1>/g)].map((m) => m[0]);

/** Every visible form control (not hidden, not a checkbox in its own label) sits inside a <label>. */
function unlabelled(html: string): string[] {
  let depth = 0;
  const out: string[] = [];
  for (const m of html.matchAll(/<(\/?)(label|input|select|textarea)\b([^>]*)>/g)) {
    const [tag, close, name, attrs] = m as unknown as [string, string, string, string];
    if (name === 'label') depth += close ? -1 : 1;
    else if (!close && !/type="hidden"/.test(attrs) && depth === 0) out.push(tag);
  }
  return out;
}

async function json(t: T, path: string, body: unknown, cookie: string) {
  const headers = { accept: 'application/json', 'content-type': 'application/json', cookie };
  const res = await t.app.handle(new Request(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }));
  return { status: res.status, json: (await res.json()) as any };
}

/** An app with an article, a thread, three agents and an owner signed in with a passkey registered. */
async function setUp() {
  const h = await commentsApp();
  const { t } = h;
  await t.register('ada-lab');
  const s = await signedIn(t);
  const thread = await t.call('POST', '/v1/posts', {
    key: (await t.register('spammer')).key,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { topic: 'general', title: 'Cheap zeppelin tickets', body: 'Tickets for the zeppelin here.' },
  });
  expect(thread.status).toBe(200);
  const pk = new SoftPasskey();
  const o = await json(t, '/console/passkeys/options', { csrf: s.csrf }, s.cookie);
  const reg = await json(t, '/console/passkeys/register', { csrf: s.csrf, credential: pk.create(o.json, ORIGIN) }, s.cookie);
  expect(reg.status).toBe(200);
  return { t, s, article: h.article.postId, credential: reg.json.credential_id as string };
}

describe('every console page', () => {
  test('starts with a skip link to <main id="main">, and its title uses the h1’s words', async () => {
    const { t, s } = await setUp();
    for (const p of PAGES) {
      const r = await send(t, 'GET', `/console/${p}`, { cookie: s.cookie });
      expect(r.status).toBe(200);
      expect(r.text).toContain('<body><a class="skip" href="#main">Skip to content</a><header class="console">');
      expect(r.text).toContain('<main id="main">');
      const name = p.replace(/\?.*/, '');
      const label = `${name[0]!.toUpperCase()}${name.slice(1)}`;
      expect([titleOf(r.text), h1Of(r.text)]).toEqual([`${label} · svc console`, label]);
    }
  });

  test('the sign-in page: skip link, title and h1 alike, a key field a password manager may fill', async () => {
    const { t } = await setUp();
    const r = await send(t, 'GET', '/console');
    expect(r.text).toContain('<body><a class="skip" href="#main">Skip to content</a><main id="main" class="console-sign-in">');
    expect([titleOf(r.text), h1Of(r.text)]).toEqual(['Sign in · svc console', 'Sign in to the svc console']);
    expect(r.text).toContain('<input type="password" name="key" autocomplete="current-password" required>');
    expect(r.text).not.toContain('autocomplete="off"');
  });

  test('every visible field has a visible label; no field is named by its placeholder alone', async () => {
    const { t, s } = await setUp();
    for (const p of [...PAGES, 'board']) {
      const r = await send(t, 'GET', `/console/${p}`, { cookie: s.cookie });
      expect([p, unlabelled(r.text)]).toEqual([p, []]);
      // A label names a field: no aria-label in its place.
      expect([p, /<(input|select)[^>]*aria-label=/.test(r.text)]).toEqual([p, false]);
    }
    const signIn = await send(t, 'GET', '/console');
    expect(unlabelled(signIn.text)).toEqual([]);
  });
});

describe('titles of pages that show an error start with “Error:”', () => {
  test('a refused action, a Log date that is no day, a passkey refusal, an unknown page, a wrong key', async () => {
    const { t, s } = await setUp();
    const refused = await act(t, s, 'agent reissue', { name: 'ada-lab', back: 'agents' });
    expect([refused.status, titleOf(refused.text)]).toEqual([400, 'Error: agent reissue · Agents · svc console']);
    expect(refused.text).toContain('<p class="error" role="alert"><strong>agent reissue</strong>: agent reissue needs a confirmation');
    const done = await act(t, s, 'lab allow', { name: 'ada-lab', back: 'agents' });
    expect([done.status, titleOf(done.text)]).toEqual([200, 'Agents · svc console']);
    const badDay = await send(t, 'GET', '/console/log?from=2026-02-30', { cookie: s.cookie });
    expect(titleOf(badDay.text)).toBe('Error: Log · svc console');
    const gone = await send(t, 'POST', '/console/passkeys/remove', { cookie: s.cookie, form: { csrf: s.csrf, credential_id: 'nope' } });
    expect([gone.status, titleOf(gone.text)]).toEqual([404, 'Error: passkey remove · Passkeys · svc console']);
    expect(gone.text).toContain('<p class="error" role="alert"><strong>passkey remove</strong>: No such passkey of this account.</p>');
    const unknown = await send(t, 'GET', '/console/nowhere', { cookie: s.cookie });
    expect([unknown.status, titleOf(unknown.text), h1Of(unknown.text)]).toEqual([404, 'Error: Not found · svc console', 'Not found']);
    expect(unknown.text).toContain('<a class="skip" href="#main">Skip to content</a>');
    const wrongKey = await send(t, 'POST', '/console/sign-in', { form: { key: `svc_${'x'.repeat(40)}` } });
    expect([wrongKey.status, titleOf(wrongKey.text)]).toEqual([401, 'Error: Sign in · svc console']);
  });
});

describe('tables keep their column names on a phone', () => {
  /** Each header's text and each row's data-labels, in order. */
  function table(html: string) {
    const head = [.../<thead>([\s\S]*?)<\/thead>/.exec(html)![1]!.matchAll(/<th>([\s\S]*?)<\/th>/g)].map((m) => textOf(m[1]!));
    const rows = [...html.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)]
      .flatMap((b) => [...b[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)])
      .map((r) => [...r[1]!.matchAll(/<td( data-label="([^"]*)")?>/g)].map((c) => c[2] ?? null));
    return { head, rows };
  }

  test('Log: every cell names its column (data-label); the last column’s header is out of sight, not empty', async () => {
    const { t, s } = await setUp();
    const r = await send(t, 'GET', '/console/log', { cookie: s.cookie });
    const { head, rows } = table(r.text);
    expect(head).toEqual(['Time', 'Actor', 'Action', 'Target', 'Reason', 'Moderation log']);
    expect(r.text).toContain('<th><span class="visually-hidden">Moderation log</span></th>');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toEqual(head);
  });

  test('Passkeys: every value names its column; the actions column is named “Actions”; Remove names the passkey', async () => {
    const { t, s, credential } = await setUp();
    const r = await send(t, 'GET', '/console/passkeys', { cookie: s.cookie });
    const { head, rows } = table(r.text);
    expect(head).toEqual(['Passkey', 'Registered', 'Last used', 'Transports', 'Actions']);
    expect(r.text).toContain('<th><span class="visually-hidden">Actions</span></th>');
    expect(rows).toEqual([['Passkey', 'Registered', 'Last used', 'Transports', null]]);
    expect(buttonsOf(r.text)).toContain(`Remove passkey ${credential.slice(0, 16)}…`);
  });

  test('the stylesheet: below 40rem the header row is out of sight but kept, and each cell shows its name', async () => {
    const { t } = await setUp();
    const css = (await send(t, 'GET', '/console/console.css')).text;
    expect(css).toBe(CONSOLE_CSS);
    const narrow = css.slice(css.indexOf('@media (max-width:40rem)'));
    expect(narrow).toContain('.wide td[data-label]::before{content:attr(data-label) ": "');
    // Clipped, not display:none: display:none would take the column headers from screen readers.
    expect(narrow).toMatch(/\.wide thead\{position:absolute;[^}]*clip:rect\(0 0 0 0\)/);
    expect(css).not.toContain('thead{display:none}');
  });
});

describe('cards: a heading each, buttons named after their item, labelled fields', () => {
  test('Agents: the name is a heading; each button says whose; the role pickers are “Role to grant” and “Role to revoke”', async () => {
    const { t, s } = await setUp();
    const page = (await send(t, 'GET', '/console/agents', { cookie: s.cookie })).text;
    const card = cardsOf(page).find((c) => c.includes('<h2>ada-lab</h2>'))!;
    expect(card.startsWith('<li class="card"><h2>ada-lab</h2>')).toBe(true);
    expect(buttonsOf(card)).toEqual([
      'Reissue key of ada-lab',
      'Revoke key of ada-lab',
      'Grant role to ada-lab',
      'Revoke role of ada-lab',
      'Allow lab to ada-lab',
    ]);
    // The visible word comes first in the name (WCAG 2.5.3): the rest is out of sight.
    expect(card).toContain('<button>Reissue key<span class="visually-hidden"> of ada-lab</span></button>');
    expect(card).toContain('<label class="field">Role to grant <select name="role" required>');
    expect(card).toContain('<label class="field">Role to revoke <select name="role" required>');
    expect(card).toContain('<label class="field">Reason (public) <input name="reason" required maxlength="2000"></label>');
    // The confirmations stay, server-checked (console-keys.test.ts).
    expect(card).toContain('<input type="checkbox" name="confirm" value="ada-lab" required> Confirm: ada-lab’s key stops now');
    expect(page).toContain('<label class="field">Find agents <input name="q" value="" placeholder="Part of a name"></label>');
    expect(page).not.toContain('placeholder="Public reason"');
  });

  test('Articles: the title is a heading; Hide names the article; the reason and the comment id have visible labels', async () => {
    const { t, s, article } = await setUp();
    const page = (await send(t, 'GET', '/console/articles', { cookie: s.cookie })).text;
    const [card] = cardsOf(page);
    const title = textOf(/<h2>([\s\S]*?)<\/h2>/.exec(card!)![1]!);
    expect(card).toContain(`<h2><a href="/pubs/${article}">`);
    expect(buttonsOf(card!)).toEqual([`Hide article “${title}”`]);
    expect(card).toContain('<label class="field">Reason (public, optional) <input name="reason" maxlength="2000"></label>');
    expect(page).toContain('<label class="field">Comment id <input name="comment_id" required maxlength="64"></label>');
  });

  test('no two buttons in the cards of a page have the same name', async () => {
    const { t, s } = await setUp();
    runAdmin(t.ctx, ['role', 'grant', 'ada-lab', 'editor']);
    for (const p of ['agents', 'articles', 'board?q=zeppelin', 'mirror', 'outreach', 'queue']) {
      const html = (await send(t, 'GET', `/console/${p}`, { cookie: s.cookie })).text;
      const names = cardsOf(html).flatMap(buttonsOf);
      expect([p, names.filter((n, i) => names.indexOf(n) !== i)]).toEqual([p, []]);
    }
    const board = (await send(t, 'GET', '/console/board?q=zeppelin', { cookie: s.cookie })).text;
    expect(board).toContain('<li class="card"><h2>Cheap zeppelin tickets</h2>');
    expect(buttonsOf(board)).toContain('Remove thread “Cheap zeppelin tickets”');
  });
});
