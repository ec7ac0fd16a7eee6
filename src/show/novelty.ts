// Novelty over the last 7 days (02-extensions "Show lane", 04 §5): word sets after lower-casing
// and stripping punctuation, overlap = shared / smaller set. Refused when hook + the first 400
// characters share 45 % or more with another live Show root, or the hook alone 60 % or more of
// that root's hook. The sets are kept as an inverted index (show_words), so the check reads only
// the postings of the new root's own words instead of every root of the window.
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { NOVELTY_CHARS } from './settings.ts';
import { type ShowStore, showStore } from './store.ts';

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

export function recordWords(ctx: AppContext, rootId: string, createdAt: number, sets: NoveltySets): void {
  const s = showStore(ctx.db);
  for (const w of sets.post) s.insertWord.run('post', w, createdAt, rootId);
  for (const w of sets.hook) s.insertWord.run('hook', w, createdAt, rootId);
}
