// The novelty index the show-novelty worker keeps in memory (workers/show-novelty.ts): the word
// sets of the window's Show roots as postings (word → roots), fed in order by the request thread
// and asked for the roots most similar to a new one. Pure: no database, no clock; the caller
// sends the window's start with each query.
//
// The request thread numbers what it sends (`from`, the position of the first entry in its log);
// an index that has not seen everything before `from` (a new worker, a replaced one, a dataset
// evicted) answers `need` with what it has, and the request thread sends again from there.

export interface NoveltyEntry {
  id: string;
  at: number; // created_at (ms)
  post: string[]; // the post word set (hook + first 400 characters)
  hook: string[]; // the hook's word set
}

export type Basis = 'post' | 'hook';

export interface Candidate {
  id: string;
  basis: Basis;
  shared: number;
  size: number; // the candidate's own set size
  overlap: number; // shared / the smaller set
}

export interface NoveltyQuery {
  dataset: string;
  /** Position of entries[0] in the sender's log; `reset` drops what the index holds first. */
  from: number;
  reset: boolean;
  entries: NoveltyEntry[];
  since: number;
  post: string[];
  hook: string[];
  postPercent: number;
  hookPercent: number;
  /** At most this many candidates per basis, best first. */
  limit: number;
}

export type NoveltyAnswer =
  | { need: number }
  | {
      candidates: Candidate[];
      /** Bases with more candidates than `limit` above the threshold. */
      truncated: Basis[];
      /** Roots the index holds once this query is answered (for tests and logs). */
      held: number;
    };

/** Roots are kept a day past the window, so a clock set back a little still finds them. */
export const KEEP_MS = 86_400_000;

interface Held {
  entry: NoveltyEntry;
  gone: boolean;
}

export class NoveltyIndex {
  /** How many entries of the sender's log this index has applied: the next expected `from`. */
  version = 0;
  private readonly order: Held[] = []; // oldest first, as sent
  private head = 0;
  private readonly postings: Record<Basis, Map<string, Set<Held>>> = { post: new Map(), hook: new Map() };

  get size(): number {
    return this.order.length - this.head;
  }

  apply(entries: readonly NoveltyEntry[]): void {
    for (const entry of entries) {
      const h: Held = { entry, gone: false };
      this.order.push(h);
      for (const basis of ['post', 'hook'] as const) {
        for (const w of entry[basis]) {
          const set = this.postings[basis].get(w);
          if (set) set.add(h);
          else this.postings[basis].set(w, new Set([h]));
        }
      }
    }
    this.version += entries.length;
  }

  /** Drops the roots older than `since` that lead the log (the log is in commit order, close to time order). */
  evict(since: number): void {
    while (this.head < this.order.length && this.order[this.head]!.entry.at < since) {
      const h = this.order[this.head]!;
      h.gone = true;
      for (const basis of ['post', 'hook'] as const) {
        for (const w of h.entry[basis]) {
          const set = this.postings[basis].get(w);
          set?.delete(h);
          if (set?.size === 0) this.postings[basis].delete(w);
        }
      }
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The roots of the window at or above `percent` overlap with `words`, best first (newest first on a tie). */
  similar(basis: Basis, words: readonly string[], since: number, percent: number): Candidate[] {
    if (words.length === 0) return [];
    const own = new Set(words).size;
    const shared = new Map<Held, number>();
    for (const w of new Set(words)) {
      const set = this.postings[basis].get(w);
      if (set) for (const h of set) shared.set(h, (shared.get(h) ?? 0) + 1);
    }
    const out: (Candidate & { at: number })[] = [];
    for (const [h, n] of shared) {
      if (h.gone || h.entry.at < since) continue;
      const size = h.entry[basis].length;
      const smaller = Math.min(own, size);
      if (n * 100 >= percent * smaller) out.push({ id: h.entry.id, basis, shared: n, size, overlap: n / smaller, at: h.entry.at });
    }
    out.sort((a, b) => b.overlap - a.overlap || b.at - a.at);
    return out.map(({ at: _, ...c }) => c);
  }
}

/** The worker's side: one index per dataset (one database), the least recently used dropped past `max`. */
export class NoveltyIndexes {
  private readonly byDataset = new Map<string, NoveltyIndex>();

  constructor(private readonly max = 8) {}

  answer(q: NoveltyQuery): NoveltyAnswer {
    let index = this.byDataset.get(q.dataset);
    if (q.reset || !index) {
      if (!q.reset && q.from !== 0) return { need: 0 };
      index = new NoveltyIndex();
      index.version = q.from;
    }
    if (q.from !== index.version) return { need: index.version };
    this.byDataset.delete(q.dataset);
    this.byDataset.set(q.dataset, index);
    while (this.byDataset.size > this.max) this.byDataset.delete(this.byDataset.keys().next().value!);
    index.apply(q.entries);
    index.evict(q.since - KEEP_MS);
    const candidates: Candidate[] = [];
    const truncated: Basis[] = [];
    for (const [basis, words, percent] of [
      ['post', q.post, q.postPercent],
      ['hook', q.hook, q.hookPercent],
    ] as const) {
      const found = index.similar(basis, words, q.since, percent);
      if (found.length > q.limit) truncated.push(basis);
      candidates.push(...found.slice(0, q.limit));
    }
    return { candidates, truncated, held: index.size };
  }
}

/** The worker's answer for one root, handed to the write's check. */
export interface NoveltyScore {
  /** The last show_items rowid the worker's index held: later roots are scored in the write. */
  watermark: number;
  candidates: Candidate[];
  truncated: Basis[];
}
