// The window figures the leaderboard reads from its kept spans (schema/0013_leaderboard_week.sql)
// equal a recount from every post and vote: for windows starting on a day, on an hour and in the
// middle of one, after votes, deletions of voted posts, and for figures written before the
// migration (its backfill).
import type { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { SYSTEM_ACCOUNT_ID } from '../../src/board/posts.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/compose.ts';
import { serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { standings, WEEK_MS, windowParts } from '../../src/leaderboard/standings.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-23T12:00:00Z');

/** A small deterministic generator, so a failure names the same board every run. */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** 12 agents, 400 posts over the 10 days before NOW, 900 votes, 40 deletions, in plain SQL. */
function seedBoard(db: Database) {
  const r = rng(7);
  const agents = Array.from({ length: 12 }, (_, i) => `0190000${i.toString(16)}-0000-7000-8000-000000000000`);
  for (const [i, id] of agents.entries()) {
    db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(id, `agent${i}`, `agent${i}`, `h${i}`, 0);
  }
  const posts: { id: string; author: string; at: number }[] = [];
  for (let i = 0; i < 400; i++) {
    const at = NOW - 10 * DAY + Math.floor((i / 400) * 10 * DAY) + Math.floor(r() * 1000);
    const id = Bun.randomUUIDv7('hex', at);
    const author = agents[Math.floor(r() * agents.length)]!;
    db.query(`INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, 'post', ?, ?, 'general', 't', 'b', ?)`).run(
      id,
      id,
      author,
      at,
    );
    posts.push({ id, author, at });
  }
  for (let i = 0; i < 900; i++) {
    const p = posts[Math.floor(r() * posts.length)]!;
    const voter = agents[Math.floor(r() * agents.length)]!;
    const value = r() < 0.25 ? -1 : 1;
    const weight = 1 + Math.floor(r() * 3);
    const at = Math.min(NOW, p.at + Math.floor(r() * 3 * DAY));
    const stored = db
      .query('INSERT OR IGNORE INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(voter, p.id, p.author, value, weight, at);
    if (stored.changes) db.query('UPDATE posts SET score = score + ? WHERE id = ?').run(value * weight, p.id);
  }
  for (let i = 0; i < 40; i++) db.query('UPDATE posts SET deleted_at = ? WHERE id = ?').run(NOW, posts[Math.floor(r() * posts.length)]!.id);
}

/** The figures counted again from every live post and every vote on one. */
function recount(db: Database, start: number, end: number) {
  const rows = <T>(sql: string, ...args: number[]) => db.query(sql).all(...args) as T[];
  const karma = rows<{ id: string; n: number }>('SELECT author_id AS id, sum(score) AS n FROM posts WHERE deleted_at IS NULL GROUP BY author_id');
  const week = rows<{ id: string; n: number; votes: number }>(
    `SELECT v.author_id AS id, sum(v.value * v.weight) AS n, count(*) AS votes FROM votes v JOIN posts p ON p.id = v.target_id
     WHERE p.deleted_at IS NULL AND v.created_at >= ? AND v.created_at < ? GROUP BY v.author_id`,
    start,
    end,
  );
  const posts = rows<{ id: string; n: number }>(
    'SELECT author_id AS id, count(*) AS n FROM posts WHERE deleted_at IS NULL AND created_at >= ? AND created_at < ? GROUP BY author_id',
    start,
    end,
  );
  const m = (list: { id: string; n: number }[]) => new Map(list.map((x) => [x.id, x.n]));
  const [k, w, v, p] = [m(karma), m(week), new Map(week.map((x) => [x.id, x.votes])), m(posts)];
  const ids = (db.query('SELECT id FROM accounts WHERE id != ? ORDER BY id').all(SYSTEM_ACCOUNT_ID) as { id: string }[]).map((a) => a.id);
  return ids.map((id) => ({ id, karma: k.get(id) ?? 0, karma_7d: w.get(id) ?? 0, votes_7d: v.get(id) ?? 0, posts_7d: p.get(id) ?? 0 }));
}

function figures(db: Database, start: number, end: number) {
  const ctx = serviceContext(loadConfig({}), db, new ManualClock(NOW));
  return standings(ctx, start, end)
    .map((s) => ({ id: s.id, karma: s.karma, karma_7d: s.karma_7d, votes_7d: s.votes_7d, posts_7d: s.posts_7d }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

// Window ends: on a UTC day, on an hour, inside an hour, a millisecond past midnight.
const ENDS = [
  ['on a day', Date.parse('2026-11-23T00:00:00Z')],
  ['on an hour', Date.parse('2026-11-23T07:00:00Z')],
  ['inside an hour', Date.parse('2026-11-23T11:59:59.999Z')],
  ['just past midnight', Date.parse('2026-11-22T00:00:00.001Z')],
  ['now + 1 ms (as the board reads it)', NOW + 1],
] as const;

describe('the week read from kept spans equals a recount', () => {
  test.each(ENDS)('a window ending %s', (_, end) => {
    const db = openMemoryDatabase();
    migrate(db);
    seedBoard(db);
    const expected = recount(db, end - WEEK_MS, end);
    expect(expected.some((x) => x.karma_7d !== 0 && x.posts_7d > 0)).toBe(true); // the board is not empty
    expect(figures(db, end - WEEK_MS, end)).toEqual(expected);
  });

  test('short windows (inside one hour, across two hours) too', () => {
    const db = openMemoryDatabase();
    migrate(db);
    seedBoard(db);
    for (const [start, end] of [
      [NOW - 3 * DAY + 10 * 60_000, NOW - 3 * DAY + 50 * 60_000],
      [NOW - 2 * DAY - 30 * 60_000, NOW - 2 * DAY + HOUR + 30 * 60_000],
    ] as const) {
      expect(figures(db, start, end)).toEqual(recount(db, start, end));
    }
  });

  test('a board written before the migration: its backfill gives the same figures', () => {
    const db = openMemoryDatabase();
    // The schema as a build before 0013 left it: later migrations may add triggers that expect its tables.
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 13),
    );
    seedBoard(db);
    migrate(db);
    for (const [, end] of ENDS) expect(figures(db, end - WEEK_MS, end)).toEqual(recount(db, end - WEEK_MS, end));
  });

  test('a deletion takes the post, its score and the votes on it out; near miss: a vote on a live post stays', () => {
    const db = openMemoryDatabase();
    migrate(db);
    seedBoard(db);
    const live = db.query('SELECT id, author_id FROM posts WHERE deleted_at IS NULL AND score != 0 ORDER BY seq DESC LIMIT 1').get() as {
      id: string;
      author_id: string;
    };
    const before = figures(db, NOW - WEEK_MS, NOW + 1).find((x) => x.id === live.author_id)!;
    db.query('UPDATE posts SET deleted_at = ? WHERE id = ?').run(NOW, live.id);
    const after = figures(db, NOW - WEEK_MS, NOW + 1).find((x) => x.id === live.author_id)!;
    expect(after).not.toEqual(before);
    expect(figures(db, NOW - WEEK_MS, NOW + 1)).toEqual(recount(db, NOW - WEEK_MS, NOW + 1));
  });
});

describe('windowParts: whole days, whole hours, and the partial hours left over', () => {
  test.each([
    ['a week ending inside an hour', NOW + 1 - WEEK_MS, NOW + 1, { raw: 2, hours: 2, days: 1 }],
    ['a week from midnight to midnight', Date.parse('2026-11-16T00:00:00Z'), Date.parse('2026-11-23T00:00:00Z'), { raw: 0, hours: 0, days: 1 }],
    ['a week on whole hours', Date.parse('2026-11-16T05:00:00Z'), Date.parse('2026-11-23T05:00:00Z'), { raw: 0, hours: 2, days: 1 }],
    ['inside one hour', NOW + 60_000, NOW + 120_000, { raw: 1, hours: 0, days: 0 }],
    ['two partial hours, no whole one', NOW - 60_000, NOW + 60_000, { raw: 1, hours: 0, days: 0 }],
    ['hours inside one day', NOW - 3 * HOUR - 1, NOW + 1, { raw: 2, hours: 1, days: 0 }],
  ])('%s', (_, start, end, shape) => {
    const parts = windowParts(start, end);
    expect({ raw: parts.raw.length, hours: parts.hours.length, days: parts.days.length }).toEqual(shape);
    // The parts cover [start, end) exactly once.
    const all = [...parts.raw, ...parts.hours, ...parts.days].sort((a, b) => a[0] - b[0]);
    expect(all[0]![0]).toBe(start);
    expect(all.at(-1)![1]).toBe(end);
    for (let i = 1; i < all.length; i++) expect(all[i]![0]).toBe(all[i - 1]![1]);
    for (const [a, b] of parts.hours) expect([a % HOUR, b % HOUR]).toEqual([0, 0]);
    for (const [a, b] of parts.days) expect([a % DAY, b % DAY]).toEqual([0, 0]);
  });
});
