// What every page of /docs but the contents starts with: where it sits, and the search box.
import { esc } from '../pages/html.ts';
import { SEARCH_PATH } from './links.ts';

/** The search box (a plain GET form: it works without JavaScript). */
export const searchForm = (q = ''): string =>
  `<form class="docs-search" role="search" method="get" action="${SEARCH_PATH}"><label for="docs-q">Search the documentation</label> <input type="search" id="docs-q" name="q" value="${esc(q)}" maxlength="200"> <button type="submit">Search</button></form>`;

/** The line above every page of /docs but the contents: where it sits (each step a link when it has one), and the search box. */
export const docsHeader = (crumbs: { label: string; href?: string }[], q = ''): string =>
  `<p class="meta"><a href="/docs">Documentation</a>${crumbs.map((c) => ` › ${c.href ? `<a href="${esc(c.href)}">${esc(c.label)}</a>` : esc(c.label)}`).join('')}</p>${searchForm(q)}`;
