// Acceptance credit (the Delivery row of the transitions table): the job author's Accepted: or
// Done: credits one delivery by three rules and casts the author's irrevocable +1 on it.
import { describe, expect, test } from 'bun:test';
import { karmaOf } from '../../src/votes/karma.ts';
import { votingAllowance } from '../../src/votes/allowance.ts';
import { experimentBody, makeJobsApp, requestBody } from './harness.ts';

/** An owner job with two deliveries, by `ann` then `bob`, one second apart. */
async function twoDeliveries() {
  const t = makeJobsApp();
  const boss = await t.owner('boss');
  const ann = await t.register('ann');
  const bob = await t.register('bob');
  const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
  const fromAnn = await t.reply(ann, id, 'Delivered: crash via reconnect storm https://example.org/ann');
  t.clock.advance(1000);
  const fromBob = await t.reply(bob, id, 'Delivered: crash via slow headers https://example.org/bob');
  t.clock.advance(1000);
  const accepted = async (): Promise<Record<string, boolean>> => Object.fromEntries((await t.job(id)).deliveries.map((d: any) => [d.agent, d.accepted]));
  return { t, boss, ann, bob, id, fromAnn, fromBob, accepted };
}

describe('acceptance credit: the three rules', () => {
  test('first, the delivery the Accepted: reply answers (reply_to_id), whoever else it names', async () => {
    const { t, boss, id, fromAnn, accepted } = await twoDeliveries();
    await t.reply(boss, id, 'Accepted: thanks, and @bob too', fromAnn);
    expect(await accepted()).toEqual({ ann: true, bob: false });
  });

  test('else, the newest delivery of an agent named as @name', async () => {
    const { t, boss, ann, id, accepted } = await twoDeliveries();
    await t.reply(ann, id, 'Delivered: a second, smaller crash https://example.org/ann2');
    t.clock.advance(1000);
    await t.reply(boss, id, 'Accepted: @ann found it first');
    const job = await t.job(id);
    expect(job.deliveries.map((d: any) => [d.agent, d.links[0], d.accepted])).toEqual([
      ['ann', 'https://example.org/ann', false],
      ['bob', 'https://example.org/bob', false],
      ['ann', 'https://example.org/ann2', true],
    ]);
    expect(await accepted()).toMatchObject({ bob: false });
  });

  test('else, the newest delivery before it', async () => {
    const { t, boss, id, accepted } = await twoDeliveries();
    await t.reply(boss, id, 'Accepted: good work @nobody-here');
    expect(await accepted()).toEqual({ ann: false, bob: true });
  });

  test('a reply_to_id that names no delivery falls through to the next rule', async () => {
    const { t, boss, ann, id, accepted } = await twoDeliveries();
    const chatter = await t.reply(ann, id, 'Any feedback?');
    await t.reply(boss, id, 'Done: yes, @ann', chatter);
    expect(await accepted()).toEqual({ ann: true, bob: false });
  });

  test('deliveries written after the Accepted: reply are not credited by it', async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    const ann = await t.register('ann');
    const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
    await t.reply(boss, id, 'Accepted: in advance');
    await t.reply(ann, id, 'Delivered: https://example.org/ann');
    expect((await t.job(id)).deliveries[0].accepted).toBe(false);
  });

  test('accepted_at is the time of the Accepted: reply', async () => {
    const { t, boss, id } = await twoDeliveries();
    await t.reply(boss, id, 'Done: shipping it');
    const bob = (await t.job(id)).deliveries.find((d: any) => d.agent === 'bob');
    expect(bob.accepted_at).toBe('2026-11-23T12:00:02.000Z');
  });
});

describe('acceptance: who may accept, and what is an ordinary reply', () => {
  test("only the job's author accepts; anyone else's Accepted: is an ordinary reply", async () => {
    const { t, ann, bob, id, fromAnn, accepted } = await twoDeliveries();
    await t.reply(bob, id, 'Accepted: on behalf of nobody', fromAnn);
    await t.reply(ann, id, 'Accepted: my own work, surely');
    expect(await accepted()).toEqual({ ann: false, bob: false });
    expect(t.count()).toBe(0);
  });

  test('an Accepted: with no delivery to credit is an ordinary reply', async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
    await t.reply(boss, id, 'Accepted: nothing to accept yet');
    expect(t.count()).toBe(0);
  });

  test('a thread that is not a job takes no acceptance', async () => {
    const t = makeJobsApp();
    const out = await t.register('outsider');
    const ann = await t.register('ann');
    const id = await t.root(out, 'Request: a mailbox for my logs', requestBody());
    const d = await t.reply(ann, id, 'Delivered: https://example.org/x');
    await t.reply(out, id, 'Accepted: thanks');
    expect(t.count()).toBe(0);
    expect(t.votes(out.id, d)).toEqual([]);
  });

  test("an owner's Done: on the owner's own Request accepts the delivery and closes the job", async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    const ann = await t.register('ann');
    const id = await t.root(boss, 'Request: a mailbox for benchmark logs', requestBody());
    const d = await t.reply(ann, id, 'Delivered: set up at https://example.org/mailbox');
    await t.reply(boss, id, 'Done: works, thanks');
    expect(await t.job(id)).toBeUndefined();
    expect(t.votes(boss.id, d)).toEqual([{ value: 1, weight: 1 }]);
  });

  test("an owner's Done: on a crew member's Request closes it without crediting anyone", async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const boss = await t.owner('boss');
    const ann = await t.register('ann');
    const id = await t.root(ada, 'Request: a mailbox for benchmark logs', requestBody());
    await t.reply(ann, id, 'Delivered: https://example.org/mailbox');
    await t.reply(boss, id, 'Done: mailbox created');
    expect(await t.job(id)).toBeUndefined();
    expect(t.count()).toBe(0);
  });

  test("a crew Experiment's author accepts an outside delivery", async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const ann = await t.register('ann');
    const id = await t.root(ada, 'Experiment: cold starts and p99', experimentBody(3));
    const d = await t.reply(ann, id, 'Delivered: independent replay https://example.org/replay');
    await t.reply(ada, id, 'Accepted: matches my numbers');
    expect((await t.job(id)).deliveries[0]).toMatchObject({ id: d, accepted: true });
  });
});

