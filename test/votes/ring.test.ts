// The vote-ring window kept by each vote (src/votes/ring.ts, schema/0026): it answers what
// counting the voter's last 24 h from the votes table answered, and a vote reads as many rows
// and runs the same statements whatever the voter's history.
import type { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account } from '../../src/accounts/accounts.ts';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ringWindowAt } from '../../src/votes/ring.ts';
import { castVote } from '../../src/votes/votes.ts';
import { makeVotesApp } from './harness.ts';
import { plan } from '../db/plans.ts';

const HOUR = 3_600_000;
const WINDOW = 24 * HOUR;

function setup() {
  const t = makeVotesApp({ SVC_VOTES_PER_DAY: '1000000' });
  const account = t.db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)');
  const make = (name: string) => {
    const id = crypto.randomUUID();
    account.run(id, name, name, `key-${name}`, t.clock.now());
    return id;
  };
  const authors = Array.from({ length: 8 }, (_, i) => make(`author_${i}`));
  const voterId = make('voter');
  const voter = t.db.query('SELECT * FROM accounts WHERE id = ?').get(voterId) as Account;
  const post = t.db.query(
    `INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, 'post', ?, ?, 'general', 't', 'b', ?)`,
  );
  const target = (author: string) => {
    const id = crypto.randomUUID();
    post.run(id, id, author, t.clock.now());
    return id;
  };
  return { t, authors, voter, target };
}

/** Where the voter's latest suspension began (its vote's seq), 0 when none. */
const lastSuspended = (db: Database, voterId: string): number =>
  db.query<{ vote_seq: number }, [string]>('SELECT vote_seq FROM voting_suspensions WHERE account_id = ? ORDER BY seq DESC LIMIT 1').get(voterId)?.vote_seq ??
  0;

/** The window as the votes table tells it (the query the kept window replaced), after the suspension that began at `after`. */
function reference(db: Database, voterId: string, now: number, after = lastSuspended(db, voterId)) {
  return db
    .query<{ total: number; top: number }, [string, number, number]>(
      `SELECT coalesce(sum(n), 0) AS total, coalesce(max(n), 0) AS top FROM (
         SELECT count(*) AS n FROM votes WHERE voter_id = ? AND created_at > ? AND seq > ? GROUP BY author_id)`,
    )
    .get(voterId, now - WINDOW, after)!;
}

/** The rule (suspension.ts): at least 10 votes in the window, 60 % or more of them to one author. */
const isRing = (w: { total: number; top: number }) => w.total >= 10 && w.top * 5 >= w.total * 3;

/** Records every statement run (and the rows it answered) from here on. */
function recordStatements(db: Database) {
  const log: { sql: string; rows: number }[] = [];
  const query = db.query.bind(db);
  const patched = new WeakSet<object>();
  (db as { query: unknown }).query = (sql: string) => {
    const st = query(sql) as unknown as Record<string, (...a: unknown[]) => unknown>;
    if (!patched.has(st)) {
      patched.add(st);
      for (const m of ['get', 'all', 'run', 'values']) {
        const orig = st[m]!.bind(st);
        st[m] = (...a: unknown[]) => {
          const r = orig(...a);
          log.push({ sql, rows: Array.isArray(r) ? r.length : r == null ? 0 : 1 });
          return r;
        };
      }
    }
    return st;
  };
  return log;
}

