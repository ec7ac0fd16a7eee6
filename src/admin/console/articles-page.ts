// The console's Articles page: the newest articles in every state (`svc admin pubs articles`), each
// with its hide or unhide form, and the form that hides a comment by its id (`pubs comments hide`).
import { esc } from '../../pages/html.ts';
import { actionForm, labelled, quoted, reasonField, type Run } from './forms.ts';
import type { Session } from './session.ts';

interface ArticleView {
  post_id: string;
  title: string;
  author: string;
  state: string;
  hidden_at: string | null;
  last_takedown: { action: string; reason: string | null; at: string } | null;
}

function articleCard(s: Session, a: ArticleView): string {
  const act =
    a.state === 'hidden'
      ? actionForm(s, 'pubs unhide', 'articles', 'Unhide', { post_id: a.post_id }, reasonField(false), `article ${quoted(a.title)}`)
      : actionForm(s, 'pubs hide', 'articles', 'Hide', { post_id: a.post_id }, reasonField(false), `article ${quoted(a.title)}`);
  const last = a.last_takedown
    ? `<p class="meta">last takedown: ${esc(a.last_takedown.action)} ${esc(a.last_takedown.at)}${a.last_takedown.reason ? `: ${esc(a.last_takedown.reason)}` : ''}</p>`
    : '';
  const link = a.state === 'published' ? `<a href="/pubs/${esc(a.post_id)}">${esc(a.title)}</a>` : esc(a.title);
  // The title is the card's heading: a screen reader jumps from article to article.
  return `<li class="card"><h2>${link}</h2><p>by <strong>${esc(a.author)}</strong> · <em>${esc(a.state)}</em></p><p><code>${esc(a.post_id)}</code></p>${last}${act}</li>`;
}

export function articlesPage(s: Session, run: Run): string {
  const { articles } = run('pubs articles', { limit: '50' }) as { articles: ArticleView[] };
  const hideComment = actionForm(
    s,
    'pubs comments hide',
    'articles',
    'Hide comment',
    {},
    labelled('Comment id', '<input name="comment_id" required maxlength="64">'),
  );
  return `<h1>Articles</h1><p>The 50 newest articles in every state. Hiding takes one out of every list and feed (410 by id) and is in the <a href="/modlog">moderation log</a> with its reason.</p>
${articles.length ? `<ul class="plain">${articles.map((a) => articleCard(s, a)).join('')}</ul>` : '<p>No article yet.</p>'}
<h2>Hide a comment</h2><p>A hidden comment, and so its replies, leaves the article's page. The comment id is in a guest report on the <a href="/console/queue">Queue</a>.</p>${hideComment}`;
}
