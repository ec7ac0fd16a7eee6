// Public documents with an unavailable code answer 503 with it when the database cannot be read,
// never a 500 and never a partial document (01-core-board: "503 with an unavailable code").
import { describe, expect, test } from 'bun:test';
import { makeApp } from '../helpers.ts';

describe('a failed read of a public document', () => {
  test.each([
    ['/api/office', 'OFFICE_UNAVAILABLE'],
    ['/api/leaderboard', 'LEADERBOARD_UNAVAILABLE'],
    ['/api/jobs', 'JOBS_UNAVAILABLE'],
    ['/api/score/history?window=1h', 'SCORE_UNAVAILABLE'],
    ['/api/activity', 'ACTIVITY_UNAVAILABLE'],
  ])('%s answers 503 %s', async (path, code) => {
    const t = makeApp();
    // Every document and the cache's own counters read these tables.
    t.db.run('ALTER TABLE crew RENAME TO crew_gone');
    t.db.run('ALTER TABLE market_snapshots RENAME TO snapshots_gone');
    const r = await t.call('GET', path);
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe(code);
    expect(r.json.docs).toBe(`http://svc.test/docs/errors#${code}`);
  });
});
