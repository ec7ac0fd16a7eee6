// Novelty over the last 7 days (02-extensions "Show lane", docs/decisions.md#show-lane): word sets after lower-casing
// and stripping punctuation, overlap = shared / smaller set. Refused when hook + the first 400
// characters share 45 % or more with another live Show root, or the hook alone 60 % or more of
// that root's hook. The sets are kept as an inverted index (show_words), so the check reads only
// the postings of the new root's own words instead of every root of the window.
//
// Two ways to score: `enforceScored` takes the worker's scoring (src/show/novelty-pool.ts, before
// the transaction) and completes it inside the write; `enforceNovelty` scores in place with SQL,
// when no scoring came with the write (a worker failure, a caller that does not prepare).
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import type { Basis, Candidate, NoveltyEntry, NoveltyScore } from './novelty-index.ts';
import { NOVELTY_CHARS } from './settings.ts';
import { type ShowStore, showStore, type WordRow } from './store.ts';

export const wordSet = (text: string): string[] => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];

export interface NoveltySets {
  post: string[];
  hook: string[];
}

export const noveltySets = (hook: string, text: string): NoveltySets => ({
  post: wordSet(`${hook}\n${[...text].slice(0, NOVELTY_CHARS).join('')}`),
  hook: wordSet(hook),
});

/** Pure overlap, for tests and docs: shared words over the smaller set (0 when one is empty). */
export function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  return b.filter((w) => set.has(w)).length / Math.min(set.size, new Set(b).size);
}

function firstLive(s: ShowStore, rows: { root_id: string; shared: number; size: number }[], own: number) {
  for (const r of rows) if (s.isLive.get(r.root_id)) return { ...r, overlap: r.shared / Math.min(own, r.size) };
  return null;
}

/** 409 NOT_NOVEL naming the closest live root, post basis first. */
export function enforceNovelty(ctx: AppContext, sets: NoveltySets): void {
  const s = showStore(ctx.db);
  const c = ctx.config.show;
  const since = ctx.clock.now() - c.noveltyDays * 86_400_000;
  const checks = [
    { basis: 'post' as const, words: sets.post, percent: c.noveltyPostPercent, query: s.similarPosts },
    { basis: 'hook' as const, words: sets.hook, percent: c.noveltyHookPercent, query: s.similarHooks },
  ];
  for (const k of checks) {
    if (k.words.length === 0) continue;
    const hit = firstLive(s, k.query.all(JSON.stringify(k.words), since, k.percent, k.words.length), k.words.length);
    if (hit) fail('NOT_NOVEL', { similar_id: hit.root_id, basis: k.basis, overlap_percent: Math.round(hit.overlap * 100), threshold_percent: k.percent });
  }
}

/** Rows (ordered by root) → one entry per root. */
export function entriesOf(rows: readonly WordRow[]): NoveltyEntry[] {
  const out: NoveltyEntry[] = [];
  for (const r of rows) {
    let cur = out.at(-1);
    if (cur?.id !== r.root_id) {
      cur = { id: r.root_id, at: r.created_at, post: [], hook: [] };
      out.push(cur);
    }
    cur[r.basis].push(r.word);
  }
  return out;
}

const notNovel = (c: Candidate, percent: number): never =>
  fail('NOT_NOVEL', { similar_id: c.id, basis: c.basis, overlap_percent: Math.round(c.overlap * 100), threshold_percent: percent });

/**
 * 409 NOT_NOVEL from the worker's scoring, inside the write's transaction: the worker's candidates
 * (best first) are confirmed live here, and the roots committed after its snapshot
 * (`score.watermark`) are scored in place, so a root written meanwhile (another request of the
 * same group commit included) is considered too. Post basis first, as in `enforceNovelty`.
 */
export function enforceScored(ctx: AppContext, sets: NoveltySets, score: NoveltyScore): void {
  const s = showStore(ctx.db);
  const c = ctx.config.show;
  const since = ctx.clock.now() - c.noveltyDays * 86_400_000;
  const newer = entriesOf(s.wordsBetween.all(score.watermark, Number.MAX_SAFE_INTEGER, since));
  const checks: [Basis, string[], number][] = [
    ['post', sets.post, c.noveltyPostPercent],
    ['hook', sets.hook, c.noveltyHookPercent],
  ];
  for (const [basis, words, percent] of checks) {
    if (words.length === 0) continue;
    const found = score.candidates.filter((k) => k.basis === basis);
    const own = new Set(words);
    for (const e of newer) {
      const size = e[basis].length;
      const shared = e[basis].filter((w) => own.has(w)).length;
      const smaller = Math.min(own.size, size);
      if (size > 0 && shared * 100 >= percent * smaller) found.push({ id: e.id, basis, shared, size, overlap: shared / smaller });
    }
    found.sort((a, b) => b.overlap - a.overlap);
    const hit = found.find((k) => s.isLive.get(k.id));
    if (hit) notNovel(hit, percent);
    // Every candidate the worker sent is deleted and it had more: the rest are read in place.
    if (score.truncated.includes(basis)) {
      const query = basis === 'post' ? s.similarPosts : s.similarHooks;
      const more = firstLive(s, query.all(JSON.stringify(words), since, percent, words.length), words.length);
      if (more) notNovel({ id: more.root_id, basis, shared: more.shared, size: more.size, overlap: more.overlap }, percent);
    }
  }
}

export function recordWords(ctx: AppContext, rootId: string, createdAt: number, sets: NoveltySets): void {
  const s = showStore(ctx.db);
  for (const w of sets.post) s.insertWord.run('post', w, createdAt, rootId);
  for (const w of sets.hook) s.insertWord.run('hook', w, createdAt, rootId);
}
