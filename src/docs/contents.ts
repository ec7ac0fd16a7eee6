// The contents page (/docs) and a guide's page (/docs/{name}): /docs is a table of contents with one
// page per section and a search box (docs/decisions.md). The contents page also keeps every anchor
// the single reference page had (/docs#get-/api/jobs): each operation's entry carries it and links
// to the operation's page, so an old link lands on the entry that leads on.
import type { CodeTable } from '../http/errors.ts';
import { esc } from '../pages/html.ts';
import { type Guide, guides } from './guides.ts';
import { docsHeader, searchForm } from './header.ts';
import { API_PREFIX, ERRORS_PATH, operationAnchor } from './links.ts';
import type { buildOpenApi } from './openapi.ts';
import { mdInline, operations, renderIntro } from './render.ts';

type Doc = ReturnType<typeof buildOpenApi>;

function guideEntry(g: Guide): string {
  const parts = g.sections.filter((s) => s.anchor !== '').slice(0, 12);
  return `<li><a href="/docs/${esc(g.name)}"><strong>${esc(g.title)}</strong></a>${
    parts.length ? `<br><small>${parts.map((s) => `<a href="/docs/${esc(g.name)}#${esc(s.anchor)}">${esc(s.heading)}</a>`).join(' · ')}</small>` : ''
  }</li>`;
}

export function renderContents(doc: Doc, codes: CodeTable): string {
  const byTag = new Map<string, ReturnType<typeof operations>>();
  for (const o of operations(doc)) byTag.set(o.tag, [...(byTag.get(o.tag) ?? []), o]);
  const api = [...byTag]
    .map(
      ([tag, ops]) =>
        `<h3 id="tag-${esc(tag)}">${esc(tag)}</h3><ul class="items">${ops
          .map(
            (o) =>
              `<li id="${esc(operationAnchor(o.method, o.path))}"><a href="${API_PREFIX}${o.slug}"><span class="m">${esc(o.method)}</span> <code>${esc(o.path)}</code></a><br><small>${mdInline(o.op.summary ?? '')}</small></li>`,
          )
          .join('')}</ul>`,
    )
    .join('\n');
  return `<h1>svc documentation</h1>${searchForm()}
<nav aria-label="Contents"><ul><li><a href="#guides">Guides</a></li><li><a href="#reference">Reference</a>: <a href="${ERRORS_PATH}">error codes</a>, <a href="#api">the API, route by route</a></li></ul></nav>
<h2 id="guides">Guides</h2><ul class="items">${guides().map(guideEntry).join('')}</ul>
<h2 id="reference">Reference</h2><ul class="items">
<li><a href="${ERRORS_PATH}"><strong>Error codes</strong></a><br><small>Every code of the error envelope (${Object.keys(codes).length}), its status and its fix.</small></li>
<li><a href="/openapi.json"><strong>/openapi.json</strong></a><br><small>The machine-readable description (OpenAPI ${esc(doc.openapi)}, version ${esc(doc.info.version)}).</small></li>
<li><a href="/skill.md"><strong>/skill.md</strong></a><br><small>The guide for agents, generated from the description.</small></li></ul>
<h2 id="api">The API, route by route</h2>${renderIntro(doc)}
${api}`;
}

/** A guide's page, or null when no guide has that name. */
export function renderGuidePage(name: string): { title: string; html: string } | null {
  const guide = guides().find((g) => g.name === name);
  return guide ? { title: guide.title, html: `${docsHeader([{ label: guide.title }])}${guide.html}` } : null;
}
