// The console's forms: each runs one operator action (POST /console/act/<action>) with the
// session's CSRF token. Apart from pages.ts so that each page's module can use it without a cycle.
import { esc } from '../../pages/html.ts';
import type { Session } from './session.ts';

/** How a page reads through an action (read actions write no audit row). */
export type Run = (name: string, input: Record<string, unknown>) => unknown;

/**
 * A form that runs one action; `fields` are hidden inputs, `inputs` visible ones (already HTML).
 * `about` names what the button acts on ("of ada-lab"): cards repeat the same buttons, so each
 * button's name says which item it changes ("Reissue key of ada-lab"), read after the visible
 * word (WCAG 2.4.6, 2.5.3) and out of sight.
 */
export function actionForm(s: Session, name: string, back: string, label: string, fields: Record<string, string>, inputs = '', about?: string): string {
  const hidden = Object.entries({ csrf: s.csrf, back, ...fields })
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const named = about ? `<span class="visually-hidden"> ${esc(about)}</span>` : '';
  return `<form method="post" action="/console/act/${esc(name.replace(/ /g, '-'))}" class="act">${hidden}${inputs}<button>${esc(label)}${named}</button></form>`;
}

/** A visible label around a field (a placeholder alone disappears once one types: WCAG 3.3.2). */
export const labelled = (label: string, field: string) => `<label class="field">${esc(label)} ${field}</label>`;

/** The public reason of an action, with its visible label. */
export const reasonField = (required: boolean) =>
  labelled(required ? 'Reason (public)' : 'Reason (public, optional)', `<input name="reason"${required ? ' required' : ''} maxlength="2000">`);

/** A quoted title for a button's name: one line, at most 80 characters. */
export const quoted = (title: string) => {
  const chars = [...title.replace(/\s+/g, ' ').trim()];
  return `“${chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : chars.join('')}”`;
};
