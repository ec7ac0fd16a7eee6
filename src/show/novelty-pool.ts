// Novelty off the request thread: before a Show root's write, the show-novelty worker
// (workers/show-novelty.ts) scores it against the word sets of the window, which it keeps in
// memory; the write's transaction then only confirms the worker's best candidates are still live
// and scores, in place, the few roots committed since the worker's snapshot (src/show/novelty.ts,
// enforceScored). So a root written between the scoring and the write is still considered.
//
// The feed: this thread reads the roots stored since its last look (by rowid: rows of show_items
// are never deleted, so committed rowids only grow) and keeps the window as a numbered log; each
// query carries what the worker has not been sent yet. A worker that lost its index (replaced after
// a crash, a dataset evicted) answers `need`, and gets the log again from there. A worker that
// fails or overruns its budget costs speed, not correctness: the write scores in place (SQL).
import type { AppContext } from '../context.ts';
import { WorkerPool, workerLocation } from '../workers/pool.ts';
import { entriesOf, type NoveltySets } from './novelty.ts';
import { KEEP_MS, type NoveltyAnswer, type NoveltyEntry, type NoveltyQuery, type NoveltyScore } from './novelty-index.ts';
import { showStore } from './store.ts';

type NoveltyPool = WorkerPool<NoveltyQuery, NoveltyAnswer>;

const BUDGET_MS = 2_000;
/** Candidates per basis: the write takes the first live one (a deleted root stays in the index). */
const CANDIDATES = 16;

declare module '../context.ts' {
  interface Workers {
    /** The show-novelty worker (workers/show-novelty.ts): a root's novelty against the window. */
    showNovelty: NoveltyPool;
  }
}

/**
 * The show-novelty pool: one worker (the index is its state: one copy, fed in order), built by the
 * composition root (src/show/domain.ts hands it over).
 */
export const showNoveltyPool = (): NoveltyPool => new WorkerPool<NoveltyQuery, NoveltyAnswer>(workerLocation('show-novelty'), 1, BUDGET_MS);

/** Roots scored in the worker, and worker failures that fell back to scoring in place (for benches and logs). */
export const noveltyStats = { scored: 0, failed: 0 };

interface Feed {
  dataset: string;
  /** The last show_items rowid read into the log. */
  watermark: number;
  /** Position of log[0] in the numbering the worker follows. */
  base: number;
  log: NoveltyEntry[];
  /** How much of the log the worker was sent (optimistic; `need` corrects it). */
  sent: number;
}

const feeds = new WeakMap<AppContext, Feed>();

function feedOf(ctx: AppContext): Feed {
  let f = feeds.get(ctx);
  if (!f) {
    f = { dataset: crypto.randomUUID(), watermark: 0, base: 0, log: [], sent: 0 };
    feeds.set(ctx, f);
  }
  return f;
}

/** Reads the roots stored since the last look into the log, and drops the log's expired head. */
function refresh(ctx: AppContext, f: Feed, since: number): void {
  const s = showStore(ctx.db);
  const top = s.lastRid.get()!.rid;
  if (top > f.watermark) {
    for (const e of entriesOf(s.wordsBetween.all(f.watermark, top, since - KEEP_MS))) f.log.push(e);
    f.watermark = top;
  }
  let drop = 0;
  while (drop < f.log.length && f.log[drop]!.at < since - KEEP_MS) drop++;
  if (drop > 0) {
    f.log.splice(0, drop);
    f.base += drop;
  }
}

function query(f: Feed, from: number, ctx: AppContext, since: number, sets: NoveltySets): NoveltyQuery {
  const reset = from < f.base;
  const start = reset ? f.base : from;
  const c = ctx.config.show;
  return {
    dataset: f.dataset,
    from: start,
    reset,
    entries: f.log.slice(start - f.base),
    since,
    post: sets.post,
    hook: sets.hook,
    postPercent: c.noveltyPostPercent,
    hookPercent: c.noveltyHookPercent,
    limit: CANDIDATES,
  };
}

/**
 * Scores a root's word sets in the worker. Null when the worker failed (the write then scores
 * in place); never throws.
 */
export async function scoreInWorker(ctx: AppContext, sets: NoveltySets): Promise<NoveltyScore | null> {
  const f = feedOf(ctx);
  const since = ctx.clock.now() - ctx.config.show.noveltyDays * 86_400_000;
  refresh(ctx, f, since);
  const watermark = f.watermark;
  let from = Math.min(f.sent, f.base + f.log.length);
  const pool = ctx.workers.showNovelty;
  try {
    // A `need` answer is followed by the log from where the worker stands (twice at most).
    for (let attempt = 0; attempt < 3; attempt++) {
      const q = query(f, from, ctx, since, sets);
      f.sent = q.from + q.entries.length;
      const a = await pool.run(q);
      if ('candidates' in a) {
        noveltyStats.scored++;
        return { watermark, candidates: a.candidates, truncated: a.truncated };
      }
      from = a.need;
    }
    throw new Error('the worker kept asking for the log');
  } catch (e) {
    f.sent = 0; // whatever the worker holds now is unknown: start it over
    noveltyStats.failed++;
    console.error(JSON.stringify({ event: 'show_novelty_worker_failed', error: String((e as Error)?.message ?? e) }));
    return null;
  }
}
