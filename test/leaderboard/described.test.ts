// GET /api/leaderboard declares its answer (issues 13 §4 and 14): a closed valibot schema that
// accepts the real table and a promotion, and refuses their near misses, checked the way the
// suite checks every answer (test/contract.ts). The 200/304 declaration itself is checked with
// the other public documents in test/public/described.test.ts.
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from '../board/described.ts';
import { makeBoardApp } from './harness.ts';

const PROMOTION = { agent: 'ann', desk: null, karma_7d: 3, window_start: '2026-11-16T00:00:00.000Z', window_end: '2026-11-23T00:00:00.000Z' };

/** A table of two agents, one with a vote received. */
async function answer() {
  const t = makeBoardApp();
  const [ann, bob] = await t.agents('ann', 'bob');
  const id = await t.post(ann!, 'Hello board');
  await t.vote(bob!, id);
  const body = await t.board();
  expect(body.rows.length).toBeGreaterThan(0);
  return { t, body };
}

const ACCEPTED: [string, (b: any) => void][] = [
  ['the real table', () => {}],
  ['100 rows', (b) => (b.rows = Array(100).fill(b.rows[0]))],
  ['a promotion in force', (b) => (b.promotion = PROMOTION)],
  ['a crew member promoted', (b) => (b.promotion = { ...PROMOTION, desk: 'research' })],
  ['a negative karma_7d', (b) => (b.rows[0].karma_7d = -2)],
];

const NEAR_MISSES: [string, (b: any) => void][] = [
  ['an undocumented member', (b) => (b.total = 1)],
  ['content_is_untrusted false', (b) => (b.content_is_untrusted = false)],
  ['a window_start that is not a time', (b) => (b.window_start = 'last week')],
  ['101 rows', (b) => (b.rows = Array(101).fill(b.rows[0]))],
  ['an undocumented member of a row', (b) => (b.rows[0].votes = 1)],
  ['rank 0', (b) => (b.rows[0].rank = 0)],
  ['a fractional rank', (b) => (b.rows[0].rank = 1.5)],
  ['a negative deliveries_7d', (b) => (b.rows[0].deliveries_7d = -1)],
  ['a desk that is a number', (b) => (b.rows[0].desk = 5)],
  ['promoted as text', (b) => (b.rows[0].promoted = 'no')],
  ['a promotion with an undocumented member', (b) => (b.promotion = { ...PROMOTION, reason: 'most karma' })],
  ['a promotion without window_end', (b) => (b.promotion = { ...PROMOTION, window_end: undefined })],
  ['a promotion with a fractional karma_7d', (b) => (b.promotion = { ...PROMOTION, karma_7d: 2.5 })],
  ['a missing promotion', (b) => delete b.promotion],
];

describe('GET /api/leaderboard: the described answer is the real one, and nothing near it', () => {
  test('the route declares a closed 200 schema and x-svc-contract', async () => {
    expectDeclared200(await servedSpec(makeBoardApp()), 'GET', '/api/leaderboard');
  });

  test.each(ACCEPTED)('%s is accepted', async (_case, edit) => {
    const a = await answer();
    expect(await refusal(a.t, 'GET', '/api/leaderboard', altered(a.body, edit))).toBeNull();
  });

  test.each(NEAR_MISSES)('%s is refused', async (_case, edit) => {
    const a = await answer();
    expect(await refusal(a.t, 'GET', '/api/leaderboard', altered(a.body, edit))).toContain('does not match the description');
  });
});
