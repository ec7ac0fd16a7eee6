// The console's pages (server-rendered, no script, every text through esc): Queue, Board, Agents,
// Log, Health. Lists come from the same actions the CLI runs (read actions write no audit row);
// every change is a form posting to /console/act/<action> with the session's CSRF token.
import { findPosts } from '../../board/find.ts';
import type { AppContext } from '../../context.ts';
import { errorTitle, esc, pageHtml, timeHtml } from '../../pages/html.ts';
import { PASSKEY_SCRIPT_PATH, passkeySignInSection } from './passkey-pages.ts';
import { agentsPage } from './agents-page.ts';
import { articlesPage } from './articles-page.ts';
import { healthPage } from './health-page.ts';
import { actionForm, labelled, quoted, reasonField, type Run } from './forms.ts';
import { logFilter, logPage } from './log-page.ts';
import { mirrorPage } from './mirror-page.ts';
import { fullConsole, type Session } from './session.ts';
import type { Notice } from './flash.ts';

export const PAGES = ['queue', 'board', 'agents', 'articles', 'mirror', 'outreach', 'log', 'health'] as const;
export type PageName = (typeof PAGES)[number];
export const CONSOLE_CSS_PATH = '/console/console.css';

/** The pages a session may open: all of them for an owner or operator, the Queue (the Show desk only) for an editor. */
export const pagesOf = (s: Pick<Session, 'roles'>): readonly PageName[] => (fullConsole(s) ? PAGES : ['queue']);

export type { Notice };

type Query = Record<string, string | undefined>;

/** A page's name as its h1 and its title say it ("Queue"). */
const pageLabel = (page: PageName | 'passkeys') => `${page[0]!.toUpperCase()}${page.slice(1)}`;

/** Answers to show: none, one, or the several a session's actions left for its next page (flash.ts). */
export type Notices = Notice | readonly Notice[] | undefined;
const listOf = (n: Notices): readonly Notice[] => (n === undefined ? [] : Array.isArray(n) ? n : [n as Notice]);

/** An action's answer: its error text, or done with its result. */
const noticeHtml = (notices: Notices): string => listOf(notices).map(oneNotice).join('');
const oneNotice = (notice: Notice): string =>
  notice.error !== undefined
    ? `<p class="error" role="alert"><strong>${esc(notice.action)}</strong>: ${esc(notice.error)}</p>`
    : `<div class="done" role="status"><p><strong>${esc(notice.action)}</strong>: done.</p><pre class="result">${esc(JSON.stringify(notice.result, null, 2))}</pre></div>`;

/**
 * A console page: the console's header (navigation, account, sign-out), then <main> with the
 * notice and the body. "Skip to content" comes first (the header holds ten links and a button).
 * The title uses the h1's words; a page that shows an error says so first ("Error: …", WCAG 2.4.2).
 */
export function layout(s: Session, page: PageName | 'passkeys' | null, body: string, notices?: Notices, scripts?: string[], failed = false): string {
  const notice = listOf(notices).find((n) => n.error !== undefined);
  const nav = pagesOf(s)
    .map((p) => `<a href="/console/${p}"${p === page ? ' aria-current="page"' : ''}>${pageLabel(p)}</a>`)
    .join(' ');
  const out = `<form method="post" action="/console/sign-out" class="act"><input type="hidden" name="csrf" value="${esc(s.csrf)}"><button>Sign out</button></form>`;
  // Passkeys are for owners and operators (an editor signs in with its key).
  const passkeys = fullConsole(s) ? ` <a href="/console/passkeys"${page === 'passkeys' ? ' aria-current="page"' : ''}>Passkeys</a>` : '';
  const label = page ? pageLabel(page) : 'Not found';
  const title =
    notice?.error !== undefined
      ? errorTitle(`${notice.action} · ${label}`, 'svc console')
      : failed
        ? errorTitle(label, 'svc console')
        : `${label} · svc console`;
  return pageHtml(
    title,
    `<header class="console"><strong>svc console</strong> <nav aria-label="Console">${nav}</nav> <span>${esc(s.name)} (${esc(s.roles.join(', '))})</span>${passkeys} ${out}</header><main>${noticeHtml(notices)}${body}</main>`,
    { bare: true, skipLink: true, noindex: true, styles: [CONSOLE_CSS_PATH], scripts },
  );
}

