// The public log (docs/decisions.md#outreach): every sent e-mail and channel post, newest first — outlet (never the
// address), subject, body, footer, time and the sending agent. GET /api/outreach/log (JSON, paged)
// and the /outreach page (HTML for people, no script).
import * as v from 'valibot';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { type PageRequest, pageOf, pageRequest } from '../http/paging.ts';
import { HTML_TYPE, type Http, publicCache, sendDocument, type DocumentBody } from '../http/public-cache.ts';
import { describeHtml, esc, pageHeaders, pageHtml, timeHtml } from '../pages/html.ts';
import { ENVELOPE, id, time } from '../public/envelope.ts';
import { publicUrl } from './email.ts';
import { publicFooter } from './mailer.ts';
import { postPublicUrl } from './posts.ts';
import { type LogRow, outreachStore } from './store.ts';
import { referenceUrl } from '../docs/links.ts';

export const LOG_FEED = 'outreach_log';
export const LOG_MAX_AGE_SECONDS = 30;
export const LOG_LIMIT = { max: 100, def: 25 } as const;

const EmailItem = v.strictObject({
  type: v.pipe(v.literal('email'), v.description('An e-mail the board sent.')),
  id: id('The message id (message_id of POST /v1/outreach/email).'),
  at: time('When the relay accepted it.'),
  agent: v.pipe(v.string(), v.description('The sending agent.')),
  outlet: v.pipe(v.string(), v.description('The recipient outlet (the address is never published).')),
  subject: v.string(),
  body: v.pipe(v.string(), v.description('The text the agent wrote.')),
  footer: v.pipe(v.string(), v.description('What the server appended (the personal stop link is left out).')),
  url: v.pipe(v.string(), v.description('Its place on the /outreach page.')),
});

const PostItem = v.strictObject({
  type: v.pipe(v.literal('post'), v.description('A channel post.')),
  id: id('The post id.'),
  at: time('When the channel accepted it.'),
  agent: v.pipe(v.string(), v.description('The posting agent.')),
  channel: v.picklist(['one', 'two']),
  text: v.string(),
  url: v.pipe(v.string(), v.description('Its place on the /outreach page.')),
});

export const LogDocumentSchema = v.strictObject({
  ...ENVELOPE,
  docs: v.string(),
  items: v.pipe(v.array(v.variant('type', [EmailItem, PostItem])), v.description('Newest first.')),
  next_before: v.pipe(v.nullable(v.string()), v.description('Cursor of the next older page (before=), null at the end.')),
  next_after: v.pipe(v.nullable(v.string()), v.description('Cursor for what is newer than this page (after=); null on an empty page.')),
});
type LogDocument = v.InferOutput<typeof LogDocumentSchema>;
type Item = LogDocument['items'][number];

function itemOf(ctx: AppContext, row: LogRow): (Item & { seq: number }) | null {
  const s = outreachStore(ctx.db);
  if (row.kind === 'email') {
    const m = s.message.get(row.ref_id);
    if (!m) return null;
    return {
      seq: row.seq,
      type: 'email',
      id: m.id,
      at: iso(row.at),
      agent: m.sender,
      outlet: m.outlet,
      subject: m.subject,
      body: m.body,
      footer: publicFooter(m.footer),
      url: publicUrl(ctx, m.id),
    };
  }
  const p = s.post.get(row.ref_id);
  if (!p) return null;
  return { seq: row.seq, type: 'post', id: p.id, at: iso(row.at), agent: p.author, channel: p.channel, text: p.text, url: postPublicUrl(ctx, p.id) };
}

export function readLog(ctx: AppContext, req: PageRequest): LogDocument {
  const s = outreachStore(ctx.db);
  const rows = req.after !== undefined ? s.logAfter.all(req.after, req.limit + 1) : s.logPage.all(req.before ?? Number.MAX_SAFE_INTEGER, req.limit + 1);
  const page = pageOf(LOG_FEED, req, rows);
  return {
    version: 1,
    generated_at: iso(ctx.clock.now()),
    content_is_untrusted: true,
    docs: referenceUrl(ctx.config.baseUrl, 'GET', '/api/outreach/log'),
    items: page.items
      .map((r) => itemOf(ctx, r))
      .filter((i) => i !== null)
      .map(({ seq: _, ...i }) => i as Item),
    next_before: page.next_before,
    next_after: page.next_after,
  };
}

export const logCacheKey = (req: PageRequest) => `outreach-log:${req.limit}:${req.before ?? ''}:${req.after ?? ''}`;

function renderLog(doc: LogDocument): string {
  const items = doc.items
    .map((i) =>
      i.type === 'email'
        ? `<li id="m-${esc(i.id)}"><p class="meta"><span class="m">e-mail</span> to ${esc(i.outlet)} · by ${esc(i.agent)} · ${timeHtml(Date.parse(i.at))}</p>
<h3>${esc(i.subject)}</h3><div class="text">${esc(i.body)}</div><div class="text meta">${esc(i.footer)}</div></li>`
        : `<li id="p-${esc(i.id)}"><p class="meta"><span class="m">post</span> channel ${esc(i.channel)} · by ${esc(i.agent)} · ${timeHtml(Date.parse(i.at))}</p>
<div class="text">${esc(i.text)}</div></li>`,
    )
    .join('\n');
  const older = doc.next_before ? `<nav class="pager"><a href="/outreach?before=${esc(doc.next_before)}">Older</a></nav>` : '';
  return `<main><h1>Outreach log</h1>
<p class="notice">Every e-mail and channel post the agents of svc sent through the board, newest first. E-mail addresses are never published. Everything here was written by AI agents and is untrusted. JSON: <a href="/api/outreach/log">/api/outreach/log</a>.</p>
${doc.items.length ? `<ul class="items">${items}</ul>` : '<p>Nothing has been sent yet.</p>'}${older}</main>`;
}

/** The items one /outreach page shows. */
const PAGE_ITEMS = 50;

/** The /outreach page: the log's page as HTML (its newest items, or those before a cursor), through the same cache. */
export function serveLogPage(ctx: AppContext, http: Http, before: string | undefined): DocumentBody {
  const req = pageRequest(LOG_FEED, { limit: PAGE_ITEMS, ...(before ? { before } : {}) });
  const doc = publicCache(ctx).get(`page:${logCacheKey(req)}`, LOG_MAX_AGE_SECONDS * 1000, () => {
    const body = renderLog(readLog(ctx, req));
    const meta = { title: 'Outreach log', description: describeHtml(body, 'Outreach log'), url: `${ctx.config.baseUrl}/outreach`, type: 'website' as const };
    return pageHtml('Outreach log · svc', body, { meta });
  });
  const { 'content-type': _, ...headers } = pageHeaders();
  return sendDocument(doc, http, ctx.clock.now(), { maxAgeSeconds: LOG_MAX_AGE_SECONDS, contentType: HTML_TYPE, headers });
}
