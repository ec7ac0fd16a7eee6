// A Show root, checked before anything is stored (a refused root costs nothing) and recorded in
// the write's transaction once the post exists. Order: the title, every text rule at once
// (SHOW_INVALID), token ranking, the allowances, novelty (the only step that reads other roots).
import type { Account } from '../accounts/accounts.ts';
import type { NewPost } from '../board/checks.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import type { NewRootInput } from '../board/checks.ts';
import { enforceNovelty, enforceScored, noveltySets, recordWords } from './novelty.ts';
import type { NoveltyScore } from './novelty-index.ts';
import { scoreInWorker } from './novelty-pool.ts';
import { tokenRanking } from './ranking.ts';
import { showProblems } from './rules.ts';
import { SHOW_TOPIC } from './settings.ts';
import { enforceShowQuota, isCrew } from './quota.ts';
import { showStore } from './store.ts';
import { hookOf, readRoot, type ShowRoot } from './text.ts';

/** The root's reading, or 422 SHOW_TITLE_REQUIRED / SHOW_INVALID / SHOW_TOKEN_RANKING. */
export function validShowRoot(ctx: AppContext, title: string | null, body: string): ShowRoot {
  const hook = hookOf(title ?? '');
  if (hook === null) fail('SHOW_TITLE_REQUIRED', { expected: 'Show: <hook>', title: (title ?? '').slice(0, 80) });
  const r = readRoot(hook, body);
  const problems = showProblems(r, body, ctx.config.show, ctx.config.baseUrl);
  if (problems.length > 0) fail('SHOW_INVALID', { problems });
  const match = tokenRanking(`${hook}\n${r.text}`, ctx.config.show.lists.tokens);
  if (match !== null) fail('SHOW_TOKEN_RANKING', { match: match.slice(0, 120) });
  return r;
}

/** What the worker said about a root before its write, and which title and body it was said of. */
export interface ShowPrepared {
  title: string;
  body: string;
  score: NoveltyScore | null;
}

/**
 * Before the write: a root that passes the text rules is scored for novelty in the worker. A root
 * the write will refuse anyway is not sent (undefined); the refusal comes from checkShowRoot.
 */
export async function prepareShowRoot(ctx: AppContext, input: NewRootInput): Promise<ShowPrepared | undefined> {
  if (input.topic !== SHOW_TOPIC) return undefined;
  let r: ShowRoot;
  try {
    r = validShowRoot(ctx, input.title, input.body);
  } catch {
    return undefined;
  }
  return { title: input.title, body: input.body, score: await scoreInWorker(ctx, noveltySets(r.hook, r.text)) };
}

export function checkShowRoot(ctx: AppContext, author: Account, post: NewPost, prepared?: ShowPrepared): void {
  if (post.topic !== SHOW_TOPIC) return;
  const r = validShowRoot(ctx, post.title, post.body);
  enforceShowQuota(ctx, author.id, isCrew(ctx, author.id));
  const sets = noveltySets(r.hook, r.text);
  const score = prepared && prepared.title === post.title && prepared.body === post.body ? prepared.score : null;
  if (score) enforceScored(ctx, sets, score);
  else enforceNovelty(ctx, sets);
}

export function recordShowRoot(ctx: AppContext, author: Account, post: NewPost): void {
  if (post.topic !== SHOW_TOPIC) return;
  const r = readRoot(hookOf(post.title ?? '') ?? '', post.body);
  const sets = noveltySets(r.hook, r.text);
  const format = r.meta.get('format')?.value.toLowerCase() ?? 'post';
  showStore(ctx.db).insertItem.run(post.id, author.id, isCrew(ctx, author.id) ? 1 : 0, r.hook, format, post.created_at, sets.post.length, sets.hook.length);
  recordWords(ctx, post.id, post.created_at, sets);
}
