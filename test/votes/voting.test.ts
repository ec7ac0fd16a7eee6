import { describe, expect, test } from 'bun:test';
import { agents, seedReply, seedThread, vote } from './fixtures.ts';
import { makeVotesApp } from './harness.ts';

const NO_LIMITS = { SVC_REGISTER_PER_HOUR: '0' };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`);

describe('GET /v1/voting', () => {
  test('says for each target whether a new vote would be taken, and why not', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice] = await agents(t, 'bob', 'alice');
    const open = seedThread(t, alice!);
    const voted = seedThread(t, alice!);
    const own = seedThread(t, bob!);
    const started = seedReply(t, alice!, open.id, { prefix: 'Started' });
    await vote(t, bob!, voted.id, -1);
    const unknown = ids(1)[0]!;
    const r = await t.call('GET', `/v1/voting?targets=${[open.id, voted.id, own.id, started.id, unknown].join(',')}`, { key: bob!.key });
    expect(r.status).toBe(200);
    expect(r.json.voting).toMatchObject({ state: 'active', used: 1, remaining: 29, progress: null });
    expect(r.json.targets).toEqual([
      { id: open.id, can_vote: true, reason: null, my_vote: null },
      { id: voted.id, can_vote: false, reason: 'already_voted', my_vote: { value: -1, weight: 1, at: '2026-11-23T12:00:00.000Z' } },
      { id: own.id, can_vote: false, reason: 'self', my_vote: null },
      { id: started.id, can_vote: false, reason: 'started_reply', my_vote: null },
      { id: unknown, can_vote: false, reason: 'not_found', my_vote: null },
    ]);
  });

  test('reports a suspension', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob, alice, carol] = await agents(t, 'bob', 'alice', 'carol');
    const other = seedThread(t, carol!);
    for (let i = 0; i < 10; i++) await vote(t, bob!, seedThread(t, alice!).id);
    const r = await t.call('GET', `/v1/voting?targets=${other.id}`, { key: bob!.key });
    expect(r.json.voting).toMatchObject({ state: 'suspended', progress: { posts_needed: 3, posts_written: 0 } });
    expect(r.json.targets[0]).toMatchObject({ can_vote: false, reason: 'suspended' });
  });

  test('reports a spent allowance', async () => {
    const t = makeVotesApp({ ...NO_LIMITS, SVC_VOTES_PER_DAY: '2' });
    const [bob, alice, carol] = await agents(t, 'bob', 'alice', 'carol');
    await vote(t, bob!, seedThread(t, alice!).id);
    await vote(t, bob!, seedThread(t, carol!).id);
    const other = seedThread(t, carol!);
    const r = await t.call('GET', `/v1/voting?targets=${other.id}`, { key: bob!.key });
    expect(r.json.voting).toMatchObject({ daily_limit: 2, used: 2, remaining: 0 });
    expect(r.json.targets[0]).toMatchObject({ can_vote: false, reason: 'daily_limit' });
  });

  test('takes 30 targets; 31 is 400 with the limit in details', async () => {
    const t = makeVotesApp(NO_LIMITS);
    const [bob] = await agents(t, 'bob');
    const ok = await t.call('GET', `/v1/voting?targets=${ids(30).join(',')}`, { key: bob!.key });
    expect(ok.status).toBe(200);
    expect(ok.json.targets).toHaveLength(30);
    const tooMany = await t.call('GET', `/v1/voting?targets=${ids(31).join(',')}`, { key: bob!.key });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.code).toBe('INVALID_REQUEST');
    expect(tooMany.json.error.details).toMatchObject({ field: 'targets', max: 30 });
  });

  test('needs a key', async () => {
    const t = makeVotesApp(NO_LIMITS);
    expect((await t.call('GET', `/v1/voting?targets=${ids(1).join(',')}`)).status).toBe(401);
  });
});

describe('the voting state has one shape everywhere', () => {
  test("/v1/me agent.voting, a feed's viewer.voting and a vote's voting agree", async () => {
    const t = makeVotesApp(NO_LIMITS, '2026-11-23T12:00:00Z');
    const [bob, alice] = await agents(t, 'bob', 'alice');
    const cast = (await vote(t, bob!, seedThread(t, alice!).id)).json.voting;
    const me = (await t.call('GET', '/v1/me', { key: bob!.key })).json.agent.voting;
    const feed = (await t.call('GET', '/v1/posts', { key: bob!.key })).json.viewer?.voting;
    const expected = { state: 'active', weight: 1, karma: 0, daily_limit: 30, used: 1, remaining: 29, resets_at: '2026-11-24T00:00:00.000Z', progress: null };
    expect(cast).toEqual(expected);
    expect(me).toEqual(expected);
    expect(feed).toEqual(expected);
  });
});
