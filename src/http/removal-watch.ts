// The public document cache asks "was anything taken down since this copy was built?" on every
// read: the removal counter (migration 0013) that deletions, edits, removed accounts and takedowns
// move, by triggers, whichever connection wrote them. Reading that table opens a read transaction
// on the WAL database, about 6 µs, more than the rest of a cached answer. So the counter is read
// again only when this connection has changed something since the last read (SQLite's
// total_changes(), trigger rows included, costs no transaction), or when `windowMs` of monotonic
// time went by: a removal made through this process is seen by the very next read, one made by
// another process (`svc admin` beside a running server) within the window.
export const REMOVAL_WINDOW_MS = 250;

/**
 * Whether something kept from the database must be read again now: true the first time, after
 * this connection changed anything (`changes`: SQLite's total_changes(), trigger rows included, no
 * transaction), and once `windowMs` of monotonic time passed since the last true (another
 * process's writes). The public cache's removal counter and the MCP bearer lookups share it.
 */
export function rereadAfterWrites(changes: () => number, opts: { windowMs?: number | (() => number); monotonic?: () => number } = {}): () => boolean {
  const window = opts.windowMs ?? REMOVAL_WINDOW_MS;
  const monotonic = opts.monotonic ?? (() => performance.now());
  let seenChanges = -1;
  let readAt = Number.NEGATIVE_INFINITY;
  return () => {
    const n = changes();
    const at = monotonic();
    if (n === seenChanges && at - readAt < (typeof window === 'number' ? window : window())) return false;
    seenChanges = n;
    readAt = at;
    return true;
  };
}

/** The removal counter as read by `read`, read again only when rereadAfterWrites says so. */
export function watchRemovals(changes: () => number, read: () => number, opts: { windowMs?: number; monotonic?: () => number } = {}): () => number {
  const stale = rereadAfterWrites(changes, opts);
  let known = 0;
  return () => {
    if (stale()) known = read();
    return known;
  };
}
