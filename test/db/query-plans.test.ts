// The reads of the stores that build "live" from src/db/live.ts cost the same however many posts
// and votes the board holds, as test/public/query-plans.test.ts checks for the public documents:
// a plan searches an index or a key, and scans only what grows with the number of agents, the
// request's own input, or an index in order under a LIMIT. Checked on the prepared statements.
import { type Database, Statement } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { accountStore } from '../../src/accounts/store.ts';
import { boardStore } from '../../src/board/store.ts';
import { continuityStore } from '../../src/continuity/store.ts';
import { idempotencyStore } from '../../src/http/idempotency-store.ts';
import { inboxStore } from '../../src/inbox/store.ts';
import { jobsStore } from '../../src/jobs/store.ts';
import { labStore } from '../../src/lab/conventions/store.ts';
import { pagesStore } from '../../src/pages/store.ts';
import { pinStore } from '../../src/pins/store.ts';
import { quotaStore } from '../../src/quota/store.ts';
import { scorekeeperStore } from '../../src/scorekeeper/store.ts';
import { searchStore } from '../../src/search/store.ts';
import { voteStore } from '../../src/votes/store.ts';
import { migratedDb, plan } from './plans.ts';

// Tables (and the aliases the stores give accounts) the size of the agent list, not of the board.
const PER_AGENT = new Set(['accounts', 'a', 'ra', 'ta', 'va', 'crew']);
// Aliases that are small in one statement only (an alias such as r means posts elsewhere).
const SMALL_IN: Record<string, Record<string, string>> = {
  'scorekeeper.holders': { r: 'account_roles: a few rows per agent' },
  'search.candidates': { m: 'the ranked slice of the FTS matches, at most LIMIT rows' },
  'accounts.crewByShift': { k: 'crew: the crew members' },
  'pins.listed': { p: 'pins: at most one per agent' },
};
// Statements that read the newest rows in key or index order and stop at their LIMIT.
const LIMITED = new Set(['board.roots.all.first', 'board.activity.first', 'scorekeeper.latestLive', 'scorekeeper.latestPlaybook']);
// Board-sized scans found when this test was written, left for their owners (not per request,
// or waiting on statistics): listed by name so that a new one still fails.
const KNOWN = new Map([['lab.itemsBetween', 'the scorecard job, every 6 hours: lab items of a window, by kind']]);

/** The lines that read a whole table or index of the board (a size-dependent scan). */
function scans(name: string, lines: string[]): string[] {
  return lines.filter((l) => {
    const m = /^SCAN (\S+)/.exec(l);
    if (!m || m[1] === 'CONSTANT' || m[1]!.startsWith('(subquery-')) return false;
    if (PER_AGENT.has(m[1]!) || SMALL_IN[name]?.[m[1]!]) return false;
    // The request's own list (json_each) and a full-text MATCH (an FTS index lookup).
    if (m[1] === 'json_each' || /VIRTUAL TABLE INDEX \d+:M/.test(l)) return false;
    return !LIMITED.has(name);
  });
}

/** Every SELECT a store prepares, nested groups included, named store.key. */
function reads(d: Database): [string, string][] {
  const stores = {
    accounts: accountStore(d),
    board: boardStore(d),
    continuity: continuityStore(d),
    idempotency: idempotencyStore(d),
    inbox: inboxStore(d),
    jobs: jobsStore(d),
    lab: labStore(d),
    pages: pagesStore(d),
    pins: pinStore(d),
    quota: quotaStore(d),
    scorekeeper: scorekeeperStore(d),
    search: searchStore(d),
    votes: voteStore(d),
  };
  const out: [string, string][] = [];
  const walk = (prefix: string, o: object) => {
    for (const [k, v] of Object.entries(o)) {
      if (v instanceof Statement) {
        if (/^\s*SELECT\b/i.test(String(v))) out.push([`${prefix}.${k}`, String(v)]);
      } else if (v && typeof v === 'object') walk(`${prefix}.${k}`, v);
    }
  };
  walk('', stores);
  return out.map(([name, sql]) => [name.slice(1), sql]);
}

describe('query plans of the stores built on src/db/live.ts', () => {
  const d = migratedDb();
  const all = reads(d);

  test('the reads are found, nested groups included', () => {
    const names = all.map(([n]) => n);
    for (const n of ['board.roots.topic.after', 'board.liveById', 'votes.castBy', 'continuity.inboxSince', 'accounts.crewByShift']) expect(names).toContain(n);
  });

  test.each(all.filter(([n]) => !KNOWN.has(n)))('%s scans nothing the size of the board', (name, sql) => {
    expect(scans(name, plan(d, sql))).toEqual([]);
  });

  test.each([...KNOWN])('%s is still a known scan (%s): drop it from KNOWN once fixed', (name) => {
    const sql = all.find(([n]) => n === name)?.[1];
    expect(sql).toBeDefined();
    expect(scans(name, plan(d, sql!)).length).toBeGreaterThan(0);
  });

  // Near misses: the exemptions do not hide what the check is there for.
  test.each([
    [
      'a reply page without its thread',
      'board.replies',
      "SELECT p.id FROM posts p JOIN accounts a ON a.id = p.author_id WHERE p.kind = 'reply' AND p.deleted_at IS NULL",
    ],
    ['votes by weight', 'votes.castBy', 'SELECT count(*) FROM votes WHERE weight = 3'],
    ['inbox rows by time alone', 'continuity.inboxAfter', 'SELECT post_id FROM inbox_items WHERE created_at > 0'],
    ['posts joined to the request list', 'continuity.threadAfter', "SELECT p.id FROM posts p WHERE p.body IN (SELECT value FROM json_each('[]'))"],
  ])('%s is caught', (_, name, sql) => {
    expect(scans(name, plan(d, sql)).length).toBeGreaterThan(0);
  });
});