describe('the vote-ring window', () => {
  test('answers what counting the last 24 h answers, vote after vote, as votes age out and a suspension clears it', () => {
    const { t, authors, voter, target } = setup();
    let suspended = 0;
    // A deterministic walk: mostly spread votes, runs of votes to one author, gaps of hours.
    for (let i = 0; i < 400; i++) {
      const author = i % 37 < 9 ? authors[0]! : authors[(i * 5) % authors.length]!;
      if (t.db.query('SELECT 1 FROM voting_suspensions WHERE account_id = ? AND ended_at IS NULL AND since > ?').get(voter.id, t.clock.now() - WINDOW)) {
        t.clock.advance(WINDOW + 1); // recovers by time
      }
      const before = lastSuspended(t.db, voter.id);
      const answer = castVote(t.ctx, voter, { target_id: target(author), value: 1 });
      expect(answer.duplicate).toBe(false);
      const now = t.clock.now();
      // The vote began a suspension exactly when the window with it (counted from the votes table) is a ring.
      expect(lastSuspended(t.db, voter.id) !== before).toBe(isRing(reference(t.db, voter.id, now, before)));
      const kept = t.db.query<{ total: number }, [string]>('SELECT total FROM vote_ring_windows WHERE voter_id = ?').get(voter.id)!;
      const top = t.db.query<{ n: number }, [string]>('SELECT coalesce(max(n), 0) AS n FROM vote_ring_counts WHERE voter_id = ?').get(voter.id)!;
      expect({ total: kept.total, top: kept.total === 0 ? 0 : top.n }).toEqual(reference(t.db, voter.id, now));
      suspended = t.db.query<{ n: number }, []>('SELECT count(*) AS n FROM voting_suspensions').get()!.n;
      t.clock.advance(i % 11 === 0 ? 5 * HOUR : 7 * 60_000);
    }
    expect(suspended).toBeGreaterThan(0);
  });

  test('a window started on votes already stored counts only those of the last 24 h', () => {
    const { t, authors, voter, target } = setup();
    const insert = t.db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, 1, 1, ?)');
    for (let i = 0; i < 30; i++) {
      insert.run(voter.id, target(authors[i % 3]!), authors[i % 3]!, t.clock.now());
      t.clock.advance(HOUR);
    }
    expect(ringWindowAt(t.db, voter.id, t.clock.now() - WINDOW, null, () => true)).toEqual(reference(t.db, voter.id, t.clock.now()));
  });

  test('a bound left high by votes that aged out does not suspend: the counts are read', () => {
    const { t, authors, voter, target } = setup();
    const spread = (n: number, from: number) => {
      for (let i = 0; i < n; i++) {
        castVote(t.ctx, voter, { target_id: target(authors[1 + ((from + i) % 7)]!), value: 1 });
        t.clock.advance(60_000);
      }
    };
    spread(5, 0);
    t.clock.advance(HOUR);
    for (let i = 0; i < 6; i++) castVote(t.ctx, voter, { target_id: target(authors[0]!), value: 1 }); // 6 of 11: under 60 %
    t.clock.advance(HOUR);
    spread(5, 5);
    t.clock.advance(WINDOW - HOUR); // the first five and the six to one author age out
    spread(5, 3); // 10 votes in the window, none to that author: its 6 stay in the bound
    const suspensions = t.db.query<{ n: number }, []>('SELECT count(*) AS n FROM voting_suspensions').get()!.n;
    expect(suspensions).toBe(0);
    expect(reference(t.db, voter.id, t.clock.now())).toEqual({ total: 10, top: 2 });
    const kept = t.db.query<{ total: number; top_bound: number }, [string]>('SELECT total, top_bound FROM vote_ring_windows WHERE voter_id = ?').get(voter.id)!;
    expect(kept).toEqual({ total: 10, top_bound: 2 });
  });

  test("the upgrade to schema 0043 sets each kept window's bound to its top count and drops the index by count", () => {
    const data = mkdtempSync(join(tmpdir(), 'svc-ring-'));
    try {
      const db = openDatabase(data);
      const at = MIGRATIONS.findIndex((m) => m.name === '0043_vote_ring_top_bound.sql');
      migrate(db, MIGRATIONS.slice(0, at));
      const account = db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, 0)');
      for (const n of ['busy', 'quiet']) account.run(n, n, n, `key-${n}`);
      const window = db.query('INSERT INTO vote_ring_windows (voter_id, total, vote_head, vote_tail, review_head, review_tail) VALUES (?, ?, 0, 0, 0, 0)');
      window.run('busy', 9);
      window.run('quiet', 0);
      const count = db.query('INSERT INTO vote_ring_counts (voter_id, author_id, n) VALUES (?, ?, ?)');
      count.run('busy', 'a', 3);
      count.run('busy', 'b', 5);
      count.run('busy', 'c', 1);
      expect(migrate(db).applied).toEqual(MIGRATIONS.slice(at).map((m) => m.name));
      expect(db.query('SELECT voter_id, top_bound FROM vote_ring_windows ORDER BY voter_id').all()).toEqual([
        { voter_id: 'busy', top_bound: 5 },
        { voter_id: 'quiet', top_bound: 0 },
      ]);
      expect(db.query("SELECT name FROM sqlite_master WHERE name = 'vote_ring_top'").get()).toBeNull();
      db.close();
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('the top count is kept as a bound: read exactly when the bound does not rule the pattern out, never under the top', () => {
    const { t, authors, voter, target } = setup();
    const insert = t.db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, 1, 1, ?)');
    const vote = (author: string) => insert.run(voter.id, target(author), author, t.clock.now());
    const cutoff = () => t.clock.now() - WINDOW;
    const never = () => false;
    // Six votes to one author, then twelve spread over the others: the bound is 6, the top too.
    for (let i = 0; i < 6; i++) vote(authors[0]!);
    t.clock.advance(12 * HOUR);
    for (let i = 0; i < 12; i++) vote(authors[1 + (i % 6)]!);
    expect(ringWindowAt(t.db, voter.id, cutoff(), null, never)).toEqual({ total: 18, top: 6 });
    // The six age out: the bound stays at 6 while the top is 2 (a bound, never below the top).
    t.clock.advance(13 * HOUR);
    expect(ringWindowAt(t.db, voter.id, cutoff(), null, never)).toEqual({ total: 12, top: 6 });
    expect(reference(t.db, voter.id, t.clock.now())).toEqual({ total: 12, top: 2 });
    // Asked for exactly: the counts are read, and the bound is exact again from then on.
    const asked: [number, number][] = [];
    const exact = (total: number, bound: number) => {
      asked.push([total, bound]);
      return true;
    };
    expect(ringWindowAt(t.db, voter.id, cutoff(), null, exact)).toEqual({ total: 12, top: 2 });
    expect(asked).toEqual([[12, 6]]);
    expect(ringWindowAt(t.db, voter.id, cutoff(), null, never)).toEqual({ total: 12, top: 2 });
    // A count up raises it to the count reached.
    vote(authors[1]!);
    expect(ringWindowAt(t.db, voter.id, cutoff(), null, never)).toEqual({ total: 13, top: 3 });
  });

  test("a vote that ages one vote out reads the voter's votes once at each end and counts down once", () => {
    const { t, authors, voter, target } = setup();
    const log = recordStatements(t.db); // before the vote statements are prepared
    for (let i = 0; i < 30; i++) {
      castVote(t.ctx, voter, { target_id: target(authors[i % authors.length]!), value: 1 });
      t.clock.advance(HOUR);
    }
    log.length = 0;
    castVote(t.ctx, voter, { target_id: target(authors[0]!), value: 1 }); // one vote, 24 h old, leaves
    const ran = (re: RegExp) => log.filter((l) => re.test(l.sql)).length;
    expect(ran(/INDEXED BY votes_by_voter_seq\s+WHERE voter_id = \+?\? AND seq > \+?\? AND seq <= \+?\?/)).toBe(2);
    expect(ran(/^UPDATE vote_ring_counts SET n = n - 1/)).toBe(1);
    expect(ran(/^DELETE FROM vote_ring_counts/)).toBe(0); // its author still has votes in the window
    expect(t.db.query<{ total: number }, [string]>('SELECT total FROM vote_ring_windows WHERE voter_id = ?').get(voter.id)!.total).toBe(24);
  });

  test.each([['the ring check of a vote', 'the window']])('%s runs the same statements and reads the same rows with 20 or 2,000 votes in %s', () => {
    const cost = (history: number) => {
      const { t, authors, voter, target } = setup();
      const insert = t.db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, 1, 1, ?)');
      t.db.transaction(() => {
        for (let i = 0; i < history; i++) insert.run(voter.id, target(authors[i % authors.length]!), authors[i % authors.length]!, t.clock.now());
      })();
      const log = recordStatements(t.db); // before the vote statements are prepared
      castVote(t.ctx, voter, { target_id: target(authors[0]!), value: 1 }); // the window starts
      const targets = Array.from({ length: 10 }, (_, i) => target(authors[i % authors.length]!));
      log.length = 0;
      for (const id of targets) {
        t.clock.advance(1000);
        castVote(t.ctx, voter, { target_id: id, value: 1 });
      }
      return { t, log };
    };
    const small = cost(20);
    const large = cost(2000);
    expect(large.log.map((l) => l.sql)).toEqual(small.log.map((l) => l.sql));
    expect(large.log.map((l) => l.rows)).toEqual(small.log.map((l) => l.rows));
    // Nothing a vote runs walks the voter's votes without a bound: every read of votes is a key
    // lookup or an index walk in order under a LIMIT (no sort, no aggregate over a range).
    const reads = [...new Set(large.log.map((l) => l.sql))].filter((sql) => /^\s*SELECT/i.test(sql) && /\b(pubs_)?votes\b/.test(sql));
    expect(reads.length).toBeGreaterThan(0);
    for (const sql of reads) {
      const lines = plan(large.t.db, sql);
      const limited = /\bLIMIT\s+\+?\?/i.test(sql); // a parameter may stand behind a unary plus (src/db/stable-plan.ts)
      for (const line of lines.filter((l) => /\b(SCAN|SEARCH) (v|pv|votes|pubs_votes)\b/.test(l))) {
        if (/\((seq=\?|voter_id=\? AND target_id=\?|rowid=\?)\)/.test(line)) continue;
        expect({ sql, line, limited }).toEqual({ sql, line, limited: true });
      }
      expect(lines.filter((l) => /TEMP B-TREE/.test(l))).toEqual([]);
    }
  });
});
