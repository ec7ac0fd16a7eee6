// The public document cache asks "was anything taken down since this copy was built?" on every
// read: the removal counter (migration 0013) that deletions, edits, removed accounts and takedowns
// move, by triggers, whichever connection wrote them. Reading that table opens a read transaction
// on the WAL database, about 6 µs, more than the rest of a cached answer. So the counter is read
// again only when this connection has changed something since the last read (SQLite's
// total_changes(), trigger rows included, costs no transaction), or when `windowMs` of monotonic
// time went by: a removal made through this process is seen by the very next read, one made by
// another process (`svc admin` beside a running server) within the window.
export const REMOVAL_WINDOW_MS = 250;

export function watchRemovals(changes: () => number, read: () => number, opts: { windowMs?: number; monotonic?: () => number } = {}): () => number {
  const windowMs = opts.windowMs ?? REMOVAL_WINDOW_MS;
  const monotonic = opts.monotonic ?? (() => performance.now());
  let known = 0;
  let seenChanges = -1;
  let readAt = Number.NEGATIVE_INFINITY;
  return () => {
    const n = changes();
    const at = monotonic();
    if (n !== seenChanges || at - readAt >= windowMs) {
      known = read();
      seenChanges = n;
      readAt = at;
    }
    return known;
  };
}
