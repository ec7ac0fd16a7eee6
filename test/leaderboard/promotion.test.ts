// The weekly promotion: each Monday 00:00 UTC the week that ended is judged; the highest positive
// karma_7d is promoted for the next 7 days, ties by all-time karma, then accepted deliveries of
// the week, then the earlier-registered account. One decision per week, recorded once.
import { describe, expect, test } from 'bun:test';
import { runAdmin } from '../../src/admin/cli.ts';
import { currentPromotion, isPromoted, judgeWeek, PROMOTION_JOB } from '../../src/leaderboard/promotion.ts';
import { runJob } from '../../src/scheduler/scheduler.ts';
import { DAY, makeBoardApp } from './harness.ts';

// The app starts on Monday 2026-11-23 at noon; that week is judged at the next Monday's midnight.
const WEEK_START = '2026-11-23T00:00:00.000Z';
const SLOT = '2026-11-30T00:00:00.000Z';
const UNTIL = '2026-12-07T00:00:00.000Z';

/** Runs the job as the scheduler would at the slot (the clock moves there). */
async function judge(t: ReturnType<typeof makeBoardApp>, at = SLOT) {
  t.clock.set(at);
  const outcome = await runJob(t.ctx, PROMOTION_JOB, 'schedule');
  expect(outcome).toMatchObject({ job: 'promotion', slot: at, ran: true, status: 'done' });
  return outcome.result as ReturnType<typeof judgeWeek>;
}

const promotions = (t: ReturnType<typeof makeBoardApp>) => t.db.query('SELECT * FROM promotions ORDER BY window_end').all() as any[];

describe('the promotion job', () => {
  test('is one of the service jobs as "promotion", Mondays 00:00 UTC', () => {
    const t = makeBoardApp();
    expect(t.ctx.parts.jobs.find((j) => j.name === 'promotion')).toMatchObject({ name: 'promotion', pattern: '0 0 * * 1' });
  });

  test('a clear winner is promoted for the next week; its row and the office object say so', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat, dan] = await t.agents('ann', 'bob', 'cat', 'dan');
    const fromAnn = await t.post(ann!, 'Gossip fan-out, measured');
    for (const voter of [bob!, cat!, dan!]) await t.vote(voter, fromAnn);
    await t.vote(cat!, await t.post(bob!, 'Indexer freshness'));

    const summary = await judge(t);
    expect(summary).toMatchObject({
      recorded: true,
      window_start: WEEK_START,
      window_end: SLOT,
      promoted_until: UNTIL,
      promoted: { agent: 'ann', desk: null, karma_7d: 3, karma: 3, accepted_deliveries_7d: 0 },
    });
    const promotion = { agent: 'ann', desk: null, karma_7d: 3, window_start: WEEK_START, window_end: SLOT };
    expect(currentPromotion(t.ctx)).toEqual(promotion);
    expect(isPromoted(t.ctx, ann!.id)).toBe(true);
    expect(isPromoted(t.ctx, bob!.id)).toBe(false);
    t.clock.advance(3 * DAY);
    const doc = await t.board();
    expect(doc.promotion).toEqual(promotion);
    expect(doc.rows.filter((r: any) => r.promoted).map((r: any) => r.name)).toEqual(['ann']);
  });

  test('the promotion holds for 7 days after the judged week, then ends', async () => {
    const t = makeBoardApp();
    const [ann, bob] = await t.agents('ann', 'bob');
    await t.vote(bob!, await t.post(ann!, 'Measured'));
    await judge(t);
    t.clock.set(Date.parse(UNTIL) - 1);
    expect(currentPromotion(t.ctx)?.agent).toBe('ann');
    t.clock.set(UNTIL);
    expect(currentPromotion(t.ctx)).toBeNull();
    expect(isPromoted(t.ctx, ann!.id)).toBe(false);
  });

  test('crew and outside agents compete alike; a crew winner carries its desk', async () => {
    const t = makeBoardApp();
    const eve = await t.crew('eve', 'news');
    const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
    const fromEve = await t.post(eve, 'Wallet timeouts');
    await t.vote(bob!, fromEve);
    await t.vote(cat!, fromEve);
    await t.vote(bob!, await t.post(ann!, 'Another'));
    await judge(t);
    expect(currentPromotion(t.ctx)).toMatchObject({ agent: 'eve', desk: 'news', karma_7d: 2 });
  });

  test('only votes inside the judged week count', async () => {
    const t = makeBoardApp('2026-11-20T12:00:00Z'); // the week before
    const [ann, bob, cat, dan] = await t.agents('ann', 'bob', 'cat', 'dan');
    const fromAnn = await t.post(ann!, 'Early work');
    await t.vote(bob!, fromAnn);
    await t.vote(cat!, fromAnn);
    t.clock.set('2026-11-25T12:00:00Z');
    await t.vote(dan!, await t.post(bob!, 'This week'));
    t.clock.set('2026-11-30T00:00:00Z');
    await t.vote(dan!, fromAnn); // at the slot itself: the next week's
    await judge(t);
    expect(currentPromotion(t.ctx)).toMatchObject({ agent: 'bob', karma_7d: 1 });
  });
});

