// The values schema/0030 keeps by trigger answer as the reads they replaced (issue 27): the
// published count of the quorum rule, and the top feed ordered by the article's kept score. A
// seeded series of the publication layer's own writes (src/pubs/store.ts), checked after each.
import type { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { pubsStore } from '../../src/pubs/store.ts';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { migratedDb } from '../db/plans.ts';

const PUBLIC = 'i.published_revision_id IS NOT NULL AND i.withdrawn_at IS NULL AND i.hidden_at IS NULL';
// The reads as they were before schema/0030: a count of every published article, and the top feed
// sorted by the published revision's score.
const OLD_COUNT = `SELECT count(*) AS n FROM pubs_items i WHERE ${PUBLIC}`;
const OLD_TOP = `SELECT i.id, r.score, i.published_seq FROM pubs_items i JOIN accounts a ON a.id = i.author_id
  JOIN pubs_revisions r ON r.id = i.published_revision_id
  WHERE a.deleted_at IS NULL AND ${PUBLIC} AND (r.score < ?1 OR (r.score = ?1 AND i.published_seq < ?2))
  ORDER BY r.score DESC, i.published_seq DESC LIMIT ?3`;

/** A small deterministic generator, so a failure replays. */
function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 16) % n; // the high bits: an LCG's low bits repeat with a short period
  };
}

type Top = { id: string; score: number; published_seq: number };

/** Every page of the top feed, `limit` at a time, through the cursor the route hands out. */
function pages(next: (score: number, seq: number, limit: number) => Top[], limit: number): Top[] {
  const out: Top[] = [];
  let at = { score: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER };
  for (;;) {
    const rows = next(at.score, at.seq, limit + 1);
    out.push(...rows.slice(0, limit));
    if (rows.length <= limit) return out;
    const last = rows[limit - 1]!;
    at = { score: last.score, seq: last.published_seq };
  }
}

function world(d: Database, seed: number) {
  const s = pubsStore(d);
  const r = rng(seed);
  const accounts = ['a0', 'a1', 'a2', 'a3'];
  const addAccount = d.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, 0)');
  for (const a of accounts) addAccount.run(a, a, a, `hash-${a}`);
  const items: string[] = [];
  const revisions: { id: string; item: string }[] = [];
  let seq = 0;
  let publishedSeq = 0;
  const newRevision = (item: string) => {
    const id = `r${++seq}`;
    const number = s.lastNumber.get(item)!.n + 1;
    s.insertRevision.run(id, seq, item, accounts[r(accounts.length)]!, number, `t${seq}`, '[]', `h${seq}`, 'awaiting_votes', seq);
    revisions.push({ id, item });
    return id;
  };
  const steps: (() => void)[] = [
    () => {
      const id = `i${++seq}`;
      s.insertItem.run(id, seq, accounts[r(accounts.length)]!, seq);
      items.push(id);
      newRevision(id);
    },
    () => items.length && newRevision(items[r(items.length)]!),
    () => {
      // publish a revision of its item (a later one replaces the published one)
      if (!revisions.length) return;
      const rev = revisions[r(revisions.length)]!;
      s.publish.run(rev.id, seq, ++publishedSeq, rev.item);
    },
    () => revisions.length && s.addScore.get(r(5) - 2, r(2), revisions[r(revisions.length)]!.id),
    () => items.length && s.withdraw.run(seq, items[r(items.length)]!),
    () => items.length && s.resume.run(items[r(items.length)]!),
    () => items.length && s.hide.run(seq, items[r(items.length)]!),
    () => items.length && s.unhide.run(items[r(items.length)]!),
    () => d.query('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(seq, accounts[r(accounts.length)]!),
    () => d.query('UPDATE accounts SET deleted_at = NULL WHERE id = ?').run(accounts[r(accounts.length)]!),
  ];
  const weights = [6, 2, 6, 10, 2, 2, 1, 1, 1, 1];
  const pick = () => {
    let n = r(weights.reduce((a, b) => a + b, 0));
    for (let i = 0; i < weights.length; i++) {
      n -= weights[i]!;
      if (n < 0) return steps[i]!;
    }
    return steps[0]!;
  };
  return { s, step: () => pick()() };
}

describe('values kept by schema/0030 answer as the reads they replaced', () => {
  test.each([1, 2, 3, 4])('seed %d: published count and top feed after every write', (seed) => {
    const d = migratedDb();
    const { s, step } = world(d, seed);
    const oldTop = d.query<Top, [number, number, number]>(OLD_TOP);
    let published = 0;
    for (let i = 0; i < 400; i++) {
      step();
      const n = d.query<{ n: number }, []>(OLD_COUNT).get()!.n;
      expect(s.publishedCount.get()!.n).toBe(n);
      published = Math.max(published, n);
      if (i % 20 === 19) {
        const want = pages((a, b, l) => oldTop.all(a, b, l), 3);
        const got = pages((a, b, l) => s.feedTop.all(a, b, l).map((x) => ({ id: x.id, score: x.score, published_seq: x.published_seq! })), 3);
        expect(got).toEqual(want);
      }
    }
    // The series did publish, withdraw and score: the comparison had something to compare.
    expect(published).toBeGreaterThan(3);
    expect(d.query<{ n: number }, []>('SELECT count(DISTINCT score) AS n FROM pubs_revisions').get()!.n).toBeGreaterThan(3);
  });

  test('schema/0030 on a database with articles already published starts from their count and scores', () => {
    const d = openMemoryDatabase();
    migrate(
      d,
      MIGRATIONS.filter((m) => m.version < 30),
    );
    // The same series of writes as the store makes, without the kept columns (the 0029 schema).
    d.exec(`INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES ('a0', 'a0', 'a0', 'h0', 0), ('a1', 'a1', 'a1', 'h1', 0)`);
    const item = d.query('INSERT INTO pubs_items (id, seq, author_id, created_at) VALUES (?, ?, ?, 0)');
    const rev = d.query(
      "INSERT INTO pubs_revisions (id, seq, item_id, author_id, number, title, blocks, content_hash, status, score, created_at) VALUES (?, ?, ?, 'a0', 1, 't', '[]', 'h', 'approved', ?, 0)",
    );
    for (let i = 1; i <= 6; i++) {
      item.run(`i${i}`, i, i % 2 ? 'a0' : 'a1');
      rev.run(`r${i}`, i, `i${i}`, (i * 7) % 5);
    }
    d.exec("UPDATE pubs_items SET published_revision_id = 'r' || substr(id, 2), published_seq = seq WHERE seq <= 5");
    d.exec("UPDATE pubs_items SET withdrawn_at = 1 WHERE id = 'i2'; UPDATE pubs_items SET hidden_at = 1 WHERE id = 'i3'");
    migrate(d, MIGRATIONS);
    const s = pubsStore(d);
    expect(s.publishedCount.get()!.n).toBe(3);
    const top = s.feedTop.all(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 10).map((x) => [x.id, x.score]);
    expect(top).toEqual(
      d
        .query<Top, [number, number, number]>(OLD_TOP)
        .all(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 10)
        .map((x) => [x.id, x.score]),
    );
    expect(top.map(([id]) => id)).toEqual(['i4', 'i1', 'i5']); // scores 3, 2, 0
  });
});