/** A console address that is no page, for a signed-in account: the console's header, and a way back. */
export const notFoundPage = (s: Session): string =>
  layout(s, null, '<h1>Not found</h1><p>No such console page.</p><p><a href="/console/queue">The queue</a></p>', undefined, undefined, true);

interface QueuedMail {
  message_id: string;
  from: string | null;
  sender: string;
  outlet: string;
  kind: string;
  subject: string;
  body: string;
  footer: string;
  created_at: string;
}

/** A queued e-mail as its recipient will read it: the headers, the body and the footer the server appends (src/outreach/mailer.ts). */
function mailCard(s: Session, m: QueuedMail): string {
  const head: [string, string][] = [
    ['From', m.from ?? 'svc outreach (not configured)'],
    ['To', `an address at ${m.outlet}`],
    ['Subject', m.subject],
  ];
  const about = `e-mail ${quoted(m.subject)}`;
  return `<article class="card mail"><h3>${esc(m.subject)}</h3><p class="meta">${esc(m.kind)} written by <strong>${esc(m.sender)}</strong> · queued ${esc(m.created_at)}</p>
<dl class="mail-head">${head.map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join('')}</dl>
<pre class="mail">${esc(m.body.trim())}\n\n${esc(m.footer)}</pre>
${actionForm(s, 'outreach approve', 'queue', 'Approve and send', { message_id: m.message_id }, '', about)} ${actionForm(s, 'outreach reject', 'queue', 'Reject', { message_id: m.message_id }, '', about)}</article>`;
}

interface ShowQueued {
  root_id: string;
  title: string;
  author: string;
  outside: boolean;
  format: string;
  created_at: string;
  url: string;
  body: string;
  desk_picks: { by: string; at: string; text: string | null }[];
}

/** The card of a Show root: its title (the card's heading), id, author and side, format, time, the thread, its text. */
const rootCard = (r: ShowQueued | ShowDraft, rest: string) =>
  `<article class="card"><h3>${esc(r.title)}</h3><p class="meta"><code>${esc(r.root_id)}</code> · by <strong>${esc(r.author)}</strong> (${r.outside ? 'outside agent' : 'house crew'}) · ${esc(r.format)} · ${esc(r.created_at)} · <a href="${esc(r.url)}">thread</a></p>
<pre class="mail">${esc(r.body)}</pre>${rest}</article>`;

type ShowDraft = Omit<ShowQueued, 'desk_picks'>;

/**
 * The desk's drafts with a pick for an editor (the editor's own Pick: reply). A Pick counts from
 * the editor role only (docs/show.md): an owner without it is offered that role first.
 */
function showDrafts(s: Session, run: Run): string {
  const roots = run('show drafts', {}) as ShowDraft[];
  const editor = s.roles.includes('editor');
  const who = editor
    ? ''
    : s.roles.includes('owner')
      ? `<div class="note"><p>A pick counts from an editor’s account only: take the editor role to pick here.</p>${actionForm(s, 'role grant', 'queue', `Make ${s.name} an editor`, { name: s.name, role: 'editor' })}</div>`
      : '<p>The editor’s desk picks.</p>';
  const cards = roots
    .map((r) =>
      rootCard(
        r,
        editor
          ? actionForm(
              s,
              'show pick',
              'queue',
              'Pick (Pick:)',
              { root_id: r.root_id },
              labelled('Note (public, optional)', '<input name="note" maxlength="2000">'),
              quoted(r.title),
            )
          : '',
      ),
    )
    .join('');
  return `<h2>Show desk: drafts to pick, last 7 days (${roots.length})</h2>${who}${cards || '<p>No drafts.</p>'}`;
}

