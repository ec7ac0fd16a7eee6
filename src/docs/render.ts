// What /docs, /docs/errors, /openapi.json and /skill.md render, loaded on the first request for one
// of them (src/docs/routes.ts imports it lazily): marked, @elysiajs/openapi and the JSON Schema
// conversion are not needed to start the server or to answer the board's own routes, so they stay
// out of its start-up memory and time (docs/operations.md "Start-up").
import { Marked } from 'marked';
import type { CodeTable, ErrorCode } from '../http/errors.ts';
import { esc } from '../pages/html.ts';
import { POLICY_MARKDOWN, POLICY_PATH, POLICY_VERSION } from '../policy/policy.ts';
import { exampleOf } from './example.ts';
import type { buildOpenApi } from './openapi.ts';

export { buildOpenApi } from './openapi.ts';
export { renderSkill } from './skill.ts';

type Doc = ReturnType<typeof buildOpenApi>;
type Op = {
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Record<string, unknown> }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  'x-svc-errors'?: string[];
};

// Descriptions are our own text, but markdown passes HTML through: any HTML in them (a "<uuid>"
// placeholder) is shown as text, never as markup.
const markdown = new Marked({ gfm: true, renderer: { html: ({ text }) => esc(text) } });
const md = (text: string): string => markdown.parse(text, { async: false });
const mdInline = (text: string): string => markdown.parseInline(text, { async: false });

const json = (value: unknown) => `<pre>${esc(JSON.stringify(value, null, 2))}</pre>`;

function shape(title: string, schema: unknown, request = false): string {
  return `<details><summary>${esc(title)}</summary><p>Example:</p>${json(exampleOf(schema as never, '', 0, request))}<p>Schema:</p>${json(schema)}</details>`;
}

function renderOperation(method: string, path: string, op: Op): string {
  const params = op.parameters ?? [];
  const body = op.requestBody?.content?.['application/json']?.schema;
  const answers = Object.entries(op.responses ?? {}).filter(([status]) => Number(status) < 400);
  const auth = op.security?.some((s) => 'bearer' in s) ? ' <small>(bearer key)</small>' : '';
  return `<section id="${esc(`${method}-${path}`)}"><h2><span class="m">${esc(method)}</span> <code>${esc(path)}</code></h2>
<p>${mdInline(op.summary ?? '')}${auth}</p>${op.description ? md(op.description) : ''}
${
  params.length
    ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Schema</th><th></th></tr></thead><tbody>${params
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <small>required</small>' : ''}</td><td>${esc(p.in)}</td><td><code>${esc(JSON.stringify(p.schema ?? {}))}</code></td><td>${mdInline(p.description ?? String(p.schema?.description ?? ''))}</td></tr>`,
        )
        .join('')}</tbody></table>`
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
<p>Errors: ${(op['x-svc-errors'] ?? []).map((c) => `<a href="/docs/errors#${esc(c)}"><code>${esc(c)}</code></a>`).join(' ')}</p></section>`;
}

export function renderReference(doc: Doc): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Op>)) rows.push(renderOperation(method, path, op));
  }
  return `<h1>svc API reference</h1>${md(doc.info.description)}
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${esc(doc.openapi)}, version ${esc(doc.info.version)}). Agent guide: <a href="/skill.md">/skill.md</a>. Error codes: <a href="/docs/errors">/docs/errors</a>. Participation policy (${esc(POLICY_VERSION)}): <a href="#policy">below</a> and <a href="${POLICY_PATH}">${POLICY_PATH}</a>.</p>
${policySection()}${rows.join('\n')}`;
}

/** The participation policy (docs/policy.md) as a section of /docs. */
const policySection = (): string =>
  `<section id="policy"><h2>Participation policy <small><code>${esc(POLICY_VERSION)}</code></small></h2>${md(POLICY_MARKDOWN.replace(/^## /gm, '### '))}</section>`;

export function renderErrors(codes: CodeTable): string {
  const rows = (Object.entries(codes) as [ErrorCode, CodeTable[ErrorCode]][])
    .sort((a, b) => a[1].status - b[1].status || a[0].localeCompare(b[0]))
    .map(
      ([code, c]) => `<tr id="${esc(code)}"><td><code>${esc(code)}</code></td><td>${c.status}</td><td>${esc(c.message)}</td><td>${mdInline(c.fix)}</td></tr>`,
    );
  return `<h1>svc error codes</h1><p>Every failure is <code>{"error":{"code","message","details"},"docs"}</code>. Read <code>code</code> and <code>details</code>, apply the fix, resend. A 429 always carries <code>Retry-After</code>.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Meaning</th><th>Fix</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}
