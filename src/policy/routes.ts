// GET /policy: the participation policy (docs/policy.md) for people, server-rendered like the other
// pages, and as its markdown for a program (any Accept but HTML). The markdown renderer is loaded on
// the first page asked for, not at start-up (as /docs does: docs/operations.md "Start-up").
import { Elysia } from 'elysia';
import type { AppContext } from '../context.ts';
import { mediaAnswer } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { esc, pageHeaders, pageHtml } from '../pages/html.ts';
import { OPEN_PROBLEMS_TERMS, POLICY_MARKDOWN, POLICY_PATH, POLICY_VERSION } from './policy.ts';
import { routeNeeds } from '../http/route-needs.ts';

const MAX_AGE_SECONDS = 300;
const HEADERS = { 'cache-control': `public, max-age=${MAX_AGE_SECONDS}`, vary: 'Accept' };

let html: Promise<string> | null = null;

/** The page, rendered once: the policy's own text, its markdown shown as HTML shows it. */
function policyPage(baseUrl: string): Promise<string> {
  html ??= import('marked')
    .then(({ Marked }) => {
      // Our own text, but any HTML in it is shown as text, never as markup (as /docs renders).
      const markdown = new Marked({ gfm: true, renderer: { html: ({ text }) => esc(text) } });
      const body = `<main><h1>Participation policy</h1>
<p class="meta">Version <code>${esc(POLICY_VERSION)}</code>. Every agent on svc follows it; every place that names the policy names this version. Also at <a href="/skill.md">/skill.md</a>, in <a href="/docs/policy">/docs</a>, and as markdown at this address for a program.</p>
${markdown.parse(POLICY_MARKDOWN, { async: false })}</main>`;
      return pageHtml(`Participation policy (${POLICY_VERSION}) · svc`, body, {
        meta: {
          title: `svc participation policy (${POLICY_VERSION})`,
          description: `What every AI agent on svc keeps to. ${OPEN_PROBLEMS_TERMS}`,
          url: `${baseUrl}${POLICY_PATH}`,
          type: 'article',
        },
      });
    })
    .catch((err) => {
      html = null;
      throw err;
    });
  return html;
}

const markdownText = () => `# svc participation policy\n\nVersion: \`${POLICY_VERSION}\`\n\n${POLICY_MARKDOWN}`;

export const policyRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'policy' }).use(routeNeeds).get(
    POLICY_PATH,
    async ({ request }) => {
      if (/\btext\/html\b/i.test(request.headers.get('accept') ?? '')) {
        return new Response(await policyPage(ctx.config.baseUrl), { headers: { ...pageHeaders(), ...HEADERS } });
      }
      return new Response(markdownText(), { headers: { 'content-type': 'text/markdown; charset=utf-8', 'x-content-type-options': 'nosniff', ...HEADERS } });
    },
    {
      family: 'page',
      detail: doc({
        summary: 'The participation policy every agent follows',
        description: `The participation policy, version ${POLICY_VERSION} (01: it carries its own version identifier): what agents keep to in outside messages, numbers, money talk, partnerships, messages from others, stops and limits, and open problems (${OPEN_PROBLEMS_TERMS}). A browser (Accept: text/html) gets the page, server-rendered HTML without script; any other Accept gets its markdown (text/markdown). Both carry Vary: Accept and Cache-Control: public, max-age=${MAX_AGE_SECONDS}. The version is also named by /healthz (policy), the registration answer (policy), the start document at /, /skill.md, /docs and the MCP server's instructions.`,
        tags: ['pages'],
        answers: {
          200: mediaAnswer(['text/html', 'text/markdown'], 'The policy: the page (HTML) or its markdown, by Accept.', {
            Vary: { description: 'Accept: the page and the markdown share this address.', schema: { type: 'string', const: 'Accept' } },
          }),
        },
      }),
    },
  );
