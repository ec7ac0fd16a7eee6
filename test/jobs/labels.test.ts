// Job labels as the spec writes them: the author "replies Accepted or Done" (and Closed, Declined;
// takers say Taking, deliveries Delivered). The word followed by punctuation or the end of the line
// is the label, and so is Accepted or Done followed by the @name it credits; the word beginning a
// sentence is prose.
import { describe, expect, test } from 'bun:test';
import { afterLabel, jobLabelOf } from '../../src/jobs/labels.ts';
import { makeJobsApp } from './harness.ts';

const labelled: [string, string][] = [
  ['Accepted: thanks', 'accepted'],
  ['Accepted, thanks', 'accepted'],
  ['Accepted!', 'accepted'],
  ['Accepted', 'accepted'],
  ['accepted.', 'accepted'],
  ['ACCEPTED - great work', 'accepted'],
  ['Accepted — merged into main', 'accepted'],
  ['Accepted 🎉', 'accepted'],
  ['Accepted\nthe fix holds under load', 'accepted'],
  ['  Done.', 'done'],
  ['Done', 'done'],
  ['Done; merged', 'done'],
  ['Done : see the thread', 'done'],
  ['Closed, no longer needed', 'closed'],
  ['Closed.', 'closed'],
  ['Declined: out of budget', 'declined'],
  ['Declined.', 'declined'],
  ['Taking, plan below', 'taking'],
  ['Taking: reproducing first', 'taking'],
  ['Delivered: https://example.org/x', 'delivered'],
  ['Delivered. https://example.org/x', 'delivered'],
  // an acceptance addressed to the agent it credits
  ['Done @ann nice', 'done'],
  ['Accepted @ann', 'accepted'],
  ['done @ann-b, merged', 'done'],
  ['ACCEPTED @Ann thanks', 'accepted'],
];

const prose = [
  'Done with the first half, more tomorrow',
  'Accepted practice is to measure first',
  'Closed-form solution attached',
  'Done-ish, needs one more pass',
  'Doneness is subjective',
  'Declined offers are listed below',
  'Taking a look now',
  'Delivered https://example.org/x',
  'Done?',
  'Is it done? Accepted: no',
  'Not accepted: needs tests',
  'I accepted it yesterday',
  '',
  // near misses of the addressed form
  'Done @ann?',
  'Done deal @ann',
  'Done deal, thanks @ann',
  'The fix is done @ann, thanks',
  'Is it done @ann',
  'Done@ann',
  'Accepted @ 3pm',
  'Taking @ann plan',
  'Closed @ann',
];

describe('jobLabelOf', () => {
  for (const [body, label] of labelled) {
    test(`${JSON.stringify(body)} is the ${label} label`, () => expect(jobLabelOf(body)).toBe(label as never));
  }
  for (const body of prose) {
    test(`${JSON.stringify(body)} is prose`, () => expect(jobLabelOf(body)).toBeNull());
  }
  test('the text after a label drops the label and its mark', () => {
    expect(afterLabel('Accepted, thanks').trim()).toBe('thanks');
    expect(afterLabel('Taking: reproduce first').trim()).toBe('reproduce first');
    expect(afterLabel('Done with it')).toBe('Done with it');
  });
});

describe('acceptance through the board with the spec’s words', () => {
  for (const words of ['Accepted, thanks', 'Done.', 'Accepted!', 'Done']) {
    test(`the author's ${JSON.stringify(words)} accepts the delivery it answers`, async () => {
      const t = makeJobsApp();
      const boss = await t.owner('boss');
      const ann = await t.register('ann');
      const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
      const delivery = await t.reply(ann, id, 'Delivered: crash via reconnect storm https://example.org/ann');
      t.clock.advance(1000);
      await t.reply(boss, id, words, delivery);
      expect((await t.job(id)).deliveries.map((d: { accepted: boolean }) => d.accepted)).toEqual([true]);
    });
  }

  // The credit rule's second branch: no reply_to_id, the newest delivery of the agent named.
  for (const words of ['Done @ann nice', 'Accepted @ann']) {
    test(`the author's ${JSON.stringify(words)} accepts the delivery of the agent it names`, async () => {
      const t = makeJobsApp();
      const boss = await t.owner('boss');
      const ann = await t.register('ann');
      const bob = await t.register('bob');
      const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
      await t.reply(ann, id, 'Delivered: crash via reconnect storm https://example.org/ann');
      t.clock.advance(1000);
      await t.reply(bob, id, 'Delivered: crash via slow headers https://example.org/bob');
      t.clock.advance(1000);
      await t.reply(boss, id, words);
      const job = await t.job(id);
      expect(job.deliveries.map((d: { agent: string; accepted: boolean }) => [d.agent, d.accepted])).toEqual([
        ['ann', true],
        ['bob', false],
      ]);
    });
  }

  for (const words of ['Done deal, thanks @ann', 'The fix is done @ann, thanks', 'Done @ann?']) {
    test(`the author's ${JSON.stringify(words)} accepts nothing`, async () => {
      const t = makeJobsApp();
      const boss = await t.owner('boss');
      const ann = await t.register('ann');
      const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
      await t.reply(ann, id, 'Delivered: crash via reconnect storm https://example.org/ann');
      t.clock.advance(1000);
      await t.reply(boss, id, words);
      expect((await t.job(id)).deliveries.map((d: { accepted: boolean }) => d.accepted)).toEqual([false]);
      expect(t.count()).toBe(0);
    });
  }

  test('"Done with the first half, more tomorrow" from the author accepts nothing', async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    const ann = await t.register('ann');
    const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
    const delivery = await t.reply(ann, id, 'Delivered: crash via reconnect storm https://example.org/ann');
    t.clock.advance(1000);
    await t.reply(boss, id, 'Done with the first half, more tomorrow', delivery);
    expect((await t.job(id)).deliveries.map((d: { accepted: boolean }) => d.accepted)).toEqual([false]);
  });
});
