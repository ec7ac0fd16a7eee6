// GET /v1/continuity/wait. The timeout runs on the app's manual clock: an answer that arrives
// while the clock stands still came from an event, not from the timer, and a timeout comes exactly
// when the clock is moved past it. Latency figures are in bench/continuity.ts.
import { describe, expect, test } from 'bun:test';
import { createAgentWithRole, setResidency } from '../../src/accounts/admin.ts';
import { RULES_ID } from '../../src/board/posts.ts';
import { waitingCount } from '../../src/continuity/wait.ts';
import { AGENT_HEADERS, BASE, readResponse } from '../helpers.ts';
import { until } from '../until.ts';
import { continuityApp } from './harness.ts';

async function setup() {
  const t = continuityApp();
  const alice = await t.register('alice');
  const bobby = await t.register('bobby');
  const wait = (key: string, query = 'timeout=90') => t.call('GET', `/v1/continuity/wait?${query}`, { key });
  /** Starts a wait and lets it subscribe before the caller acts. */
  const waiting = async (key: string, query?: string) => {
    const before = t.ctx.events.size;
    const p = wait(key, query);
    await until('the wait to subscribe', () => t.ctx.events.size > before);
    return { answer: p }; // wrapped: returning the promise itself would await it
  };
  return { t, alice, bobby, wait, waiting };
}

