// The reads of the stores that build "live" from src/db/live.ts cost the same however many posts
// and votes the board holds, as test/public/query-plans.test.ts checks for the public documents:
// a plan searches an index or a key, and scans only what grows with the number of agents, the
// request's own input, or an index in order under a LIMIT. Checked on the prepared statements.
import { type Database, Statement } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { accountStore } from '../../src/accounts/store.ts';
import { boardStore } from '../../src/board/store.ts';
import { commentsStore } from '../../src/comments/store.ts';
import { continuityStore } from '../../src/continuity/store.ts';
import { extStore } from '../../src/ext/store.ts';
import { idempotencyStore } from '../../src/http/idempotency-store.ts';
import { inboxStore } from '../../src/inbox/store.ts';
import { jobsStore } from '../../src/jobs/store.ts';
import { labStore } from '../../src/lab/conventions/store.ts';
import { leaderboardStore } from '../../src/leaderboard/store.ts';
import { mcpStore } from '../../src/mcp/store.ts';
import { feedsStore } from '../../src/feeds/store.ts';
import { pagesStore } from '../../src/pages/store.ts';
import { publicStore } from '../../src/public/store.ts';
import { pinStore } from '../../src/pins/store.ts';
import { pubsStore } from '../../src/pubs/store.ts';
import { quotaStore } from '../../src/quota/store.ts';
import { scorekeeperStore } from '../../src/scorekeeper/store.ts';
import { searchStore } from '../../src/search/store.ts';
import { showStore } from '../../src/show/store.ts';
import { voteStore } from '../../src/votes/store.ts';
import { migratedDb, plan } from './plans.ts';
import { statsDb } from './stats-1m.ts';

// Tables (and the aliases the stores give accounts) the size of the agent list, not of the board:
// pins (alias pin: at most one per agent) and each agent's karma row are too.
const PER_AGENT = new Set(['accounts', 'a', 'ra', 'ta', 'va', 'crew', 'pin', 'leaderboard_karma']);
// Aliases that are small in one statement only (an alias such as r means posts elsewhere).
const SMALL_IN: Record<string, Record<string, string>> = {
  'accounts.roleHolders': { r: 'account_roles: a few rows per agent' },
  'continuity.inboxAfter': { i: 'at most CATCH_UP_ROWS inbox items after the moment' },
  'continuity.voteAfter': { v: 'at most CATCH_UP_ROWS received votes after the moment' },
  'accounts.crewByShift': { k: 'crew: the crew members' },
  'lab.crewNames': { c: 'crew: the crew members' },
  'jobs.jobAuthors': { crew: 'crew: the crew members', account_roles: 'account_roles: the owner rows (a role index by role would not be smaller)' },
  'ext.credentials': { ext_credentials: 'the fetcher credentials an owner made: a handful' },
  'show.liveHolders': { r: 'account_roles: a few rows per agent' },
};
// Statements that read the newest rows in key or index order and stop at their LIMIT.
const LIMITED = new Set([
  'board.roots.all.first',
  'board.activity.first',
  'scorekeeper.latestLive',
  'scorekeeper.latestPlaybook',
  'pubs.itemsFirst',
  'pubs.openAppeals',
  'pubs.allAppeals',
  'comments.reportsOpen',
  'comments.reportsAll',
  // ext_posts by its rowid (seq), NOT INDEXED: the newest live posts, withdrawn ones skipped.
  'ext.page.all.first',
  // The public activity document's newest page: posts by their sequence, newest first.
  'public.newest',
  // The newest published articles (pubs_items_public_new in order): the articles feed.
  'feeds.newestArticles',
  // The console's lists (an operator's read, not a public one): the newest mirror posts by rowid,
  // the newest articles by their sequence index.
  'ext.recentAny',
  'pubs.operatorRecent',
]);
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
    if (m[1] === 'json_each' || /VIRTUAL TABLE INDEX \d+:=?M/.test(l)) return false;
    return !LIMITED.has(name);
  });
}

/** GET /pins: what in its plan is not "pins first, then each thread and account by key". */
function walksPosts(lines: string[]): string[] {
  return lines.filter((l, i) =>
    i === 0 ? !l.startsWith('SCAN pin ') : /^(SCAN|SEARCH) (t|ta|a) /.test(l) && !/^SEARCH \S+ USING INDEX sqlite_autoindex_\w+ \(id=\?\)$/.test(l),
  );
}

// Pages read in an index's or the rowid's order and stop at their LIMIT: a temp B-tree would mean
// every row of the feed read and sorted per page (the mirror's page walked the kind index whole,
// the top articles sorted every published one).
const ORDERED = ['ext.page.all.first', 'ext.page.all.before', 'ext.page.all.after', 'pubs.feedTop', 'pubs.feedNew', 'search.candidates'];
const sorts = (lines: string[]) => lines.filter((l) => l.includes('TEMP B-TREE'));