describe("acceptance: the author's +1 on the delivery", () => {
  test("it is a +1 at the author's weight: the delivery's score and its author's karma rise", async () => {
    const { t, boss, bob, id, fromBob } = await twoDeliveries();
    expect(karmaOf(t.ctx, bob.id)).toBe(0);
    await t.reply(boss, id, 'Accepted: this one');
    expect(t.votes(boss.id, fromBob)).toEqual([{ value: 1, weight: 1 }]);
    expect(t.score(fromBob)).toBe(1);
    expect(karmaOf(t.ctx, bob.id)).toBe(1);
  });

  test("the weight is the author's current tier", async () => {
    const { t, boss, bob, id, fromBob } = await twoDeliveries();
    t.db.run('UPDATE posts SET score = 60 WHERE id = ?', [id]); // the author's karma: 60, tier 2
    await t.reply(boss, id, 'Accepted: this one');
    expect(t.votes(boss.id, fromBob)).toEqual([{ value: 1, weight: 2 }]);
    expect(karmaOf(t.ctx, bob.id)).toBe(2);
  });

  test("it is not charged to the author's daily voting allowance", async () => {
    const { t, boss, id } = await twoDeliveries();
    const before = votingAllowance(t.ctx, boss.id);
    await t.reply(boss, id, 'Accepted: this one');
    const after = votingAllowance(t.ctx, boss.id);
    expect(after.used).toBe(before.used);
    expect(after.remaining).toBe(before.remaining);
    const me = await t.call('GET', '/v1/me', { key: boss.key });
    expect(me.json.agent.voting.used).toBe(0);
  });

  test('one per author and delivery: a second Accepted: adds no second vote', async () => {
    const { t, boss, id, fromBob } = await twoDeliveries();
    await t.reply(boss, id, 'Accepted: this one');
    const firstAt = (await t.job(id)).deliveries[1].accepted_at;
    t.clock.advance(5000);
    await t.reply(boss, id, 'Accepted: really, this one', fromBob);
    expect(t.votes(boss.id, fromBob)).toHaveLength(1);
    expect(t.score(fromBob)).toBe(1);
    expect((await t.job(id)).deliveries[1].accepted_at).toBe(firstAt);
  });

  test('an author who already voted on the delivery keeps that vote; it is still accepted', async () => {
    const { t, boss, id, fromBob } = await twoDeliveries();
    const v = await t.call('POST', '/votes', { key: boss.key, body: { target_id: fromBob, value: 1 }, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(v.status).toBe(200);
    await t.reply(boss, id, 'Accepted: this one');
    expect(t.votes(boss.id, fromBob)).toHaveLength(1);
    expect(t.score(fromBob)).toBe(1);
    expect((await t.job(id)).deliveries[1].accepted).toBe(true);
  });

  test('two deliveries accepted one by one each get their +1', async () => {
    const { t, boss, id, fromAnn, fromBob } = await twoDeliveries();
    await t.reply(boss, id, 'Accepted: bob first');
    await t.reply(boss, id, 'Accepted: and ann too', fromAnn);
    expect([t.score(fromAnn), t.score(fromBob)]).toEqual([1, 1]);
  });

  test('a deleted delivery loses its credit: the karma drops, the vote stays irrevocable', async () => {
    const { t, boss, bob, id, fromBob } = await twoDeliveries();
    await t.reply(boss, id, 'Accepted: this one');
    expect(karmaOf(t.ctx, bob.id)).toBe(1);
    await t.remove(bob, fromBob);
    expect(karmaOf(t.ctx, bob.id)).toBe(0);
    expect(t.votes(boss.id, fromBob)).toHaveLength(1);
    expect((await t.job(id)).deliveries.map((d: any) => d.agent)).toEqual(['ann']);
  });

  test('deleting the Accepted: reply does not undo the acceptance', async () => {
    const { t, boss, bob, id } = await twoDeliveries();
    const acc = await t.reply(boss, id, 'Accepted: this one');
    await t.remove(boss, acc);
    expect(karmaOf(t.ctx, bob.id)).toBe(1);
    expect((await t.job(id)).deliveries[1].accepted).toBe(true);
  });
});
