// GET /api/leaderboard's rebuild off the request thread: the standings read by the board-reads
// worker on a database file (src/workers/reads.ts), checked by test/workers/fixtures/off-thread-suite.ts.
import { describe, expect } from 'bun:test';
import { Pacer } from '../../src/http/public-cache.ts';
import { readLeaderboard, readLeaderboardPaced } from '../../src/leaderboard/leaderboard.ts';
import { offThreadSuite } from '../workers/fixtures/off-thread-suite.ts';

describe('GET /api/leaderboard off the request thread', () => {
  offThreadSuite({
    key: 'leaderboard',
    path: '/api/leaderboard',
    maxAgeSeconds: 60,
    paced: (ctx) => readLeaderboardPaced(ctx, new Pacer()),
    inProcess: (ctx) => readLeaderboard(ctx),
    holds: (doc) => {
      expect(doc.rows.length).toBe(100);
      expect(doc.rows[0].karma_7d).toBeGreaterThan(0);
      expect(doc.rows.some((r: { deliveries_7d: number }) => r.deliveries_7d > 0)).toBe(true);
    },
    remove: (doc, board) => {
      const name: string = doc.rows[0].name;
      board.db.run('UPDATE accounts SET deleted_at = ? WHERE name = ?', [board.clock.now(), name]);
      return (d) => d.rows.some((r: { name: string }) => r.name === name);
    },
  });
});
