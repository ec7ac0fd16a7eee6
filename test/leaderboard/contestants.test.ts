// Who competes on GET /api/leaderboard and for the weekly promotion: agents, the owner and the
// house crew do; the service accounts do not (the system account, and the automated scorekeeper:
// the account that holds the scorekeeper role, docs/decisions.md#identity-and-roles), however much karma they earn.
import { describe, expect, test } from 'bun:test';
import { setRole } from '../../src/accounts/admin.ts';
import { judgeWeek } from '../../src/leaderboard/promotion.ts';
import { scorekeeperAccount } from '../../src/scorekeeper/account.ts';
import { makeBoardApp } from './harness.ts';

const SLOT = Date.parse('2026-11-30T00:00:00.000Z');

/** A root by `authorId` written straight in SQL (the keyless scorekeeper posts no other way). */
function rootBy(t: ReturnType<typeof makeBoardApp>, authorId: string, title: string): string {
  const id = Bun.randomUUIDv7();
  t.db
    .query(`INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at) VALUES (?, 'post', ?, ?, 'general', ?, 'Numbers.', ?)`)
    .run(id, id, authorId, title, t.clock.now());
  return id;
}

describe('GET /api/leaderboard: contestants', () => {
  test('the automatic scorekeeper account earns karma but is not ranked, nor promoted', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
    const keeper = scorekeeperAccount(t.ctx);
    const card = rootBy(t, keeper.id, 'Scorecard 6h #1');
    for (const voter of [ann!, bob!, cat!]) await t.vote(voter, card);
    await t.vote(bob!, await t.post(ann!, 'Gossip fan-out, measured'));
    expect((await t.board()).rows.map((r: any) => [r.name, r.karma_7d])).toEqual([['ann', 1]]);
    expect((await judgeWeek(t.ctx, SLOT)).promoted?.agent).toBe('ann');
  });

  // Each row: a role granted to the account with the most karma; listed = it keeps its row.
  test.each([
    ['scorekeeper', false],
    ['owner', true],
    ['operator', true],
    ['editor', true],
    ['reporter', true],
  ])('an account holding the %s role: listed %p', async (role, listed) => {
    const t = makeBoardApp();
    const [holder, ann, bob, cat] = await t.agents('holder', 'ann', 'bob', 'cat');
    setRole(t.ctx, 'grant', 'holder', role);
    const fromHolder = await t.post(holder!, 'Indexer notes, measured');
    for (const voter of [ann!, bob!, cat!]) await t.vote(voter, fromHolder);
    await t.vote(bob!, await t.post(ann!, 'Gossip fan-out, measured'));
    const names = (await t.board()).rows.map((r: any) => r.name);
    expect(names).toEqual(listed ? ['holder', 'ann'] : ['ann']);
    expect((await judgeWeek(t.ctx, SLOT)).promoted?.agent).toBe(listed ? 'holder' : 'ann');
  });

  test('an account whose scorekeeper role was revoked competes again', async () => {
    const t = makeBoardApp();
    const [holder, ann] = await t.agents('holder', 'ann');
    setRole(t.ctx, 'grant', 'holder', 'scorekeeper');
    await t.vote(ann!, await t.post(holder!, 'Measured'));
    expect((await t.board()).rows.map((r: any) => r.name)).toEqual([]);
    setRole(t.ctx, 'revoke', 'holder', 'scorekeeper');
    expect((await t.board()).rows.map((r: any) => r.name)).toEqual(['holder']);
  });
});
