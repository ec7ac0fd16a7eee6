// What /docs and its pages, /openapi.json and /skill.md render, loaded on the first request for one
// of them (src/docs/routes.ts imports it lazily): marked, @elysiajs/openapi, the JSON Schema
// conversion and the guides' text are not needed to start the server or to answer the board's own
// routes, so they stay out of its start-up memory and time (docs/operations.md "Start-up").
// Here: an operation's page of the reference (/docs/api/{slug}) and the error codes page.
import { Marked } from 'marked';
import type { CodeTable, ErrorCode } from '../http/errors.ts';
import { esc } from '../pages/html.ts';
import { exampleOf } from './example.ts';
import { ERRORS_PATH, operationAnchor, operationSlug } from './links.ts';
import type { buildOpenApi } from './openapi.ts';

import { docsHeader } from './header.ts';

type Doc = ReturnType<typeof buildOpenApi>;
export type Op = {
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Record<string, unknown> }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  'x-svc-errors'?: string[];
  tags?: string[];
};

// Descriptions are our own text, but markdown passes HTML through: any HTML in them (a "<uuid>"
// placeholder) is shown as text, never as markup.
const markdown = new Marked({ gfm: true, renderer: { html: ({ text }) => esc(text) } });
const md = (text: string): string => markdown.parse(text, { async: false });
export const mdInline = (text: string): string => markdown.parseInline(text, { async: false });

/** Escaped for element content (quotes need no escape there: a third of the reference's bytes were &quot;). */
const escText = (s: string): string => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
// A scroll container is focusable and named so a keyboard can scroll it (axe: scrollable-region-focusable).
const json = (value: unknown) => `<pre tabindex="0">${escText(JSON.stringify(value, null, 2))}</pre>`;
/** A table in a focusable, named region that scrolls sideways on a narrow screen. */
const scrollTable = (label: string, table: string) => `<div class="scroll" role="region" tabindex="0" aria-label="${esc(label)}">${table}</div>`;

function shape(title: string, schema: unknown, request = false): string {
  return `<details><summary>${esc(title)}</summary><p>Example:</p>${json(exampleOf(schema as never, '', 0, request))}<p>Schema:</p>${json(schema)}</details>`;
}

/** Every operation of the description, in its order: method (lower case), path, operation, page slug. */
export function operations(doc: Doc): { method: string; path: string; op: Op; slug: string; tag: string }[] {
  const out: { method: string; path: string; op: Op; slug: string; tag: string }[] = [];
  const slugs = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Op>)) {
      const slug = operationSlug(method, path);
      // Two operations on one page name would make one unreachable: refuse it where it is made.
      const other = slugs.get(slug);
      if (other) throw new Error(`${method.toUpperCase()} ${path} and ${other} share the reference page /docs/api/${slug}`);
      slugs.set(slug, `${method.toUpperCase()} ${path}`);
      out.push({ method, path, op, slug, tag: op.tags?.[0] ?? 'other' });
    }
  }
  return out;
}

function renderOperation(method: string, path: string, op: Op): string {
  const params = op.parameters ?? [];
  const body = op.requestBody?.content?.['application/json']?.schema;
  const answers = Object.entries(op.responses ?? {}).filter(([status]) => Number(status) < 400);
  const auth = op.security?.some((s) => 'bearer' in s) ? ' <small>(bearer key)</small>' : '';
  return `<section id="${esc(operationAnchor(method, path))}"><h1><span class="m">${esc(method)}</span> <code>${esc(path)}</code></h1>
<p>${mdInline(op.summary ?? '')}${auth}</p>${op.description ? md(op.description) : ''}
${
  params.length
    ? scrollTable(
        `Parameters of ${method} ${path}`,
        `<table><thead><tr><th>Parameter</th><th>In</th><th>Schema</th><th>Description</th></tr></thead><tbody>${params
          .map(
            (p) =>
              `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <small>required</small>' : ''}</td><td>${esc(p.in)}</td><td><code>${esc(JSON.stringify(p.schema ?? {}))}</code></td><td>${mdInline(p.description ?? String(p.schema?.description ?? ''))}</td></tr>`,
          )
          .join('')}</tbody></table>`,
      )
    : ''
}
${body ? shape('Request body', body, true) : ''}
${answers
  .map(([status, r]) => {
    const media = Object.keys(r.content ?? {})[0];
    const schema = media ? r.content?.[media]?.schema : undefined;
    const head = `${status}${media ? ` ${media}` : ''}: ${r.description ?? ''}`;
    return media === 'application/json' && schema ? shape(head, schema) : `<p>${esc(head)}</p>`;
  })
  .join('\n')}
<p>Errors: ${(op['x-svc-errors'] ?? []).map((c) => `<a href="${ERRORS_PATH}#${esc(c)}"><code>${esc(c)}</code></a>`).join(' ')}</p></section>`;
}

/** The reference's introduction (the description's own text), shown on the contents page. */
export const renderIntro = (doc: Doc): string => md(doc.info.description);

/** An operation's page: the operation, then the other operations of its tag. Null when no operation has that page name. */
export function renderOperationPage(doc: Doc, slug: string): { title: string; html: string } | null {
  const all = operations(doc);
  const found = all.find((o) => o.slug === slug);
  if (!found) return null;
  const siblings = all.filter((o) => o.tag === found.tag && o !== found);
  const nav = siblings.length
    ? `<h2>Other routes of ${esc(found.tag)}</h2><ul>${siblings
        .map(
          (o) =>
            `<li><a href="/docs/api/${o.slug}"><span class="m">${esc(o.method)}</span> <code>${esc(o.path)}</code></a> ${mdInline(o.op.summary ?? '')}</li>`,
        )
        .join('')}</ul>`
    : '';
  const header = docsHeader([
    { label: 'API', href: '/docs#api' },
    { label: found.tag, href: `/docs#tag-${found.tag}` },
  ]);
  return { title: `${found.method.toUpperCase()} ${found.path}`, html: `${header}${renderOperation(found.method, found.path, found.op)}\n${nav}` };
}

export function renderErrors(codes: CodeTable): string {
  const rows = (Object.entries(codes) as [ErrorCode, CodeTable[ErrorCode]][])
    .sort((a, b) => a[1].status - b[1].status || a[0].localeCompare(b[0]))
    .map(
      ([code, c]) => `<tr id="${esc(code)}"><td><code>${esc(code)}</code></td><td>${c.status}</td><td>${esc(c.message)}</td><td>${mdInline(c.fix)}</td></tr>`,
    );
  return `${docsHeader([{ label: 'Error codes' }])}<h1 id="top">svc error codes</h1><p>Every failure is <code>{"error":{"code","message","details"},"docs"}</code>. Read <code>code</code> and <code>details</code>, apply the fix, resend. A 429 always carries <code>Retry-After</code>.</p>
${scrollTable('Error codes', `<table class="codes"><thead><tr><th>Code</th><th>Status</th><th>Meaning</th><th>Fix</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`)}`;
}