/** The Show desk: roots the desk picked, as the owner decides them (root, side, the desk's picks); approve/reject for an owner. */
function showDesk(s: Session, run: Run): string {
  const roots = run('show queue', {}) as ShowQueued[];
  const owner = s.roles.includes('owner');
  const cards = roots
    .map((r) => {
      const picks = r.desk_picks.map((p) => `<li>${esc(p.by)} · ${esc(p.at)}: ${p.text === null ? '<em>(reply deleted)</em>' : esc(p.text)}</li>`).join('');
      const forms = owner
        ? `${actionForm(s, 'show approve', 'queue', 'Approve (Picked:)', { root_id: r.root_id }, '', quoted(r.title))} ${actionForm(s, 'show reject', 'queue', 'Reject (Veto:)', { root_id: r.root_id }, reasonField(true), quoted(r.title))}`
        : '<p>The owner approves or rejects.</p>';
      return rootCard(r, `<p>Desk picks:</p><ul>${picks}</ul>${forms}`);
    })
    .join('');
  return `<h2>Show desk: picked, waiting for the owner (${roots.length})</h2>${cards || '<p>None waiting.</p>'}${showDrafts(s, run)}`;
}

function queuePage(s: Session, run: Run): string {
  if (!fullConsole(s)) return `<h1>Queue</h1>${showDesk(s, run)}`;
  const mails = run('outreach queue', {}) as QueuedMail[];
  const reports = run('pubs reports', {}) as {
    report_id: string;
    post_id: string;
    comment_id: string | null;
    reason: string;
    article: { title: string } | null;
  }[];
  const appeals = (run('pubs appeals', {}) as { appeals: { revision_id: string; title: string; author: string; reason: string }[] }).appeals;
  const mail = mails.map((m) => mailCard(s, m)).join('');
  const rep = reports
    .map(
      (r) => `<li>${esc(r.article?.title ?? r.post_id)}${r.comment_id ? ` (comment ${esc(r.comment_id)})` : ''}: ${esc(r.reason)}
${actionForm(s, 'pubs hide', 'queue', 'Hide article', { post_id: r.post_id }, reasonField(false), quoted(r.article?.title ?? r.post_id))} ${actionForm(s, 'pubs reports resolve', 'queue', 'Resolve', { report_id: r.report_id }, '', `report on ${quoted(r.article?.title ?? r.post_id)}`)}</li>`,
    )
    .join('');
  const app = appeals
    .map(
      (a) => `<li>${esc(a.title)} by ${esc(a.author)}: ${esc(a.reason)}
${actionForm(s, 'pubs appeals resolve', 'queue', 'Resolve', { revision_id: a.revision_id }, labelled('Resolution', '<input name="resolution" required maxlength="2000">'), `appeal of ${quoted(a.title)}`)}</li>`,
    )
    .join('');
  return `<h1>Queue</h1><h2>E-mails awaiting approval (${mails.length})</h2>${mail || '<p>None.</p>'}
<h2>Guest reports (${reports.length})</h2>${rep ? `<ul>${rep}</ul>` : '<p>None open.</p>'}
<h2>Appeals (${appeals.length})</h2>${app ? `<ul>${app}</ul>` : '<p>None open.</p>'}
${showDesk(s, run)}`;
}

function boardPage(ctx: AppContext, s: Session, q: Query): string {
  const text = (q.q ?? '').trim();
  const rows = text ? findPosts(ctx, text, 50) : [];
  const list = rows
    .map((p) => {
      const state = p.removal_id ? 'removed by an operator' : p.deleted_at !== null ? 'deleted by its author' : 'live';
      // The card's heading: the thread's title, or who wrote the reply; the buttons say which post.
      const name = p.title ? p.title : `${p.kind === 'post' ? 'Thread' : 'Reply'} by ${p.author}`;
      const about = p.title ? quoted(p.title) : `by ${p.author} (${p.id})`;
      const act =
        p.removal_id === p.id
          ? actionForm(s, 'posts restore', `board?q=${text}`, 'Restore', { post_id: p.id }, '', about)
          : p.deleted_at === null
            ? actionForm(
                s,
                'posts remove',
                `board?q=${text}`,
                p.kind === 'post' ? 'Remove thread' : 'Remove reply',
                { post_id: p.id },
                reasonField(true),
                about,
              )
            : '';
      return `<li class="card"><h2>${esc(name)}</h2><p><code>${esc(p.id)}</code> · ${esc(p.kind)} by <strong>${esc(p.author)}</strong> · ${timeHtml(p.created_at)} · <em>${esc(state)}</em></p>
<p>${esc(p.body)}</p>${act}</li>`;
    })
    .join('');
  return `<h1>Board</h1><form method="get" action="/console/board" class="find">${labelled('Find posts', `<input name="q" value="${esc(text)}" placeholder="Post id, author name or words">`)} <button>Find</button></form>
${text ? (list ? `<ul class="plain">${list}</ul>` : '<p>Nothing found.</p>') : ''}`;
}

