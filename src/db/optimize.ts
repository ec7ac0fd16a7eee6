// Planner statistics, as SQLite recommends for long-lived connections
// (https://sqlite.org/lang_analyze.html#recommended_usage_pattern): `PRAGMA optimize=0x10002` when
// the connection opens (every table is checked, not only those this connection has used), then
// `PRAGMA optimize` periodically (the hourly job of src/search/optimize-job.ts) and before the
// connection closes. Each run analyzes only the tables whose statistics are missing or stale, with
// SQLite's own row limit per index, so it costs milliseconds even on a large board, and writes
// sqlite_stat1 (and sqlite_stat4) for the planner. Without statistics the planner guesses sizes,
// and a guess can walk a whole index of posts where a search of another one was meant.
import type { Database } from 'bun:sqlite';

/** Whether the database holds planner statistics (sqlite_stat1 exists and has rows). */
export function hasPlannerStatistics(db: Database): boolean {
  const t = db.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'sqlite_stat1'").get()!;
  if (t.n === 0) return false;
  return db.query<{ n: number }, []>('SELECT count(*) AS n FROM sqlite_stat1').get()!.n > 0;
}

/** On open: check every table (0x10000) and analyze those that need it (0x2). */
export function optimizeOnOpen(db: Database): void {
  db.exec('PRAGMA optimize=0x10002');
}

/**
 * The periodic run: analyzes the tables this connection has queried whose statistics are missing
 * or stale (their size changed about 25-fold since). Answers whether statistics exist afterwards.
 */
export function optimizeDatabase(db: Database): { statistics: boolean } {
  db.exec('PRAGMA optimize');
  return { statistics: hasPlannerStatistics(db) };
}

/** Closes the connection after a last `PRAGMA optimize` (a failure there never stops the close). */
export function closeDatabase(db: Database): void {
  try {
    db.exec('PRAGMA optimize');
  } catch {}
  db.close();
}
