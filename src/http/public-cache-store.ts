// The public document cache's one read: the removal counter (migration 0013) that a deletion, an
// edit or a removed account moves, so every cached document built before it is dropped at once.
import { type Db, perDatabase } from '../db/open.ts';

export const publicCacheStore = perDatabase((db: Db) => ({
  removals: db.query<{ n: number }, []>('SELECT n FROM public_removals WHERE id = 1'),
  // The rows this connection changed since it opened, trigger rows included: no read transaction.
  changes: db.query<{ n: number }, []>('SELECT total_changes() AS n'),
}));
