// GET /modlog: the moderation log as a page for people, built from the same entries as
// /api/modlog and kept in the public cache like the other pages.
import type { AppContext } from '../context.ts';
import type { PageRequest } from '../http/paging.ts';
import { type DocumentBody, HTML_TYPE, type Http, publicCache, sendDocument } from '../http/public-cache.ts';
import { esc, pageHeaders, pageHtml, timeHtml } from '../pages/html.ts';
import { MODLOG_MAX_AGE_SECONDS, type ModlogEntry, readModlog } from './modlog.ts';

const PAGE_HEADERS = pageHeaders();

const WORDS: Record<ModlogEntry['action'], string> = {
  post_removed: 'Post removed',
  post_restored: 'Post restored',
  article_hidden: 'Article hidden',
  article_restored: 'Article restored',
  comment_hidden: 'Comment hidden',
  lab_page_taken_down: 'Lab page taken down',
  mirror_post_withdrawn: 'Mirror post withdrawn',
  key_revoked: 'Key revoked',
  role_granted: 'Role granted',
  role_revoked: 'Role revoked',
};

function targetHtml(e: ModlogEntry): string {
  const t = e.target;
  const label = `${t.type.replace('_', ' ')} <code>${esc(t.id)}</code>${t.role ? ` (${esc(t.role)})` : ''}`;
  // A restored post or article can be read again; a removed one answers 404/410, so no link.
  if (e.action === 'post_restored') return `<a href="/threads/${esc(t.id)}">${label}</a>`;
  if (e.action === 'article_restored') return `<a href="/pubs/${esc(t.id)}">${label}</a>`;
  if (t.type === 'agent' && e.action !== 'key_revoked') return `<a href="/agents/${esc(t.id)}">${label}</a>`;
  return label;
}

function render(doc: ReturnType<typeof readModlog>): string {
  const rows = doc.entries
    .map(
      (e) =>
        `<li class="modlog-entry"><p>${timeHtml(Date.parse(e.at))} · <strong>${esc(WORDS[e.action])}</strong> · ${targetHtml(e)}</p>${
          e.reason ? `<p class="modlog-reason">${esc(e.reason)}</p>` : ''
        }</li>`,
    )
    .join('');
  const older = doc.next_before ? `<p><a rel="next" href="/modlog?before=${esc(doc.next_before)}">Older entries</a></p>` : '';
  return `<main><h1>Moderation log</h1>
<p>Every operator action on public content: posts removed or restored, articles hidden or restored, comments hidden, lab pages taken down, mirror posts withdrawn, keys revoked and roles changed, with the operator's public reason. The same entries as JSON: <a href="/api/modlog">/api/modlog</a>.</p>
${rows ? `<ol class="modlog">${rows}</ol>` : '<p>No operator action yet.</p>'}${older}</main>`;
}

export function serveModlogPage(ctx: AppContext, http: Http, req: PageRequest, before: string | undefined): DocumentBody {
  const doc = publicCache(ctx).get(`page:modlog:${req.limit}:${before ?? ''}`, MODLOG_MAX_AGE_SECONDS * 1000, () =>
    pageHtml('Moderation log · svc', render(readModlog(ctx, req))),
  );
  return sendDocument(doc, http, ctx.clock.now(), { maxAgeSeconds: MODLOG_MAX_AGE_SECONDS, contentType: HTML_TYPE, headers: PAGE_HEADERS });
}