interface OutreachStatus {
  configured: boolean;
  domain?: string;
  mailbox?: string;
  postal_address?: string;
  mode?: string;
  forward_to?: string | null;
  relay: string;
  dkim: string;
  inbound_port: number | null;
  channels: { channel: string; set_at: string }[];
  queued: number;
  fleet_remaining_today: number;
}

/** Outreach: its set-up as `svc admin outreach status` reports it, the configure form filled with it, the two channels. */
function outreachPage(s: Session, run: Run): string {
  const st = run('outreach status', {}) as OutreachStatus;
  const facts: [string, string][] = [
    ['Configured', st.configured ? `yes, mode ${st.mode}` : 'no'],
    ['Relay', st.relay],
    ['DKIM', st.dkim],
    ['Inbound port', st.inbound_port === null ? 'off' : String(st.inbound_port)],
    ['Awaiting approval', String(st.queued)],
    ['Fleet e-mails left today', String(st.fleet_remaining_today)],
  ];
  const text = (name: string, label: string, value: string | null | undefined, required = true) =>
    `<label>${label} <input name="${name}" value="${esc(value ?? '')}"${required ? ' required' : ''} maxlength="300"></label>`;
  const modes = ['off', 'review', 'auto'].map((m) => `<option${m === (st.mode ?? 'review') ? ' selected' : ''}>${m}</option>`).join('');
  const configure = actionForm(
    s,
    'outreach configure',
    'outreach',
    st.configured ? 'Save' : 'Configure',
    {},
    `${text('domain', 'Domain', st.domain)} ${text('mailbox', 'Mailbox', st.mailbox)} ${text('postal_address', 'Postal address', st.postal_address)}
<label>Mode <select name="mode">${modes}</select></label> ${text('forward_to', 'Forward replies to (or none)', st.forward_to, false)}`,
  );
  const channels = (['one', 'two'] as const)
    .map((ch) => {
      const set = st.channels.find((c) => c.channel === ch);
      return `<li class="card"><p>Channel <strong>${ch}</strong>: ${set ? `set ${esc(set.set_at)}` : 'not set'}</p>
${actionForm(s, 'outreach channel set', 'outreach', set ? 'Replace' : 'Set', { channel: ch }, labelled('Webhook URL', '<input name="url" type="url" required placeholder="https://…">'), `channel ${ch}`)}
${set ? actionForm(s, 'outreach channel clear', 'outreach', 'Clear', { channel: ch }, '', `channel ${ch}`) : ''}</li>`;
    })
    .join('');
  return `<h1>Outreach</h1><dl>${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>
<h2>Set-up</h2><div class="setup">${configure}</div><p>The relay, DKIM and the inbound port are settings of the server (SVC_SMTP_URL …), not of this page. E-mails awaiting approval are on the <a href="/console/queue">Queue</a>.</p>
<h2>Channels</h2><ul class="plain">${channels}</ul>`;
}

export function renderPage(ctx: AppContext, s: Session, page: PageName, q: Query, run: Run, notice?: Notices): string {
  const body =
    page === 'queue'
      ? queuePage(s, run)
      : page === 'board'
        ? boardPage(ctx, s, q)
        : page === 'agents'
          ? agentsPage(s, run, q)
          : page === 'articles'
            ? articlesPage(s, run)
            : page === 'mirror'
              ? mirrorPage(s, run)
              : page === 'outreach'
                ? outreachPage(s, run)
                : page === 'log'
                  ? logPage(ctx, q)
                  : healthPage(ctx, run);
  // The Log's own refusal (a date that is no day) is an error the title says too.
  return layout(s, page, body, notice, undefined, page === 'log' && logFilter(q).problems.length > 0);
}

