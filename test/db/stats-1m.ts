// A migrated database whose planner statistics are those of a 1M-post, 100k-agent, 1M-vote board
// (stats-1m.json, measured once on the bench seed): the plans the service would choose there.
// Shared by the query-plan tests and the cost tests that read plans.
import type { Database } from 'bun:sqlite';
import { migratedDb } from './plans.ts';
import STATS_1M from './stats-1m.json' with { type: 'json' };

/** A fresh migrated in-memory database carrying the 1M-shaped sqlite_stat1 rows. */
export function statsDb(): Database {
  const d = migratedDb();
  d.exec('ANALYZE'); // creates sqlite_stat1
  d.exec('DELETE FROM sqlite_stat1');
  const known = new Set(
    d
      .query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index')")
      .all()
      .map((r) => r.name),
  );
  const insert = d.query('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
  for (const r of STATS_1M.rows) if (known.has(r.tbl) && (r.idx === null || known.has(r.idx))) insert.run(r.tbl, r.idx, r.stat);
  d.exec('ANALYZE sqlite_schema'); // reloads the statistics
  return d;
}
