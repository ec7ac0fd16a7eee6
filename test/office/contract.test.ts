// The office documents as /openapi.json declares them (valibot, with score and promotion from
// their modules): a full office (scorecard, playbook, every kind of lab item, an active agent with
// a public status, a promotion) is accepted, near misses are refused; the public document is
// cached publicly and the personal one never.
import { describe, expect, test } from 'bun:test';
import { setRole } from '../../src/accounts/admin.ts';
import { judgeWeek } from '../../src/leaderboard/promotion.ts';
import { runJob } from '../../src/scheduler/scheduler.ts';
import { SCORECARD_JOB } from '../../src/scorekeeper/job.ts';
import { latestScorecard } from '../../src/scorekeeper/scorecard.ts';
import { experimentBody, makeLabApp, requestBody } from '../lab/conventions/harness.ts';
import { accepted, expectDeclared, servedSpec } from '../votes/described.ts';

/** Every member of the office filled from real data. */
async function fullOffice() {
  const t = makeLabApp();
  const alice = await t.register('alice');
  const bobby = await t.register('bobby');
  await t.register('owner');
  setRole(t.ctx, 'grant', 'owner', 'owner');
  const exp = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
  await t.ok(alice, 'Request: inbox', requestBody());
  await t.ok(alice, 'Proposal: a domain', 'Cost: 40 USD\nPayback: r=3');
  t.clock.advance(60_000);
  await t.said(alice, exp, 'Started: replaying traffic');
  await t.said(alice, exp, 'Delivered: the report https://example.org/reports/warm-nodes.');
  await t.said(bobby, exp, 'Nice work.');
  await t.call('POST', '/votes', { key: bobby.key, body: { target_id: exp, value: 1 } });
  await runJob(t.ctx, SCORECARD_JOB, 'schedule');
  await t.said(alice, latestScorecard(t.ctx)!.id, 'Playbook: deliver one before starting the next');
  const monday = Date.parse('2026-11-30T00:00:00Z');
  t.clock.set(monday + 3_600_000);
  await judgeWeek(t.ctx, monday);
  await t.call('POST', '/v1/continuity/checkpoint', { key: alice.key, body: { public_status: { phase: 'acting', next_action: 'Writing the tables' } } });
  const office = await t.call('GET', '/api/office', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
  const mine = await t.call('GET', '/v1/office', { key: alice.key });
  expect([office.status, mine.status]).toEqual([200, 200]);
  return { t, alice, office, mine };
}

describe('office answers in /openapi.json', () => {
  for (const path of ['/api/office', '/v1/office']) {
    test(`GET ${path}: a declared 200 schema, not the bare object`, async () => {
      const { schema } = expectDeclared(await servedSpec(makeLabApp()), 'GET', path);
      expect(schema.additionalProperties).toBe(false);
      expect(schema.properties.score.properties.price_usd).toBeDefined();
    });
  }
  test('GET /api/office declares its 304 and its cache headers; /v1/office is no-store', async () => {
    const spec = await servedSpec(makeLabApp());
    const pub = spec.paths['/api/office']!.get;
    expect(pub.responses['304']).toBeDefined();
    expect(Object.keys(pub.responses['200'].headers).sort()).toEqual(['Age', 'Cache-Control', 'ETag']);
    expect(spec.paths['/v1/office']!.get.responses['200'].headers['Cache-Control'].schema.const).toBe('no-store');
  });
});

describe('the description holds a full office, and refuses its near misses', () => {
  const lab = (a: any, over: Record<string, unknown>) => ({ ...a, lab: { ...a.lab, ...over } });
  const cases: [string, (a: any) => unknown, boolean][] = [
    ['the document as served', (a) => a, true],
    ['an undocumented member', (a) => ({ ...a, weather: 'fine' }), false],
    ['show no longer null', (a) => ({ ...a, show: {} }), false],
    ['an experiment in an unknown state', (a) => lab(a, { experiments: [{ ...a.lab.experiments[0], state: 'paused' }] }), false],
    ['a request without plus_ones', (a) => lab(a, { requests: [{ ...a.lab.requests[0], plus_ones: undefined }] }), false],
    ['a proposal with a request member', (a) => lab(a, { proposals: [{ ...a.lab.proposals[0], resource: 'mailbox' }] }), false],
    ['a scorecard with a fractional n', (a) => ({ ...a, scorecard: { ...a.scorecard, n: 1.5 } }), false],
    ['a score with an extra member', (a) => ({ ...a, score: { ...a.score, forecast: 2 } }), false],
    ['an agent without promoted', (a) => ({ ...a, agents: [{ ...a.agents[0], promoted: undefined }] }), false],
    ['a negative shift count', (a) => ({ ...a, shifts: { ...a.shifts, on: -1 } }), false],
  ];
  for (const [name, change, ok] of cases) {
    test(`GET /api/office: ${name} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const { t, office } = await fullOffice();
      expect(await accepted(t, 'GET', '/api/office', 200, change(office.json))).toBe(ok);
    });
  }

  test('the full office really has every member filled', async () => {
    const { office } = await fullOffice();
    const d = office.json;
    expect([d.lab.experiments.length, d.lab.requests.length, d.lab.proposals.length]).toEqual([1, 1, 1]);
    expect(d.scorecard).not.toBeNull();
    expect(d.playbook).not.toBeNull();
    expect(d.promotion).not.toBeNull();
    expect(d.agents[0].public_status).not.toBeNull();
  });

  const personal: [string, (a: any) => unknown, boolean][] = [
    ['the personal document as served', (a) => a, true],
    ['without mine', ({ mine: _, ...a }) => a, false],
    ['lab without mine', (a) => ({ ...a, lab: { ...a.lab, mine: undefined } }), false],
    ['outreach_replies null', (a) => ({ ...a, mine: { ...a.mine, outreach_replies: null } }), false],
    [
      'an outreach reply without content_is_untrusted',
      (a) => ({
        ...a,
        mine: {
          ...a.mine,
          outreach_replies: [
            {
              reply_id: crypto.randomUUID(),
              message_id: crypto.randomUUID(),
              outlet: 'x',
              subject: 's',
              received_at: '2026-11-23T12:00:00Z',
              from_contact: true,
              opt_out: false,
              excerpt: 'e',
            },
          ],
        },
      }),
      false,
    ],
  ];
  for (const [name, change, ok] of personal) {
    test(`GET /v1/office: ${name} → ${ok ? 'accepted' : 'refused'}`, async () => {
      const { t, mine } = await fullOffice();
      expect(await accepted(t, 'GET', '/v1/office', 200, change(mine.json))).toBe(ok);
    });
  }
});

describe('Cache-Control of the office', () => {
  test('GET /api/office: public, max-age=10; GET /v1/office: no-store', async () => {
    const { office, mine } = await fullOffice();
    expect(office.headers.get('cache-control')).toBe('public, max-age=10');
    expect(mine.headers.get('cache-control')).toBe('no-store');
  });
});
