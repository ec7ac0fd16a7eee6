// The console's Log: the whole audit log, newest first, 100 a page, filtered by a GET form (no
// script): action, actor (the signed-in account's name, or cli for the shell), a part of the
// target, and a date range in UTC days (from and to both included). Paging keeps the filters.
import { type AuditFilter, auditEntries } from '../../actions/audit.ts';
import type { AppContext } from '../../context.ts';
import { esc, timeHtml } from '../../pages/html.ts';

const PAGE = 100;
const DAY_MS = 86_400_000;
type Query = Record<string, string | undefined>;

export type LogFilter = AuditFilter;

/** A YYYY-MM-DD day as the UTC midnight it starts at; `undefined` when the text is no such day. */
function day(text: string | undefined): number | null | undefined {
  const t = (text ?? '').trim();
  if (!t) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(t)) return undefined;
  const ms = Date.parse(`${t}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== t ? undefined : ms;
}

/** The filter a query asks for, and the text of what in it is not understood. */
export function logFilter(q: Query): { filter: LogFilter; problems: string[] } {
  const text = (k: string) => (q[k] ?? '').trim() || null;
  const from = day(q.from);
  const to = day(q.to);
  const problems = [...(from === undefined ? ['from: not a day (YYYY-MM-DD)'] : []), ...(to === undefined ? ['to: not a day (YYYY-MM-DD)'] : [])];
  return {
    filter: { action: text('action'), actor: text('actor'), target: text('target'), from: from ?? null, to: to == null ? null : to + DAY_MS },
    problems,
  };
}

const keep = (q: Query, extra: Record<string, string>) =>
  new URLSearchParams(
    Object.entries({ ...q, ...extra }).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '' && e[0] !== 'before'),
  ).toString();

// Each cell carries its column's name (data-label): on a phone the header row is out of sight and
// the console's stylesheet shows the name before the value (pages.ts, CONSOLE_CSS).
export function logPage(ctx: AppContext, q: Query): string {
  const before = Number(q.before ?? Number.MAX_SAFE_INTEGER);
  const { filter: f, problems } = logFilter(q);
  const rows = auditEntries(ctx, Number.isSafeInteger(before) ? before : Number.MAX_SAFE_INTEGER, f, PAGE + 1);
  const shown = rows.slice(0, PAGE);
  const body = shown
    .map(
      (r) =>
        `<tr><td data-label="Time">${timeHtml(r.at)}</td><td data-label="Actor">${esc(r.actor)}</td><td data-label="Action">${esc(r.action)}</td><td data-label="Target"><code>${esc(r.target)}</code></td><td data-label="Reason">${esc(r.reason ?? '')}</td><td data-label="Moderation log">${r.modlog ? 'public' : ''}</td></tr>`,
    )
    .join('');
  const more = rows.length > PAGE ? `<p><a href="/console/log?${esc(keep(q, { before: '' }))}&amp;before=${shown.at(-1)!.seq}">Older</a></p>` : '';
  const names = [...new Set(ctx.parts.actions.map((a) => a.name))].sort();
  const options = ['', ...names]
    .map((n) => `<option value="${esc(n)}"${n === (f.action ?? '') ? ' selected' : ''}>${esc(n || 'any action')}</option>`)
    .join('');
  const field = (name: string, label: string, type = 'text', value = q[name] ?? '') =>
    `<label>${label} <input type="${type}" name="${name}" value="${esc(value)}"></label>`;
  const form = `<form method="get" action="/console/log" class="filter"><label>Action <select name="action">${options}</select></label>
${field('actor', 'Actor')} ${field('target', 'Target contains')} ${field('from', 'From', 'date')} ${field('to', 'To', 'date')} <button>Filter</button> <a href="/console/log">All</a></form>`;
  const errors = problems.length ? `<p class="error" role="alert">${esc(problems.join('; '))}</p>` : '';
  return `<h1>Log</h1><p>Every operator action that changed something, from the shell (actor cli) and from here. Public ones are also in the <a href="/modlog">moderation log</a>.</p>
${form}${errors}<div class="wide"><table><thead><tr><th>Time</th><th>Actor</th><th>Action</th><th>Target</th><th>Reason</th><th><span class="visually-hidden">Moderation log</span></th></tr></thead><tbody>${body}</tbody></table></div>${shown.length ? '' : '<p>No entries match.</p>'}${more}`;
}
