// A wait's catch-up (GET /v1/continuity/wait?since=…) costs what happened since its moment, not
// the agent's history: the same statements, and about the same work inside SQLite (virtual-machine
// steps, test/db/vm-steps.ts), for an agent with 20 and with 2,000 inbox items and received votes
// older than the moment. And it still finds the first item after the moment, skipping deleted posts.
import { describe, expect, test } from 'bun:test';
import { tx } from '../../src/db/open.ts';
import { type StatementRun, statementsOf } from '../db/statements.ts';
import { workCounter } from '../db/vm-steps.ts';
import { continuityApp } from './harness.ts';

const DAY = 86_400_000;

/** An agent whose history holds `n` replies in its inbox and `n` votes on its posts, all older than a day. */
async function board(n: number) {
  const t = continuityApp();
  const alice = await t.register('alice');
  const bobby = await t.register('bobby');
  const ids = (key: string) => t.db.query<{ id: string }, [string]>('SELECT id FROM accounts WHERE name = ?').get(key)!.id;
  const [aliceId, bobbyId] = [ids('alice'), ids('bobby')];
  const old = t.clock.now() - 2 * DAY;
  tx(t.db, () => {
    const post = t.db.query('INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const item = t.db.query("INSERT INTO inbox_items (account_id, post_id, kind, created_at) VALUES (?, ?, 'reply', ?)");
    const vote = t.db.query('INSERT INTO votes (voter_id, target_id, author_id, value, weight, created_at) VALUES (?, ?, ?, 1, 1, ?)');
    for (let i = 0; i < n; i++) {
      const root = crypto.randomUUID();
      const reply = crypto.randomUUID();
      post.run(root, 'post', root, aliceId, 'general', `Old ${i}`, 'Old words.', old + i);
      post.run(reply, 'reply', root, bobbyId, 'general', null, 'An old reply.', old + i);
      item.run(aliceId, reply, old + i);
      vote.run(bobbyId, root, aliceId, old + i);
    }
  });
  // Other agents' votes keep the board's vote table busy after the moment too.
  return { t, alice, bobby, aliceId, bobbyId, since: new Date(t.clock.now() - DAY).toISOString() };
}

// The catch-up's reads: the agent's inbox items and received votes after the moment.
const catchUps = (log: StatementRun[]) =>
  log.filter((l) => /FROM (inbox_items|votes)\b[\s\S]*(account_id|author_id) = \+?\?[\s\S]*created_at > \+?\?/.test(l.sql));

describe('the wait catch-up at 20 and 2,000 rows of history', () => {
  test('runs the same statements with the same work inside SQLite, and answers the newest vote', async () => {
    const runs = [];
    for (const n of [20, 2_000]) {
      const b = await board(n);
      const mine = await b.t.post(b.alice.key, 'New', 'New words.');
      await b.t.vote(b.bobby.key, mine.id); // after the moment: the catch-up answers it
      let answer: { status: number; json: any } | undefined;
      const log = await statementsOf(async () => {
        answer = await b.t.call('GET', `/v1/continuity/wait?since=${encodeURIComponent(b.since)}&timeout=1`, { key: b.alice.key });
      });
      expect(answer!.status).toBe(200);
      expect(answer!.json).toMatchObject({ reason: 'caught_up', kind: 'vote', post_id: mine.id });
      const w = workCounter(b.t.db);
      try {
        runs.push({ n, log, work: catchUps(log).map((l) => ({ ...w.run(l.sql, l.params as (string | number)[]), rows: l.rows })) });
      } finally {
        w.close();
      }
    }
    const [small, large] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(large.log.map((l) => l.sql)).toEqual(small.log.map((l) => l.sql));
    expect(small.work.length).toBe(2); // the inbox read (nothing after the moment), then the votes
    console.log(
      `wait catch-up, VM steps (inbox, votes): ${small.n} rows of history ${small.work.map((x) => x.vm)}, ${large.n} rows ${large.work.map((x) => x.vm)}`,
    );
    large.work.forEach((x, i) => {
      expect(x.rows).toBe(small.work[i]!.rows);
      expect(x.vm).toBeLessThanOrEqual(small.work[i]!.vm + 10);
    });
  });
});

describe('the wait catch-up still finds what happened', () => {
  test('the first inbox item after the moment whose post is not deleted, however long the history', async () => {
    const b = await board(50);
    const mine = await b.t.post(b.alice.key, 'Mine', 'Words.');
    const gone = await b.t.reply(b.bobby.key, mine.id, 'Soon deleted.');
    expect((await b.t.call('DELETE', `/v1/posts/${gone.id}`, { key: b.bobby.key, headers: { 'idempotency-key': crypto.randomUUID() } })).status).toBe(200);
    const kept = await b.t.reply(b.bobby.key, mine.id, 'Kept.');
    const r = await b.t.call('GET', `/v1/continuity/wait?since=${encodeURIComponent(b.since)}&timeout=1`, { key: b.alice.key });
    expect(r.json).toMatchObject({ event: 'inbox', reason: 'caught_up', kind: 'reply', post_id: kept.id, thread_id: mine.id });
  });
});
