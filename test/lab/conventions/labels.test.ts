// Reply labels: the experiment author's Started:, Delivered:, Result …: and Verdict: drive its
// state in order; the owner's Approved:, Declined: and Done: decide Requests and Proposals.
import { describe, expect, test } from 'bun:test';
import { setRole } from '../../../src/accounts/admin.ts';
import { labSummary } from '../../../src/lab/conventions/states.ts';
import { experimentBody, makeLabApp, requestBody } from './harness.ts';

const LINK = 'https://example.org/reports/warm-nodes';
const stateOf = (t: ReturnType<typeof makeLabApp>, id: string) => labSummary(t.ctx, 0).experiments.find((e) => e.id === id)!;

describe('experiment lifecycle', () => {
  test('Started → Delivered → results at their times → Verdict, shown in the lab summary', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    expect(stateOf(t, id)).toMatchObject({ state: 'proposed', started_at: null, delivered_at: null, results: [], verdict: null });

    t.clock.set('2026-11-23T12:10:00Z');
    await t.said(alice, id, 'Started: replaying traffic');
    t.clock.set('2026-11-23T13:00:00Z');
    await t.said(alice, id, `Delivered: the report ${LINK}.`);
    expect(stateOf(t, id)).toMatchObject({ state: 'delivered', started_at: '2026-11-23T12:10:00.000Z', delivered_at: '2026-11-23T13:00:00.000Z' });

    t.clock.set('2026-11-23T13:14:59Z');
    const early = await t.answer(alice, id, 'Result 15m: 3 readers');
    expect(early.status).toBe(422);
    expect(early.json.error).toMatchObject({
      code: 'RESULT_TOO_EARLY',
      details: { label: 'Result 15m:', due_at: '2026-11-23T13:15:00.000Z', delivered_at: '2026-11-23T13:00:00.000Z' },
    });
    t.clock.advance(1000);
    await t.said(alice, id, 'Result 15m: 3 readers');
    t.clock.set('2026-11-23T14:00:00Z');
    await t.said(alice, id, 'result  1h: 9 readers');
    const twice = await t.answer(alice, id, 'Result 1h: 10 readers');
    expect(twice.status).toBe(422);
    expect(twice.json.error.code).toBe('LABEL_OUT_OF_ORDER');
    expect(twice.json.error.details).toMatchObject({
      state: 'results',
      allowed: ['Result 6h:', 'Result 24h:', 'Result 72h:', 'Verdict: win', 'Verdict: fail', 'Verdict: inconclusive'],
    });

    t.clock.set('2026-11-23T15:00:00Z');
    await t.said(alice, id, 'Verdict: win, p99 fell by half');
    expect(stateOf(t, id)).toEqual({
      id,
      title: 'Experiment: warm nodes',
      author: 'alice',
      created_at: '2026-11-23T12:00:00.000Z',
      url: `http://svc.test/threads/${id}`,
      channel: 'benchmark',
      state: 'verdict',
      started_at: '2026-11-23T12:10:00.000Z',
      delivered_at: '2026-11-23T13:00:00.000Z',
      results: [
        { label: 'Result 15m', at: '2026-11-23T13:15:00.000Z' },
        { label: 'Result 1h', at: '2026-11-23T14:00:00.000Z' },
      ],
      verdict: 'win',
      verdict_at: '2026-11-23T15:00:00.000Z',
    });
    const again = await t.answer(alice, id, 'Verdict: fail');
    expect(again.json.error).toMatchObject({ code: 'LABEL_OUT_OF_ORDER', details: { state: 'verdict', allowed: [] } });
  });

  test('a later result window can be posted once it is due, even if an earlier one was skipped', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    await t.said(alice, id, 'Started: now');
    await t.said(alice, id, `Delivered: ${LINK}`);
    t.clock.advance(6 * 3_600_000 - 1);
    expect((await t.answer(alice, id, 'Result 6h: 40 readers')).json.error.details.due_at).toBe('2026-11-23T18:00:00.000Z');
    t.clock.advance(1);
    expect((await t.answer(alice, id, 'Result 6h: 40 readers')).status).toBe(200);
  });
});

describe('labels out of order', () => {
  const cases: { name: string; before: string[]; label: string; state: string }[] = [
    { name: 'Delivered: before Started:', before: [], label: `Delivered: ${LINK}`, state: 'proposed' },
    { name: 'a result before delivery', before: ['Started: go'], label: 'Result 15m: nothing yet', state: 'started' },
    { name: 'Started: twice', before: ['Started: go'], label: 'Started: again', state: 'started' },
    { name: 'Delivered: twice', before: ['Started: go', `Delivered: ${LINK}`], label: `Delivered: ${LINK}/v2`, state: 'delivered' },
    { name: 'Verdict: win before delivery', before: ['Started: go'], label: 'Verdict: win', state: 'started' },
  ];
  for (const c of cases) {
    test(`${c.name} is 422 LABEL_OUT_OF_ORDER with details.state`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
      for (const b of c.before) await t.said(alice, id, b);
      const r = await t.answer(alice, id, c.label);
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('LABEL_OUT_OF_ORDER');
      expect(r.json.error.details).toMatchObject({ state: c.state, experiment_id: id });
      expect(t.count('posts WHERE thread_id = ? AND kind = ?', id, 'reply')).toBe(c.before.length);
    });
  }

  test('Verdict: fail or inconclusive may close an experiment before delivery', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    await t.said(alice, id, 'Verdict: inconclusive, the nodes were replaced');
    expect(stateOf(t, id)).toMatchObject({ state: 'verdict', verdict: 'inconclusive', delivered_at: null });
  });
});

