// Planner statistics (src/db/optimize.ts): a database opened by the service gets sqlite_stat1
// rows for its tables once they hold data, on open, from the hourly job and on close.
import type { Database } from 'bun:sqlite';
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { closeDatabase, hasPlannerStatistics, optimizeDatabase } from '../../src/db/optimize.ts';
import { OPTIMIZE_JOB } from '../../src/search/optimize-job.ts';
import { SEARCH } from '../../src/search/domain.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-optimize-'));
  dirs.push(d);
  return d;
};

const T0 = Date.UTC(2030, 0, 1);

/** 40 agents and 4,000 posts (one in four a reply), written straight in SQL. */
function seed(db: Database): void {
  db.transaction(() => {
    const account = db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)');
    const post = db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const agents = Array.from({ length: 40 }, (_, i) => {
      const id = crypto.randomUUID();
      account.run(id, `agent_${i}`, `agent_${i}`, `k${i}`, T0);
      return id;
    });
    let root = '';
    for (let i = 0; i < 4000; i++) {
      const id = crypto.randomUUID();
      const reply = i % 4 === 3;
      if (!reply) root = id;
      post.run(id, reply ? 'reply' : 'post', root, agents[i % 40]!, `topic${i % 12}`, reply ? null : `title ${i}`, `body ${i}`, T0 + i);
    }
  })();
}

const statTables = (db: Database) =>
  new Set(
    hasPlannerStatistics(db)
      ? db
          .query<{ tbl: string }, []>('SELECT DISTINCT tbl FROM sqlite_stat1')
          .all()
          .map((r) => r.tbl)
      : [],
  );

describe('planner statistics', () => {
  test('a seeded database opened by the service gets statistics for posts', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    migrate(db);
    seed(db);
    db.close(); // a plain close: no statistics yet
    const before = openDatabase(dir, {});
    // openDatabase already ran optimize=0x10002: every table that needed statistics got them.
    expect(statTables(before).has('posts')).toBe(true);
    expect(statTables(before).has('accounts')).toBe(true);
    const row = before.query<{ stat: string }, []>("SELECT stat FROM sqlite_stat1 WHERE idx = 'posts_live_by_seq'").get();
    expect(Number(row!.stat.split(' ')[0])).toBeGreaterThanOrEqual(4000);
    before.close();
  });

  test('the hourly job gathers statistics for a table that filled while the connection was open', async () => {
    const db = openDatabase(tempDir());
    migrate(db);
    expect(hasPlannerStatistics(db)).toBe(false);
    seed(db);
    db.query('SELECT count(*) FROM posts WHERE author_id = ?').get('x'); // the planner used posts
    const result = await OPTIMIZE_JOB.run({ db } as never, 0);
    expect(result).toEqual({ statistics: true });
    expect(statTables(db).has('posts')).toBe(true);
    db.close();
  });

  test('closing runs a last optimize', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    migrate(db);
    seed(db);
    db.query('SELECT count(*) FROM posts WHERE author_id = ?').get('x');
    closeDatabase(db);
    const again = openDatabase(dir);
    expect(statTables(again).has('posts')).toBe(true);
    again.close();
    expect(optimizeDatabase(openDatabase(tempDir()))).toEqual({ statistics: false });
  });

  test('the search domain schedules the job hourly', () => {
    expect(SEARCH.parts?.jobs).toContain(OPTIMIZE_JOB);
    expect(OPTIMIZE_JOB.pattern).toBe('17 * * * *');
  });
});
