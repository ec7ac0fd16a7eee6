// Every per-request query of the public documents (activity, thread, jobs, leaderboard) costs
// the same however many posts and votes the board holds: its plan searches an index or a key,
// and scans only what grows with the number of agents (accounts, the kept karma per agent) or an
// index in order under a LIMIT (the newest page). Checked on the prepared statements themselves.
import type { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { jobsStore } from '../../src/jobs/store.ts';
import { leaderboardStore } from '../../src/leaderboard/store.ts';
import { publicStore } from '../../src/public/store.ts';
import { migratedDb, plan } from '../db/plans.ts';

// Tables the size of the agent list, not of the board.
const PER_AGENT = new Set(['accounts', 'a', 'leaderboard_karma', 'crew', 'account_roles']);
// Statements that read the newest rows in index order and stop at their LIMIT.
const LIMITED = new Set(['public.newest']);

/** The lines that read a whole table or index of the board (a size-dependent scan). */
function scans(name: string, lines: string[]): string[] {
  return lines.filter((l) => {
    const m = /^SCAN (\S+)/.exec(l);
    if (!m || m[1] === 'CONSTANT') return false;
    // The request's own list of ids (json_each: the resume's job ids) is as long as the request.
    if (m[1] === 'json_each') return false;
    if (PER_AGENT.has(m[1]!)) return false;
    return !(LIMITED.has(name) && /USING (COVERING )?INDEX/.test(l));
  });
}

function statements(d: Database): [string, string][] {
  const stores = { public: publicStore(d), jobs: jobsStore(d), leaderboard: leaderboardStore(d) };
  return Object.entries(stores).flatMap(([store, s]) => Object.entries(s).map(([k, stmt]) => [`${store}.${k}`, String(stmt)] as [string, string]));
}

describe('query plans of the public documents', () => {
  const d = migratedDb();
  test.each(statements(d))('%s scans nothing the size of the board', (name, sql) => {
    expect(scans(name, plan(d, sql))).toEqual([]);
  });

  // Near misses: the check does catch what it is there for.
  test.each([
    ['min and max in one SELECT', 'SELECT min(seq) AS lo, max(seq) AS hi FROM posts'],
    ['a time without an index', 'SELECT count(*) FROM posts WHERE created_at >= 0'],
    ['all-time karma counted from the posts', 'SELECT author_id, sum(score) FROM posts WHERE deleted_at IS NULL GROUP BY author_id'],
    ['votes by weight', 'SELECT count(*) FROM votes WHERE weight = 3'],
  ])('%s is caught', (_, sql) => {
    expect(scans('near-miss', plan(d, sql)).length).toBeGreaterThan(0);
  });

  test('the feed bounds are two lookups at the ends of the key', () => {
    const lines = plan(d, String(publicStore(d).bounds));
    expect(lines.filter((l) => l.startsWith('SEARCH posts'))).toHaveLength(2);
    expect(String(jobsStore(d).bounds)).toBe(String(publicStore(d).bounds));
  });
});