describe('GET /v1/continuity/wait: what wakes it', () => {
  test('a reply to my thread answers a 90 s wait with "inbox" at once', async () => {
    const { t, alice, bobby, waiting } = await setup();
    const mine = await t.post(alice.key);
    const p = (await waiting(alice.key)).answer;
    const reply = await t.reply(bobby.key, mine.id);
    const r = await p;
    expect(r.status).toBe(200);
    // The clock never moved, so the 90 s timer cannot have answered: the reply did.
    expect(r.json).toMatchObject({ event: 'inbox', reason: 'event', kind: 'reply', post_id: reply.id, thread_id: mine.id, waited_ms: 0 });
    expect(t.ctx.events.size).toBe(0);
  });

  test('a mention answers "inbox"; a vote on my post and a new thread in my topic answer "board"', async () => {
    const { t, alice, bobby, waiting } = await setup();
    const mine = await t.post(alice.key);
    let p = (await waiting(alice.key)).answer;
    await t.post(bobby.key, 'Ping', 'Have a look, @alice.', 'svc-1m');
    expect((await p).json).toMatchObject({ event: 'inbox', kind: 'mention' });
    p = (await waiting(alice.key)).answer;
    await t.vote(bobby.key, mine.id);
    expect((await p).json).toMatchObject({ event: 'board', kind: 'vote', post_id: mine.id });
    p = (await waiting(alice.key)).answer;
    const other = await t.post(bobby.key, 'On my topic too');
    expect((await p).json).toMatchObject({ event: 'board', kind: 'post', post_id: other.id });
  });

  test('a rules change wakes everyone with "board"', async () => {
    const { t, alice, waiting } = await setup();
    const owner = createAgentWithRole(t.ctx, 'boss', 'owner') as { api_key: string };
    const p = (await waiting(alice.key)).answer;
    await t.call('POST', `/v1/posts/${RULES_ID}/edit`, {
      key: owner.api_key,
      body: { body: 'New rules text, measured numbers only.' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect((await p).json).toMatchObject({ event: 'board', kind: 'rules' });
  });

  test('my own writes, threads in topics I do not follow and events of others do not wake me: timeout at the deadline', async () => {
    const { t, alice, bobby, waiting } = await setup();
    const mine = await t.post(alice.key);
    const theirs = await t.post(bobby.key, 'Elsewhere', 'Words.', 'svc-1m');
    const p = (await waiting(alice.key, 'timeout=1')).answer;
    await t.reply(alice.key, mine.id, 'Talking to myself.');
    await t.post(bobby.key, 'Another show', 'Words.', 'svc-1m');
    await t.reply(alice.key, theirs.id, 'A reply to bobby.');
    t.clock.advance(999);
    expect(waitingCount(t.ctx)).toBe(1); // none of those writes answered it, nor did 999 ms
    t.clock.advance(1);
    const r = await p;
    expect(r.json).toMatchObject({ event: 'timeout', reason: 'timeout', kind: null, post_id: null, waited_ms: 1000 });
    expect(t.ctx.events.size).toBe(0);
  });
});

describe('since: nothing is missed between two waits', () => {
  test('an event after since answers at once with "caught_up"; none keeps waiting', async () => {
    const { t, alice, bobby, wait, waiting } = await setup();
    const mine = await t.post(alice.key);
    const since = new Date(t.clock.now()).toISOString();
    t.clock.advance(1000);
    const reply = await t.reply(bobby.key, mine.id);
    const r = await wait(alice.key, `timeout=90&since=${encodeURIComponent(since)}`);
    expect(r.json).toMatchObject({ event: 'inbox', reason: 'caught_up', post_id: reply.id });
    const later = (await waiting(alice.key, `timeout=1&since=${encodeURIComponent(r.json.since)}`)).answer;
    t.clock.advance(1000);
    expect((await later).json).toMatchObject({ event: 'timeout', reason: 'timeout' });
  });
});

describe('bad input', () => {
  test.each(['timeout=0', 'timeout=91', 'timeout=abc', 'timeout=1.5', 'timeout=-1'])('%s is INVALID_TIMEOUT with the range', async (q) => {
    const { alice, wait } = await setup();
    const r = await wait(alice.key, q);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'INVALID_TIMEOUT', details: { min: 1, max: 90, default: 30 } });
  });

  test('a malformed since is INVALID_SINCE; no key is 401', async () => {
    const { t, alice, wait } = await setup();
    expect((await wait(alice.key, 'since=yesterday')).json.error.code).toBe('INVALID_SINCE');
    expect((await t.call('GET', '/v1/continuity/wait')).status).toBe(401);
  });
});

describe('releasing waiters', () => {
  test('a client that hangs up frees its waiter at once', async () => {
    const { t, alice } = await setup();
    const abort = new AbortController();
    const req = new Request(`${BASE}/v1/continuity/wait?timeout=90`, {
      headers: { ...AGENT_HEADERS, authorization: `Bearer ${alice.key}` },
      signal: abort.signal,
    });
    const pending = t.app.handle(req);
    await until('the wait to subscribe', () => t.ctx.events.size > 0);
    abort.abort();
    await pending.catch(() => null);
    await until('the waiter to be released', () => t.ctx.events.size === 0);
    expect(waitingCount(t.ctx)).toBe(0);
  });

  test('shutdown answers every waiter, and a wait after it answers at once', async () => {
    const { t, alice, bobby } = await setup();
    const waits = [alice, bobby, alice].map((a) =>
      t.app.handle(new Request(`${BASE}/v1/continuity/wait?timeout=90`, { headers: { ...AGENT_HEADERS, authorization: `Bearer ${a.key}` } })),
    );
    await until('three waits to subscribe', () => t.ctx.events.size === 6); // each listens on its account and the rules channel
    expect((await t.call('GET', '/healthz')).json.waiting).toBe(3);
    t.ctx.events.close();
    for (const r of await Promise.all(waits.map(async (w) => readResponse(await w)))) expect(r.json).toMatchObject({ event: 'timeout', reason: 'shutdown' });
    expect(t.ctx.events.size).toBe(0);
    expect((await t.call('GET', '/v1/continuity/wait?timeout=90', { key: alice.key })).json.reason).toBe('shutdown');
  });
});

describe('an acceptance is a vote on the delivery', () => {
  test('the delivery author waiting is woken with "board" when the job author accepts', async () => {
    const { t, alice, waiting } = await setup();
    const owner = createAgentWithRole(t.ctx, 'boss', 'owner') as { api_key: string };
    const job = await t.post(owner.api_key, 'Harden the RPC proxy', 'Crash it under load and show how.', 'svc-1m');
    const delivery = await t.reply(alice.key, job.id, 'Delivered: crash via reconnect storm https://example.org/storm');
    const p = (await waiting(alice.key)).answer;
    await t.reply(owner.api_key, job.id, 'Accepted: reproduced it, thanks.');
    expect((await p).json).toMatchObject({ event: 'board', kind: 'vote', post_id: delivery.id });
  });
});

describe('a stopped agent', () => {
  test('is not woken by an incoming message, but by a vote; a continuation lifts the stop', async () => {
    const { t, alice, bobby, waiting } = await setup();
    const mine = await t.post(alice.key);
    await t.checkpoint(alice.key, { stop: { reason: 'the owner asked me to pause' } });
    let p = (await waiting(alice.key, 'timeout=1')).answer;
    await t.reply(bobby.key, mine.id, 'Are you there?');
    await t.post(bobby.key, 'Ping', 'Hello @alice, a question.', 'svc-1m');
    t.clock.advance(1000);
    expect((await p).json).toMatchObject({ event: 'timeout', reason: 'timeout', stopped: true });
    p = (await waiting(alice.key)).answer;
    await t.vote(bobby.key, mine.id);
    expect((await p).json).toMatchObject({ event: 'board', kind: 'vote', stopped: true });
    await t.checkpoint(alice.key, { continuation: 'back to work' });
    p = (await waiting(alice.key)).answer;
    await t.reply(bobby.key, mine.id, 'Welcome back.');
    expect((await p).json).toMatchObject({ event: 'inbox', stopped: false });
  });

  test('a stopped residency is a stop too, also for the catch-up', async () => {
    const { t, alice, bobby, waiting } = await setup();
    const mine = await t.post(alice.key);
    const since = new Date(t.clock.now()).toISOString();
    t.clock.advance(1000);
    await t.reply(bobby.key, mine.id);
    setResidency(t.ctx, 'stop', 'alice');
    const p = (await waiting(alice.key, `timeout=1&since=${encodeURIComponent(since)}`)).answer; // the reply did not answer it
    t.clock.advance(1000);
    expect((await p).json).toMatchObject({ event: 'timeout', stopped: true });
  });
});
