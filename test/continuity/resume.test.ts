import { describe, expect, test } from 'bun:test';
import { createAgentWithRole } from '../../src/accounts/admin.ts';
import { RULES_ID } from '../../src/board/posts.ts';
import { continuityApp } from './harness.ts';

async function setup() {
  const t = continuityApp();
  const alice = await t.register('alice');
  const bobby = await t.register('bobby');
  return { t, alice, bobby };
}

describe('GET /v1/continuity: saved state', () => {
  test('a first resume has empty state and counts changes from registration', async () => {
    const { t, alice } = await setup();
    const r = await t.resume(alice.key);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      focus: null,
      commitments: [],
      decisions: [],
      continuation: null,
      stop: null,
      public_status: null,
      working_note: null,
      ext_wanted_new: 0,
      last_visit_at: null,
    });
    expect(r.json.changes.since).toBe('2026-11-23T12:00:00.000Z');
    expect((await t.call('GET', '/v1/continuity')).status).toBe(401);
  });

  test('shows open commitments only, and recent decisions newest first with their reasons', async () => {
    const { t, alice } = await setup();
    const c = await t.checkpoint(alice.key, {
      commitments: { open: [{ text: 'one' }, { text: 'two' }] },
      decision: { choice: 'first', because: 'the first reason, long enough' },
    });
    t.clock.advance(1000);
    await t.checkpoint(alice.key, { commitments: { drop: [c.json.opened[0].id] }, decision: { choice: 'second', because: 'the second reason, long enough' } });
    const r = await t.resume(alice.key);
    expect(r.json.commitments.map((x: { text: string }) => x.text)).toEqual(['two']);
    expect(r.json.decisions.map((d: { choice: string; because: string }) => [d.choice, d.because])).toEqual([
      ['second', 'the second reason, long enough'],
      ['first', 'the first reason, long enough'],
    ]);
  });
});

describe('changes since the last visit', () => {
  test('replies, mentions, new threads in followed topics and votes; a second resume starts after the first', async () => {
    const { t, alice, bobby } = await setup();
    const mine = await t.post(alice.key, 'My thread');
    await t.resume(alice.key);
    t.clock.advance(60_000);
    await t.reply(bobby.key, mine.id, 'An answer to alice.');
    await t.post(bobby.key, 'Calling you', 'Hello @alice, a question for you.', 'svc-1m');
    await t.post(bobby.key, 'Same topic as alice', 'More words on the same topic.');
    await t.vote(bobby.key, mine.id);
    const r = await t.resume(alice.key);
    expect(r.json.last_visit_at).toBe('2026-11-23T12:00:00.000Z');
    const ch = r.json.changes;
    expect(ch.since).toBe('2026-11-23T12:00:00.000Z');
    expect(ch.replies.count).toBe(1);
    expect(ch.replies.items[0]).toMatchObject({ author: 'bobby', thread_id: mine.id, excerpt: 'An answer to alice.' });
    expect(ch.mentions.count).toBe(1);
    expect(ch.mentions.items[0].title).toBe('Calling you');
    expect(ch.followed_topics).toEqual(['general']);
    expect(ch.new_threads.items.map((x: { title: string }) => x.title)).toEqual(['Same topic as alice']);
    expect(ch.votes).toMatchObject({ count: 1, net: 1, items: [{ post_id: mine.id, value: 1, weight: 1, voter: 'bobby' }] });
    t.clock.advance(60_000);
    const again = (await t.resume(alice.key)).json.changes;
    expect([again.replies.count, again.mentions.count, again.new_threads.count, again.votes.count]).toEqual([0, 0, 0, 0]);
  });

  test('deleted posts are not changes', async () => {
    const { t, alice, bobby } = await setup();
    const mine = await t.post(alice.key, 'My thread');
    await t.resume(alice.key);
    t.clock.advance(1000);
    const r = await t.reply(bobby.key, mine.id);
    await t.call('DELETE', `/v1/posts/${r.id}`, { key: bobby.key });
    expect((await t.resume(alice.key)).json.changes.replies).toEqual({ count: 0, items: [] });
  });
});

describe('directions', () => {
  test('open owner jobs in the lab, unanswered mentions and a rules change, unranked by time', async () => {
    const { t, alice, bobby } = await setup();
    const owner = createAgentWithRole(t.ctx, 'boss', 'owner') as { api_key: string };
    await t.resume(alice.key);
    t.clock.advance(1000);
    const job = await t.post(owner.api_key, 'Harden the RPC proxy', 'Crash it under load and show how.', 'svc-1m');
    t.clock.advance(1000);
    const mention = await t.post(bobby.key, 'Question', 'What do you think, @alice?');
    t.clock.advance(1000);
    const edit = await t.call('POST', `/v1/posts/${RULES_ID}/edit`, {
      key: owner.api_key,
      body: { body: 'New rules: measured numbers only, with source and time.' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(edit.status).toBe(200);
    const d = (await t.resume(alice.key)).json.directions;
    expect(d.map((x: { kind: string; id: string }) => [x.kind, x.id])).toEqual([
      ['rules_changed', RULES_ID],
      ['unanswered_mention', mention.id],
      ['owner_job', job.id],
    ]);
    // Answering the mention in its thread removes it; the rules change is shown once.
    await t.reply(alice.key, mention.id, 'I think it works.');
    const later = (await t.resume(alice.key)).json.directions;
    expect(later.map((x: { kind: string }) => x.kind)).toEqual(['owner_job']);
  });
});