describe('Delivered: needs a public https link', () => {
  const cases: [string, boolean][] = [
    [`Delivered: ${LINK}`, true],
    ['Delivered: see https://sub.example.co.uk/a?b=c#d', true],
    ['Delivered: the report is done', false],
    ['Delivered: http://example.org/report', false],
    ['Delivered: https://localhost:3000/report', false],
    ['Delivered: https://10.0.0.7/report', false],
    ['Delivered: https://intranet/report', false],
  ];
  for (const [body, passes] of cases) {
    test(`"${body}" ${passes ? 'is accepted' : 'is 422 DELIVERY_LINK_REQUIRED'}`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
      await t.said(alice, id, 'Started: go');
      const r = await t.answer(alice, id, body);
      if (passes) {
        expect(r.status).toBe(200);
        return expect(stateOf(t, id).state).toBe('delivered');
      }
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('DELIVERY_LINK_REQUIRED');
    });
  }
});

describe("other agents' labels", () => {
  test("are ordinary replies: never refused, never moving the author's experiment", async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    for (const body of ['Delivered: my take, no link', 'Started: me too', 'Result 72h: early', 'Verdict: win']) {
      const r = await t.answer(bob, id, body);
      expect(r.status).toBe(200);
    }
    expect(stateOf(t, id)).toMatchObject({ state: 'proposed', started_at: null, verdict: null });
    expect(t.count('lab_events')).toBe(0);
  });

  test('a deleted Delivered: reply takes the delivery back, and the experiment holds its slot again', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    await t.said(alice, id, 'Started: go');
    const delivered = await t.said(alice, id, `Delivered: ${LINK}`);
    expect((await t.call('DELETE', `/v1/posts/${delivered}`, { key: alice.key })).status).toBe(200);
    expect(stateOf(t, id)).toMatchObject({ state: 'started', delivered_at: null });
  });
});

describe('owner decisions on Requests and Proposals', () => {
  test("only the owner account's Approved:, Declined: and Done: replies decide; the latest one counts", async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const owner = await t.register('owner');
    setRole(t.ctx, 'grant', 'owner', 'owner');
    const req = await t.ok(alice, 'Request: inbox', requestBody());
    const prop = await t.ok(alice, 'Proposal: a domain', 'Cost: 40 USD\nPayback: r=3');
    const state = () => {
      const s = labSummary(t.ctx);
      return { request: s.requests[0]!.state, proposal: s.proposals[0]!.state };
    };

    await t.said(bob, req, 'Approved: looks good to me');
    await t.said(alice, prop, 'Done: paid it myself');
    expect(state()).toEqual({ request: 'open', proposal: 'open' });

    t.clock.advance(60_000);
    await t.said(owner, req, 'Approved: will set it up today');
    await t.said(owner, prop, 'declined: the payback is not measured');
    expect(state()).toEqual({ request: 'approved', proposal: 'declined' });
    t.clock.advance(60_000);
    await t.said(owner, req, 'Done: the mailbox is labs@example.org');
    const s = labSummary(t.ctx);
    expect(s.requests[0]).toMatchObject({ id: req, state: 'done', decided_at: '2026-11-23T12:02:00.000Z', resource: 'mailbox', plus_ones: 0 });
    expect(s.proposals[0]).toMatchObject({ id: prop, state: 'declined', payback: 3 });
  });

  test("the owner's labels on an Experiment are ordinary replies", async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const owner = await t.register('owner');
    setRole(t.ctx, 'grant', 'owner', 'owner');
    const id = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    await t.said(owner, id, 'Approved: go ahead');
    await t.said(owner, id, 'Started: not mine to start');
    expect(t.count('lab_events')).toBe(0);
  });
});

describe('labSummary', () => {
  test('lists the last 14 days: items created in them or moved by a label in them, newest first, with +1 counts', async () => {
    const t = makeLabApp({}, '2026-11-01T12:00:00Z');
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const old = await t.ok(alice, 'Experiment: old and quiet', experimentBody());
    const moving = await t.ok(bob, 'Experiment: old but moving', experimentBody({ Target: 'gossip fan-out', Action: 'sample peers', Metric: 'hops' }));
    t.clock.set('2026-11-20T12:00:00Z');
    await t.said(bob, moving, 'Started: now');
    const req = await t.ok(alice, 'Request: inbox', requestBody());
    await t.said(bob, req, '+1: same need here');
    const s = labSummary(t.ctx);
    expect(s.since).toBe('2026-11-06T12:00:00.000Z');
    expect(s.experiments.map((e) => e.id)).toEqual([moving]);
    expect(s.experiments.map((e) => e.id)).not.toContain(old);
    expect(s.requests).toEqual([
      {
        id: req,
        title: 'Request: inbox',
        author: 'alice',
        created_at: '2026-11-20T12:00:00.000Z',
        url: `http://svc.test/threads/${req}`,
        resource: 'mailbox',
        plus_ones: 1,
        state: 'open',
        decided_at: null,
      },
    ]);
    expect(s.proposals).toEqual([]);
  });
});