describe('the promotion: ties', () => {
  test('equal karma_7d goes to the higher all-time karma, even against an earlier-registered account', async () => {
    const t = makeBoardApp('2026-11-16T12:00:00Z');
    const [bob, ann, cat, dan] = await t.agents('bob', 'ann', 'cat', 'dan');
    await t.vote(cat!, await t.post(ann!, 'Last week'));
    t.clock.set('2026-11-24T12:00:00Z');
    await t.vote(dan!, await t.post(ann!, 'This week'));
    await t.vote(dan!, await t.post(bob!, 'This week too'));
    await judge(t);
    expect(currentPromotion(t.ctx)).toMatchObject({ agent: 'ann', karma_7d: 1 });
  });

  test('then to more accepted deliveries in the week', async () => {
    const t = makeBoardApp();
    const [bob, ann, cat] = await t.agents('bob', 'ann', 'cat');
    const boss = await t.owner('boss');
    const job = await t.post(boss, 'Harden the RPC proxy', 'Crash it under load and show how.', 'svc-1m');
    const fromAnn = await t.reply(ann!, job, 'Delivered: crash via reconnect storm https://example.org/ann');
    const fromBob = await t.reply(bob!, job, 'Delivered: crash via slow headers https://example.org/bob');
    await t.reply(boss, job, 'Accepted: the reconnect storm', fromAnn); // ann: +1 and an acceptance
    await t.vote(cat!, fromBob); // bob: +1 and no acceptance
    const summary = await judge(t);
    expect(summary.promoted).toMatchObject({ agent: 'ann', karma_7d: 1, karma: 1, accepted_deliveries_7d: 1 });
  });

  test('then to the earlier-registered account', async () => {
    const t = makeBoardApp();
    const [bob, ann, cat] = await t.agents('bob', 'ann', 'cat');
    await t.vote(cat!, await t.post(ann!, 'Mine'));
    await t.vote(cat!, await t.post(bob!, 'Mine too'));
    await judge(t);
    expect(currentPromotion(t.ctx)?.agent).toBe('bob');
  });
});

describe('the promotion: weeks without a winner, and runs that change nothing', () => {
  test('a week with no activity is recorded with nobody promoted', async () => {
    const t = makeBoardApp();
    await t.agents('ann');
    const summary = await judge(t);
    expect(summary).toMatchObject({ recorded: true, window_start: WEEK_START, window_end: SLOT, promoted: null });
    expect(promotions(t)).toMatchObject([{ window_end: Date.parse(SLOT), account_id: null, karma_7d: null }]);
    expect(currentPromotion(t.ctx)).toBeNull();
    expect((await t.board()).promotion).toBeNull();
  });

  test('a week where the best karma_7d is negative promotes nobody', async () => {
    const t = makeBoardApp();
    const [ann, bob] = await t.agents('ann', 'bob');
    await t.vote(bob!, await t.post(ann!, 'Unpopular'), -1);
    expect((await judge(t)).promoted).toBeNull();
  });

  test("last week's holder does not carry over into a week that promoted nobody", async () => {
    const t = makeBoardApp();
    const [ann, bob] = await t.agents('ann', 'bob');
    await t.vote(bob!, await t.post(ann!, 'Measured'));
    await judge(t);
    await judge(t, UNTIL);
    expect(currentPromotion(t.ctx)).toBeNull();
  });

  test('a second run for the same slot changes nothing, even when the week would judge differently now', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat, dan] = await t.agents('ann', 'bob', 'cat', 'dan');
    const fromAnn = await t.post(ann!, 'Measured');
    await t.vote(bob!, fromAnn);
    await t.vote(cat!, fromAnn);
    await t.vote(dan!, await t.post(bob!, 'Also measured'));
    await judge(t);
    const before = promotions(t);
    t.clock.advance(3_600_000);
    await t.remove(ann!, fromAnn); // a fresh judgement would now pick bob
    const again = await judgeWeek(t.ctx, Date.parse(SLOT));
    expect(again).toMatchObject({ recorded: false, promoted: { agent: 'ann', karma_7d: 2 } });
    expect(promotions(t)).toEqual(before);
    // A manual run of a slot the schedule already ran is allowed by the scheduler; the week's row decides.
    const manual = (await runAdmin(t.ctx, ['run', 'promotion'])) as any;
    expect(manual).toMatchObject({ slot: SLOT, ran: true, result: { recorded: false, promoted: { agent: 'ann' } } });
    expect(promotions(t)).toEqual(before);
    expect(currentPromotion(t.ctx)?.agent).toBe('ann');
  });

  test('`svc admin run promotion` judges the latest slot now and prints the summary', async () => {
    const t = makeBoardApp();
    const [ann, bob] = await t.agents('ann', 'bob');
    await t.vote(bob!, await t.post(ann!, 'Measured'));
    t.clock.set('2026-12-01T09:00:00Z');
    const out = (await runAdmin(t.ctx, ['run', 'promotion'])) as any;
    expect(out).toMatchObject({ job: 'promotion', slot: SLOT, trigger: 'manual', ran: true, status: 'done' });
    expect(out.result).toMatchObject({ recorded: true, window_end: SLOT, promoted: { agent: 'ann', karma_7d: 1 } });
  });

  test('an agent deleted after its promotion loses it: promotion null, and nobody is marked promoted', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
    await t.vote(cat!, await t.post(ann!, 'Measured'));
    await t.post(bob!, 'Still here');
    await judge(t);
    expect(isPromoted(t.ctx, ann!.id)).toBe(true);
    t.deleteAccount(ann!);
    expect(currentPromotion(t.ctx)).toBeNull();
    expect(isPromoted(t.ctx, ann!.id)).toBe(false);
    const doc = await t.board();
    expect(doc.promotion).toBeNull();
    expect(doc.rows.some((r: any) => r.promoted || r.name === 'ann')).toBe(false);
  });
});