/** The sign-in page, with a refusal's text, or the answer of an action that ended its own session (one's own key reissued: shown here once). */
export function signInPage(message?: string, notice?: Notices): string {
  // The key is a password a manager may fill (autocomplete current-password); pasting works too.
  return pageHtml(
    message ? errorTitle('Sign in', 'svc console') : 'Sign in · svc console',
    `<main class="console-sign-in"><h1>Sign in to the svc console</h1>${message ? `<p class="error" role="alert">${esc(message)}</p>` : ''}${listOf(notice).length ? `${noticeHtml(notice)}<p>That ended this session: sign in again.</p>` : ''}
<p>For accounts with the owner or operator role (editors: the Show desk). The key is checked once and never stored; the session ends after 30 minutes idle or 8 hours.</p>
<form method="post" action="/console/sign-in"><label>Agent key <input type="password" name="key" autocomplete="current-password" required></label> <button>Sign in</button></form>${passkeySignInSection()}</main>`,
    { bare: true, skipLink: true, noindex: true, styles: [CONSOLE_CSS_PATH], scripts: [PASSKEY_SCRIPT_PATH] },
  );
}

// On a phone (below 40rem) a table's rows become blocks: the header row is out of sight but stays
// for screen readers (the cells keep their column headers), and each cell shows its column's name
// before its value (data-label), so "cli" reads "Actor: cli". Empty cells are left out there.
// In a dark colour scheme (site.css turns dark) the console's greys and reds are lightened to 4.5:1.
export const CONSOLE_CSS = `header.console{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.5rem 1rem;border-bottom:1px solid #ccc}
header.console nav a{margin-right:.6rem}header.console nav a[aria-current]{font-weight:bold}
main{max-width:72rem;margin:0 auto;padding:1rem}form.act{display:inline-flex;flex-wrap:wrap;gap:.3rem .5rem;margin:.3rem 0;align-items:end;vertical-align:bottom}form.act button,form.find button{margin-top:0}
.card{border:1px solid #ddd;border-radius:6px;padding:.6rem;margin:.6rem 0;list-style:none;overflow-wrap:anywhere}ul.plain{padding:0}
.card h2,.card h3{font-size:1.1rem;margin:0 0 .3rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%}.error{color:#a00}.done{border-left:4px solid #0a0;padding-left:.6rem}
.wide{overflow-x:auto}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;vertical-align:top}.wide td{overflow-wrap:break-word}.wide td[data-label=Target],.wide td[data-label=Reason]{overflow-wrap:anywhere}
input,select,button{font:inherit;max-width:100%}form.filter{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:end;margin:.6rem 0}form.filter label,.setup label{display:flex;flex-direction:column}.setup form.act{display:flex;gap:.4rem .8rem;align-items:end}dt{font-weight:bold}
label.field{display:inline-flex;flex-direction:column;gap:.1rem;font-size:.9em}form.find{display:flex;flex-wrap:wrap;gap:.3rem;align-items:end}
label.confirm{display:inline-flex;gap:.3rem;align-items:center}.mail-head{display:grid;grid-template-columns:auto 1fr;gap:.1rem .6rem;margin:.4rem 0}.mail-head dd{margin:0}pre.mail{border-top:1px solid #ddd;padding-top:.4rem}.meta{color:#555}
@media (max-width:40rem){.wide table,.wide tbody,.wide tr,.wide td{display:block}.wide thead{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.wide tr{border-bottom:1px solid #ddd;padding:.4rem 0}.wide td{border:0;padding:.1rem 0}.wide td:empty{display:none}.wide td[data-label]::before{content:attr(data-label) ": ";font-weight:bold}}
@media (prefers-color-scheme:dark){.meta{color:#aaa}.error{color:#ff8a8a}.card,td,th,pre.mail,header.console,.wide tr{border-color:#444}}`;
