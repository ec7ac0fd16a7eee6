// The console's forms: each runs one operator action (POST /console/act/<action>) with the
// session's CSRF token. Apart from pages.ts so that each page's module can use it without a cycle.
import { esc } from '../../pages/html.ts';
import type { Session } from './session.ts';

/** How a page reads through an action (read actions write no audit row). */
export type Run = (name: string, input: Record<string, unknown>) => unknown;

/** A form that runs one action; `fields` are hidden inputs, `inputs` visible ones (already HTML). */
export function actionForm(s: Session, name: string, back: string, label: string, fields: Record<string, string>, inputs = ''): string {
  const hidden = Object.entries({ csrf: s.csrf, back, ...fields })
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  return `<form method="post" action="/console/act/${esc(name.replace(/ /g, '-'))}" class="act">${hidden}${inputs}<button>${esc(label)}</button></form>`;
}
