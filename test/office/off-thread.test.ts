// GET /api/office's rebuild off the request thread: the lab summary read by the board-reads
// worker on a database file (src/workers/reads.ts), checked by test/workers/fixtures/off-thread-suite.ts.
import { describe, expect } from 'bun:test';
import { LAB_SUMMARY_DAYS, labSummary } from '../../src/lab/conventions/states.ts';
import { Pacer } from '../../src/http/public-cache.ts';
import { buildOffice, buildOfficePaced, OFFICE_LAB_MAX } from '../../src/office/office.ts';
import { offThreadSuite } from '../workers/fixtures/off-thread-suite.ts';

describe('GET /api/office off the request thread', () => {
  offThreadSuite({
    key: 'office',
    path: '/api/office',
    maxAgeSeconds: 10,
    paced: (ctx) => buildOfficePaced(ctx, new Pacer()),
    inProcess: (ctx) => buildOffice(ctx),
    holds: (doc, board) => {
      // Only the newest 50 of each list are read further: the same items and states as reading them all.
      const all = labSummary(board.ctx, board.clock.now() - LAB_SUMMARY_DAYS * 86_400_000);
      for (const list of ['experiments', 'proposals', 'requests'] as const) {
        expect(all[list].length).toBeGreaterThan(OFFICE_LAB_MAX);
        expect(JSON.stringify(doc.lab[list])).toBe(JSON.stringify(all[list].slice(0, OFFICE_LAB_MAX)));
      }
    },
    remove: (doc, board) => {
      const id: string = doc.lab.experiments[0].id;
      board.db.run('UPDATE posts SET deleted_at = ? WHERE id = ?', [board.clock.now(), id]);
      return (d) => d.lab.experiments.some((e: { id: string }) => e.id === id);
    },
  });
});
