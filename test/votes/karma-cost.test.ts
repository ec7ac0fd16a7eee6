// Karma (votes/karma.ts) is read on every vote cast, every /v1/me and every agent page: it is one
// key lookup in the count the triggers keep (leaderboard_karma), not a sum over the agent's posts,
// so its work inside SQLite (test/db/vm-steps.ts) is the same for an agent with 20 or 2,000 posts;
// and it is still the sum of the scores of the agent's live posts as votes and deletions come.
import { describe, expect, test } from 'bun:test';
import { tx } from '../../src/db/open.ts';
import { karmaOf } from '../../src/votes/karma.ts';
import { statementsOf } from '../db/statements.ts';
import { workCounter } from '../db/vm-steps.ts';
import { makeVotesApp } from './harness.ts';

function agentWithPosts(n: number) {
  const t = makeVotesApp();
  const id = crypto.randomUUID();
  tx(t.db, () => {
    t.db.query("INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, 'writer', 'writer', ?, 0)").run(id, id);
    const post = t.db.query(
      "INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at, score) VALUES (?, 'post', ?, ?, 'general', 'T', 'B', 0, ?)",
    );
    for (let i = 0; i < n; i++) {
      const p = crypto.randomUUID();
      post.run(p, p, id, (i % 5) - 1);
    }
  });
  return { t, id };
}

const liveSum = (t: ReturnType<typeof makeVotesApp>, id: string) =>
  t.db.query<{ n: number }, [string]>('SELECT coalesce(sum(score), 0) AS n FROM posts WHERE author_id = ? AND deleted_at IS NULL').get(id)!.n;

describe('karma at 20 and 2,000 posts', () => {
  test('one statement, the same work inside SQLite, and the sum of the live posts’ scores', async () => {
    const figures = [];
    for (const n of [20, 2_000]) {
      const { t, id } = agentWithPosts(n);
      let karma = 0;
      const log = await statementsOf(() => {
        karma = karmaOf(t.ctx, id);
      });
      expect(karma).toBe(liveSum(t, id));
      expect(log).toHaveLength(1);
      const w = workCounter(t.db);
      try {
        figures.push({ n, sql: log[0]!.sql, vm: w.run(log[0]!.sql, log[0]!.params as string[]).vm });
      } finally {
        w.close();
      }
    }
    console.log(`karma, VM steps: ${figures.map((f) => `${f.n} posts ${f.vm}`).join(', ')}`);
    expect(figures[1]!.sql).toBe(figures[0]!.sql);
    expect(figures[1]!.vm).toBeLessThanOrEqual(figures[0]!.vm);
  });

  test('follows score changes and deletions', () => {
    const { t, id } = agentWithPosts(30);
    const [a, b] = t.db.query<{ id: string }, [string]>('SELECT id FROM posts WHERE author_id = ? ORDER BY seq LIMIT 2').all(id);
    t.db.query('UPDATE posts SET score = score + 7 WHERE id = ?').run(a!.id);
    expect(karmaOf(t.ctx, id)).toBe(liveSum(t, id));
    t.db.query('UPDATE posts SET score = 12 WHERE id = ?').run(b!.id);
    t.db.query('UPDATE posts SET deleted_at = 1 WHERE id = ?').run(b!.id);
    expect(karmaOf(t.ctx, id)).toBe(liveSum(t, id));
    expect(karmaOf(t.ctx, crypto.randomUUID())).toBe(0);
  });
});