// A Bloom filter is built by reading its whole table before the first row comes back: over the
// accounts that was a walk of 100,000 rows per GET /v1/activity (fixed in issue 27). Only tables of
// a few rows may have one.
const TINY = new Set(['crew', 'c', 'account_roles', 'r', 'topics']);
const blooms = (lines: string[]) => lines.filter((l) => /BLOOM FILTER ON (\S+)/.test(l) && !TINY.has(/BLOOM FILTER ON (\S+)/.exec(l)![1]!));

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
    feeds: feedsStore(d),
    pins: pinStore(d),
    public: publicStore(d),
    quota: quotaStore(d),
    scorekeeper: scorekeeperStore(d),
    search: searchStore(d),
    votes: voteStore(d),
    show: showStore(d),
    pubs: pubsStore(d),
    leaderboard: leaderboardStore(d),
    comments: commentsStore(d),
    mcp: mcpStore(d),
    ext: extStore(d),
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

  test('GET /pins reads the pins first and each thread and account by key: no walk of posts', () => {
    const sql = all.find(([n]) => n === 'pins.listed')![1];
    expect(walksPosts(plan(d, sql))).toEqual([]);
    // Without the CROSS JOIN, and without statistics, the planner walks every live post (issue 27).
    expect(walksPosts(plan(d, sql.replace('CROSS JOIN', 'JOIN'))).length).toBeGreaterThan(0);
  });

  test.each(ORDERED)('%s reads its order from an index or the rowid: no sort per page', (name) => {
    expect(sorts(plan(d, all.find(([n]) => n === name)![1]))).toEqual([]);
  });

  // A new board's statistics: few posts, acceptances many and their reply ids few (ANALYZE after
  // a day of work). The planner would walk posts and look each up among the acceptances.
  test('the deliveries a reply credited: acceptances by reply first, then each delivery by key, at any statistics', () => {
    const t = migratedDb();
    t.exec('ANALYZE');
    t.exec('DELETE FROM sqlite_stat1');
    const stat = t.query('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
    stat.run('acceptances', 'acceptances_by_reply', '100000 50000');
    stat.run('acceptances', 'acceptances', '100000 1');
    stat.run('posts', 'sqlite_autoindex_posts_1', '2 1');
    stat.run('posts', null, '2');
    t.exec('ANALYZE sqlite_schema');
    const sql = all.find(([n]) => n === 'jobs.creditedBy')![1];
    const want = ['SEARCH a USING INDEX acceptances_by_reply (reply_id=?)', 'SEARCH d USING INDEX sqlite_autoindex_posts_1 (id=?)'];
    expect(plan(d, sql)).toEqual(want);
    expect(plan(t, sql)).toEqual(want);
    // Without the CROSS JOIN these statistics turn it into a walk of posts.
    expect(plan(t, sql.replace('CROSS JOIN', 'JOIN'))[0]).toStartWith('SCAN d');
  });

  // Near misses: the exemptions do not hide what the check is there for.
  test('the plans above were taken on an empty database (no statistics)', () => {
    expect(d.query('SELECT count(*) AS n FROM sqlite_schema WHERE name = ?').get('sqlite_stat1')).toEqual({ n: 0 });
  });
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

// The same reads with the statistics of a board of 1,000,000 posts, 100,000 agents and 1,000,000
// votes: the planner weighs real sizes there (a topic holds 200,000 roots, an agent 10 posts), and
// a plan that searched an index on the empty database may walk one here.
describe('query plans at 1M-shaped statistics', () => {
  const d = statsDb();
  const all = reads(d);
  // With statistics the planner reads the scorecard's window by time (lab_items_by_kind): no known scans.
  // None is known now (issue 27 fixed the mirror's and the articles' reads): a new one names itself here.
  const KNOWN_1M = new Map<string, string>([]);

  test('the statistics are loaded', () => {
    const posts = d.query<{ stat: string }, []>("SELECT stat FROM sqlite_stat1 WHERE idx = 'posts_live_by_seq'").get()!;
    expect(Number(posts.stat.split(' ')[0])).toBeGreaterThan(1_000_000);
    expect(plan(d, 'SELECT id FROM posts WHERE author_id = ?').join()).toContain('posts_by_author');
  });

  test.each(all.filter(([n]) => !KNOWN_1M.has(n)))('%s scans nothing the size of the board', (name, sql) => {
    expect(scans(name, plan(d, sql))).toEqual([]);
  });

  if (KNOWN_1M.size > 0)
    test.each([...KNOWN_1M])('%s is still a known scan (%s): drop it from KNOWN once fixed', (name) => {
      const sql = all.find(([n]) => n === name)?.[1];
      expect(sql).toBeDefined();
      expect(scans(name, plan(d, sql!)).length).toBeGreaterThan(0);
    });

  test.each(all)('%s builds no Bloom filter over a table of the board or its agents', (_, sql) => {
    expect(blooms(plan(d, sql))).toEqual([]);
  });

  test('GET /pins reads the pins first and each thread and account by key: no walk of posts', () => {
    expect(walksPosts(plan(d, all.find(([n]) => n === 'pins.listed')![1]))).toEqual([]);
  });

  test.each(ORDERED)('%s reads its order from an index or the rowid: no sort per page', (name) => {
    expect(sorts(plan(d, all.find(([n]) => n === name)![1]))).toEqual([]);
  });

  test('the mirror page without a kind walks seq (the rowid), not the index by kind', () => {
    expect(plan(d, all.find(([n]) => n === 'ext.page.all.first')![1])[0]).toBe('SCAN p');
  });

  test('the jobs read credits by reply and each delivery by key', () => {
    expect(plan(d, all.find(([n]) => n === 'jobs.creditedBy')![1])).toEqual([
      'SEARCH a USING INDEX acceptances_by_reply (reply_id=?)',
      'SEARCH d USING INDEX sqlite_autoindex_posts_1 (id=?)',
    ]);
  });

  test('the reads of resume, search and the vote ring are among them', () => {
    const names = all.map(([n]) => n);
    for (const n of [
      'jobs.labPostsOfAuthorNewestFirst',
      'jobs.jobAuthors',
      'jobs.labelledRepliesOf',
      'continuity.inboxAfter',
      'continuity.voteAfter',
      'search.candidates',
      'pins.listed',
      'votes.ringBoardVotes',
      'votes.ringTop',
      'show.similarPosts',
      'show.sideSince',
      'leaderboard.karma',
      'comments.reportsOpen',
      'ext.conversation',
      'pubs.feedTop',
    ])
      expect(names).toContain(n);
  });
});
