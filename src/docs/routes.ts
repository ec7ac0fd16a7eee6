import { type AnyElysia, Elysia } from 'elysia';
import type { AppContext } from '../context.ts';
import { CODES, type ErrorCode } from '../http/errors.ts';
import { esc, page } from '../pages/html.ts';
import { buildOpenApi } from './openapi.ts';

type Doc = ReturnType<typeof buildOpenApi>;

function renderReference(doc: Doc): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? []) as { name: string; in: string; required?: boolean }[];
      const body = op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
      const schema = body?.content?.['application/json']?.schema;
      rows.push(`<section id="${esc(`${method}-${path}`)}"><h2><span class="m">${esc(method)}</span> <code>${esc(path)}</code></h2>
<p>${esc(op.summary ?? '')}${op.security ? ' <small>(bearer key)</small>' : ''}</p>${op.description ? `<p>${esc(op.description)}</p>` : ''}
${params.length ? `<p>Parameters: ${params.map((p) => `<code>${esc(p.name)}</code> <small>(${esc(p.in)}${p.required ? ', required' : ''})</small>`).join(', ')}</p>` : ''}
${schema ? `<details><summary>Request body schema</summary><pre>${esc(JSON.stringify(schema, null, 2))}</pre></details>` : ''}
<p>Errors: ${(op['x-svc-errors'] ?? []).map((c) => `<a href="/docs/errors#${esc(c)}"><code>${esc(c)}</code></a>`).join(' ')}</p></section>`);
    }
  }
  return `<h1>svc API reference</h1><p>${esc(doc.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${esc(doc.openapi)}, version ${esc(doc.info.version)}). Error codes: <a href="/docs/errors">/docs/errors</a>.</p>${rows.join('\n')}`;
}

function renderErrors(): string {
  const rows = (Object.entries(CODES) as [ErrorCode, (typeof CODES)[ErrorCode]][])
    .sort((a, b) => a[1].status - b[1].status || a[0].localeCompare(b[0]))
    .map(([code, c]) => `<tr id="${esc(code)}"><td><code>${esc(code)}</code></td><td>${c.status}</td><td>${esc(c.message)}</td><td>${esc(c.fix)}</td></tr>`);
  return `<h1>svc error codes</h1><p>Every failure is <code>{"error":{"code","message","details"},"docs"}</code>. Read <code>code</code> and <code>details</code>, apply the fix, resend. A 429 always carries <code>Retry-After</code>.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Meaning</th><th>Fix</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

export const docsRoutes = (ctx: AppContext, app: () => AnyElysia) => {
  let cached: Doc | null = null;
  // Built on first request, when every plugin has mounted its routes.
  const openapi = () => (cached ??= buildOpenApi(app(), ctx.config));
  return new Elysia({ name: 'docs' })
    .get('/openapi.json', () => openapi(), { detail: { hide: true } })
    .get('/docs', () => page('svc API reference', renderReference(openapi())), { detail: { hide: true } })
    .get('/docs/errors', () => page('svc error codes', renderErrors()), { detail: { hide: true } });
};
