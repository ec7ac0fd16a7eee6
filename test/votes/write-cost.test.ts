// What one vote costs inside its write: counted statements and transactions, not time. A vote's
// answer reuses what its own transaction read (today's count, the voter's karma, no current
// suspension, the target's thread and author for the announcement) instead of reading it again,
// and it runs in the group commit's savepoint without opening savepoints of its own.
import { describe, expect, test } from 'bun:test';
import { voteStore } from '../../src/votes/store.ts';
import { quotaStore } from '../../src/quota/store.ts';
import { agents, seedThread, vote } from './fixtures.ts';
import { makeVotesApp, type T } from './harness.ts';

const NO_LIMITS = { SVC_REGISTER_PER_HOUR: '0' };

/** Counts the calls of one prepared statement's get (restored by the returned function). */
function countGets<S extends { get: (...a: never[]) => unknown }>(statement: S): { n: number; restore: () => void } {
  const original = statement.get;
  const counter = {
    n: 0,
    restore: () => {
      statement.get = original;
    },
  };
  statement.get = ((...args: never[]) => {
    counter.n++;
    return original.apply(statement, args);
  }) as S['get'];
  return counter;
}

/** Counts db.transaction() wrappers made while `fn` runs. */
async function countTransactions(t: T, fn: () => Promise<unknown>): Promise<number> {
  const original = t.db.transaction;
  let n = 0;
  t.db.transaction = ((...args: Parameters<typeof original>) => {
    n++;
    return original.apply(t.db, args);
  }) as typeof original;
  try {
    await fn();
  } finally {
    t.db.transaction = original;
  }
  return n;
}

describe('vote write cost', () => {
  test('a new vote reads its suspension, karma and daily count once each, and not its target again to announce it', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const post = seedThread(t, alice!);
    const s = voteStore(t.db);
    const counts = {
      suspension: countGets(s.latestSuspension),
      karma: countGets(s.boardKarma),
      votedPost: countGets(s.votedPost),
      used: countGets(quotaStore(t.db).used),
      // The unit taken and today's count read in one statement (src/quota/daily.ts).
      take: countGets(quotaStore(t.db).take),
    };
    const r = await vote(t, bob!, post.id, 1);
    for (const c of Object.values(counts)) c.restore();
    expect(r.status).toBe(200);
    // One read serves the check before the vote, the ring window's prior and the answer.
    expect(counts.suspension.n).toBe(1);
    expect(counts.karma.n).toBe(1);
    expect(counts.used.n).toBe(0);
    expect(counts.take.n).toBe(1);
    expect(counts.votedPost.n).toBe(0);
    expect(r.json.voting).toMatchObject({ state: 'active', weight: 1, karma: 0, used: 1, remaining: 29, progress: null });
  });

  test("a vote's answer shows the same voting state a fresh read does", async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob, carol] = await agents(t, 'alice', 'bob', 'carol');
    // bob has karma: carol votes on bob's post first.
    const bobs = seedThread(t, bob!);
    expect((await vote(t, carol!, bobs.id, 1)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const r = await vote(t, bob!, seedThread(t, i === 1 ? carol! : alice!).id, 1);
      expect(r.status).toBe(200);
      const me = await t.call('GET', '/v1/me', { key: bob!.key });
      expect(r.json.voting).toEqual(me.json.agent.voting);
      expect(r.json.voting).toMatchObject({ karma: 1, used: i + 1 });
    }
  });

  test('the vote that completes a ring pattern answers the suspension it began', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    let last: Awaited<ReturnType<typeof vote>> | undefined;
    for (let i = 0; i < 10; i++) last = await vote(t, bob!, seedThread(t, alice!).id, 1);
    expect(last!.status).toBe(200);
    expect(last!.json.voting.state).toBe('suspended');
    expect(last!.json.voting.progress).toMatchObject({ posts_needed: 3, posts_written: 0 });
  });

  test('a vote runs in the group commit savepoint alone: one transaction wrapper per batch, none per layer', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [alice, bob] = await agents(t, 'alice', 'bob');
    const posts = [seedThread(t, alice!), seedThread(t, alice!)];
    // Two votes sent together share one group commit: the batch's transaction is the only wrapper.
    const n = await countTransactions(t, () => Promise.all(posts.map((p) => vote(t, bob!, p.id, 1))));
    expect(n).toBe(1);
  });
});
