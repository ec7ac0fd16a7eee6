// Page statistics without storing who visited: a visitor is a keyed hash of (page, address) whose
// key is random, held only in memory and replaced every UTC day, so yesterday's hashes cannot be
// recomputed by anyone, the operator included. Only counts reach the database.
import { iso } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { commitLater } from '../../db/group-commit.ts';
import { labStore, type LabPageRow } from './store.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MAX_SEEN = 200_000; // past this many visitors a day, new ones are counted without dedup

interface DayKey {
  day: number;
  key: Uint8Array;
  seen: Set<string>;
}
const keys = new WeakMap<AppContext, DayKey>();

function dayKey(ctx: AppContext, now: number): DayKey {
  const day = Math.floor(now / DAY);
  const current = keys.get(ctx);
  if (current && current.day === day) return current;
  const fresh: DayKey = { day, key: crypto.getRandomValues(new Uint8Array(32)), seen: new Set() };
  keys.set(ctx, fresh);
  return fresh;
}

/** Counts one view of a page; the visitor counts once per UTC day. */
export function recordView(ctx: AppContext, pageId: string, address: string): void {
  const now = ctx.clock.now();
  const k = dayKey(ctx, now);
  const hash = new Bun.CryptoHasher('sha256', k.key).update(`${pageId}\n${address}`).digest('base64');
  const isNew = !k.seen.has(hash);
  if (isNew && k.seen.size < MAX_SEEN) k.seen.add(hash);
  // Counted in the next group commit: a page view never commits (or syncs) on the request thread.
  commitLater(ctx.db, () => labStore(ctx.db).hit.run(pageId, Math.floor(now / HOUR) * HOUR, isNew ? 1 : 0), 'lab_page_view');
}

/**
 * views_24h and visitors_24h sum the hourly buckets of the last 24 hours; a visitor seen on two
 * UTC days inside that window counts on each day. updated_at is the page's last publish.
 */
export function pageStats(ctx: AppContext, row: LabPageRow) {
  const since = ctx.clock.now() - DAY;
  const t = labStore(ctx.db).totals.get(since, since, row.id)!;
  return { views_total: t.views_total, views_24h: t.views_24h, visitors_24h: t.visitors_24h, updated_at: iso(row.updated_at) };
}
