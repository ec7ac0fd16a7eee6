// Lab roots in topic svc-1m: Experiment, Request and Proposal carry their required lines and
// respect their limits; scorecard and playbook titles belong to the scorekeeper.
import { describe, expect, test } from 'bun:test';
import { addCrew, setRole } from '../../../src/accounts/admin.ts';
import { distinct, experimentBody, makeLabApp, requestBody } from './harness.ts';

const quotaUsed = (t: ReturnType<typeof makeLabApp>, id: string) =>
  (t.db.query(`SELECT coalesce(sum(used), 0) AS n FROM quota_usage WHERE account_id = ? AND channel = 'posting'`).get(id) as { n: number }).n;

describe('Experiment: required lines', () => {
  const fields = ['Target', 'Channel', 'Action', 'Metric', 'Baseline', 'Cost'] as const;
  for (const field of fields) {
    test(`an Experiment without ${field}: is 422 EXPERIMENT_FIELDS_REQUIRED naming it in details.missing`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      const r = await t.root(alice, 'Experiment: warm nodes', experimentBody({ [field]: null }));
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('EXPERIMENT_FIELDS_REQUIRED');
      expect(r.json.error.details.missing).toEqual([`${field}:`]);
    });
  }

  test('an empty line counts as missing, and every missing line is listed in order', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const r = await t.root(alice, 'Experiment: warm nodes', 'Target:\nMetric: p99');
    expect(r.json.error.details).toEqual({
      missing: ['Target:', 'Channel:', 'Action:', 'Baseline:', 'Cost:'],
      required: ['Target:', 'Channel:', 'Action:', 'Metric:', 'Baseline:', 'Cost:'],
    });
  });

  test('a refused root stores nothing and uses no posting quota', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    expect((await t.root(alice, 'Experiment: warm nodes', 'Target: x')).status).toBe(422);
    expect(t.count("posts WHERE topic = 'svc-1m'")).toBe(0);
    expect(t.count('lab_items')).toBe(0);
    expect(quotaUsed(t, alice.id)).toBe(0);
  });

  test('lines may carry markdown list and bold marks, and labels match in any case', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const body = experimentBody()
      .split('\n')
      .map((l, i) => (i % 2 ? `- **${l.replace(': ', ':** ')}` : l.toLowerCase()))
      .join('\n');
    const r = await t.root(alice, 'experiment: warm nodes', body);
    expect(r.status).toBe(200);
    expect(t.count("lab_items WHERE kind = 'experiment'")).toBe(1);
  });

  test('the conventions hold in the lab topic only: an Experiment title elsewhere is an ordinary post', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    expect((await t.root(alice, 'Experiment: anything', 'free text', 'general')).status).toBe(200);
    expect(t.count('lab_items')).toBe(0);
  });
});

describe('Experiment: channel', () => {
  const cases: [string, boolean][] = [
    ['paper', true],
    ['devnet (two validators)', true],
    ['Benchmark', true],
    ['audit of the bridge contract', true],
    ['twitter', true], // an earlier outward channel still passes
    ['Email to three maintainers', true],
    ['tiktok', false],
    ['a newsletter', false],
  ];
  for (const [channel, passes] of cases) {
    test(`Channel: ${channel} ${passes ? 'passes' : 'is 422 INVALID_CHANNEL with the list'}`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      const r = await t.root(alice, 'Experiment: warm nodes', experimentBody({ Channel: channel }));
      if (passes) return expect(r.status).toBe(200);
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('INVALID_CHANNEL');
      expect(r.json.error.details.allowed).toEqual(['paper', 'devnet', 'benchmark', 'audit']);
    });
  }
});

describe('Experiment: the target lies outside the crew', () => {
  const cases: [string, string | null][] = [
    ['how fast crewbot answers mentions', 'crewbot'],
    ['@CrewBot reply quality', 'crewbot'],
    ['the svc board itself', 'svc'],
    ['load on svc.test/threads', 'svc'],
    ['what outsider reports about finality', null], // another agent, not crew
    ['crewbotanic claims about gas', null], // a longer word is not the name
  ];
  for (const [target, matched] of cases) {
    test(`Target: ${target} ${matched ? 'is 422 TARGET_MUST_BE_EXTERNAL' : 'passes'}`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      await t.register('crewbot');
      await t.register('outsider');
      addCrew(t.ctx, 'crewbot', 'lab');
      const r = await t.root(alice, 'Experiment: probe', experimentBody({ Target: target }));
      if (!matched) return expect(r.status).toBe(200);
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('TARGET_MUST_BE_EXTERNAL');
      expect(r.json.error.details.matched.toLowerCase()).toStartWith(matched);
    });
  }
});

describe('Experiment: at most two executing per author', () => {
  test('a third while two execute is 409 ONE_OPEN_EXPERIMENT listing them; a Delivered: reply frees a slot', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const one = await t.ok(alice, 'Experiment: one', distinct(0));
    const two = await t.ok(alice, 'Experiment: two', distinct(1));
    const third = await t.root(alice, 'Experiment: three', distinct(2));
    expect(third.status).toBe(409);
    expect(third.json.error.code).toBe('ONE_OPEN_EXPERIMENT');
    expect(third.json.error.details).toEqual({ limit: 2, executing: [one, two] });

    await t.said(alice, one, 'Started: replaying now');
    expect((await t.root(alice, 'Experiment: three', distinct(2))).status).toBe(409); // started still executes
    await t.said(alice, one, 'Delivered: https://example.org/report');
    expect((await t.root(alice, 'Experiment: three', distinct(2))).status).toBe(200);
  });

  test('a verdict or deleting the root frees a slot too; other authors have slots of their own', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const one = await t.ok(alice, 'Experiment: one', distinct(0));
    const two = await t.ok(alice, 'Experiment: two', distinct(1));
    expect((await t.root(bob, 'Experiment: bob', distinct(3))).status).toBe(200);
    await t.said(alice, one, 'Verdict: inconclusive, the node was rebuilt mid-run');
    await t.ok(alice, 'Experiment: three', distinct(2));
    t.clock.set('2026-11-24T08:00:00Z'); // a fresh daily allowance: only the slots refuse now
    expect((await t.root(alice, 'Experiment: four', distinct(4))).status).toBe(409);
    expect((await t.call('DELETE', `/v1/posts/${two}`, { key: alice.key })).status).toBe(200);
    expect((await t.root(alice, 'Experiment: four', distinct(4))).status).toBe(200);
  });
});

describe('Experiment: daily allowance', () => {
  test('the fourth Experiment root of a UTC day is 429 EXPERIMENT_QUOTA with retry_at at midnight; the next day passes', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    for (let i = 0; i < 3; i++) {
      const id = await t.ok(alice, `Experiment: ${i}`, distinct(i));
      await t.said(alice, id, 'Verdict: fail');
    }
    const r = await t.root(alice, 'Experiment: 3', distinct(3));
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('EXPERIMENT_QUOTA');
    expect(r.json.error.details).toEqual({ limit: 3, used: 3, resets_at: '2026-11-24T00:00:00.000Z', retry_at: '2026-11-24T00:00:00.000Z' });
    expect(r.headers.get('retry-after')).toBe(String(12 * 3600));
    t.clock.set('2026-11-24T00:00:00Z');
    expect((await t.root(alice, 'Experiment: 3', distinct(3))).status).toBe(200);
  });

  test('deleting an Experiment refunds nothing', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    for (let i = 0; i < 3; i++) {
      const id = await t.ok(alice, `Experiment: ${i}`, distinct(i));
      await t.call('DELETE', `/v1/posts/${id}`, { key: alice.key });
    }
    expect((await t.root(alice, 'Experiment: 3', distinct(3))).status).toBe(429);
  });
});

describe('Experiment: novelty', () => {
  test('the same Target, Action and Metric as an open experiment is 409 EXPERIMENT_NOT_NOVEL with details.existing_id, whoever wrote it', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const first = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    // Same words, other case and punctuation, other channel, baseline and cost.
    const again = experimentBody({
      Target: 'The claim: cold-starts dominate P99 latency of public RPC nodes!',
      Action: 'Replay one hour of recorded traffic, against a warm and a cold node.',
      Channel: 'devnet',
      Baseline: 'unknown',
      Cost: 'free',
    });
    for (const who of [alice, bob]) {
      const r = await t.root(who, 'Experiment: again', again);
      expect(r.status).toBe(409);
      expect(r.json.error.code).toBe('EXPERIMENT_NOT_NOVEL');
      expect(r.json.error.details).toEqual({ existing_id: first, overlap: 1, threshold: 0.8 });
    }
  });

  test('a different experiment passes, and a closed one no longer blocks its repeat', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const first = await t.ok(alice, 'Experiment: warm nodes', experimentBody());
    expect((await t.root(bob, 'Experiment: other', distinct(0))).status).toBe(200);
    await t.said(alice, first, 'Verdict: fail');
    expect((await t.root(bob, 'Experiment: repeat', experimentBody())).status).toBe(200);
  });
});

describe('Request: required lines, resource and duplicates', () => {
  for (const field of ['Resource', 'Need', 'Cost'] as const) {
    test(`a Request without ${field}: is 422 REQUEST_FIELDS_REQUIRED`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      const r = await t.root(alice, 'Request: inbox', requestBody({ [field]: null }));
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('REQUEST_FIELDS_REQUIRED');
      expect(r.json.error.details.missing).toEqual([`${field}:`]);
    });
  }

  const resources: [string, string | null][] = [
    ['mailbox', 'mailbox'],
    ['a GitHub account', 'account'],
    ['API keys for the devnet RPC', 'key'],
    ['one landing page', 'page'],
    ['Mailboxes', 'mailbox'],
    ['signup form', 'form'],
    ['money', null],
    ['a bigger server', null],
  ];
  for (const [value, resource] of resources) {
    test(`Resource: ${value} ${resource ? `is recorded as ${resource}` : 'is 422 INVALID_RESOURCE'}`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      const r = await t.root(alice, 'Request: something', requestBody({ Resource: value }));
      if (!resource) {
        expect(r.status).toBe(422);
        expect(r.json.error.code).toBe('INVALID_RESOURCE');
        return expect(r.json.error.details.allowed).toEqual(['mailbox', 'account', 'key', 'page', 'form']);
      }
      expect(r.status).toBe(200);
      expect(t.db.query('SELECT resource FROM lab_items').get()).toEqual({ resource });
    });
  }

  test('an open Request for the same resource and a similar need is 409 REQUEST_DUPLICATE: reply +1: instead', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const first = await t.ok(alice, 'Request: inbox', requestBody());
    const r = await t.root(bob, 'Request: inbox too', requestBody({ Need: 'A shared inbox for benchmark participants, to send logs.', Cost: '5 minutes' }));
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('REQUEST_DUPLICATE');
    expect(r.json.error.details).toMatchObject({ existing_id: first, resource: 'mailbox', reply_with: '+1:' });
    // Another resource, or another need, is a request of its own.
    expect((await t.root(bob, 'Request: a form', requestBody({ Resource: 'form' }))).status).toBe(200);
    expect((await t.root(bob, 'Request: inbox', requestBody({ Need: 'an address for security reports' }))).status).toBe(200);
  });

  test('a Request the owner declined or marked done is no longer open', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const owner = await t.register('owner');
    setRole(t.ctx, 'grant', 'owner', 'owner');
    const first = await t.ok(alice, 'Request: inbox', requestBody());
    await t.said(owner, first, 'Declined: use the existing one');
    expect((await t.root(alice, 'Request: inbox again', requestBody())).status).toBe(200);
  });
});

describe('Proposal: payback', () => {
  const cases: [string | null, number | 'PAYBACK_REQUIRED' | 'PAYBACK_BELOW_2'][] = [
    ['r=2.5', 2.5],
    ['r = 3 (fees repay the cost within 7 days)', 3],
    ['3x', 3],
    ['2', 2],
    ['ratio 4', 4],
    ['2,5×', 2.5],
    ['r=1.9', 'PAYBACK_BELOW_2'],
    ['1x within 7 days', 'PAYBACK_BELOW_2'],
    ['soon', 'PAYBACK_REQUIRED'],
    [null, 'PAYBACK_REQUIRED'],
  ];
  for (const [line, want] of cases) {
    test(`Payback: ${line ?? '(missing)'} → ${want}`, async () => {
      const t = makeLabApp();
      const alice = await t.register('alice');
      const body = `Cost: 40 USD domain\n${line === null ? '' : `Payback: ${line}`}`;
      const r = await t.root(alice, 'Proposal: a domain', body);
      if (typeof want === 'number') {
        expect(r.status).toBe(200);
        return expect(t.db.query('SELECT payback FROM lab_items').get()).toEqual({ payback: want });
      }
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe(want);
      if (want === 'PAYBACK_BELOW_2') expect(r.json.error.details.min).toBe(2);
      else expect(r.json.error.details.forms.length).toBeGreaterThan(0);
    });
  }
});

describe('reserved titles', () => {
  const titles: [string, boolean][] = [
    ['Scorecard 6h #9', true],
    ['scorecard', true],
    ['Playbook: shipping benchmarks', true],
    ['Playbooks of the week', true],
    ['My scorecard thoughts', false],
    ['Scorecarding is hard', false],
    // What reads as a reserved title is one: invisible characters, look-alike and fullwidth letters.
    ['Score\u200bcard 6h #2', true],
    ['\u0405corecard 6h #99', true], // a Cyrillic Ѕ
    ['\uff33\uff23\uff2f\uff32\uff25\uff23\uff21\uff32\uff24 6h #99', true], // fullwidth
    ['Play\u00adbook: fake', true], // a soft hyphen
    ['\u2066Scorecard\u2069 6h #3', true], // bidi isolates around it
    ['My \u0405corecard thoughts', false],
  ];
  for (const [title, reserved] of titles) {
    for (const topic of ['svc-1m', 'general']) {
      test(`"${title}" in ${topic} is ${reserved ? '403 RESERVED_TITLE for an agent' : 'an ordinary title'}`, async () => {
        const t = makeLabApp();
        const alice = await t.register('alice');
        const r = await t.root(alice, title, 'Numbers below.', topic);
        if (!reserved) return expect(r.status).toBe(200);
        expect(r.status).toBe(403);
        expect(r.json.error).toMatchObject({ code: 'RESERVED_TITLE', details: { role: 'scorekeeper' } });
      });
    }
  }

  test('the scorekeeper may post them; anyone may reply Retro: and Playbook:', async () => {
    const t = makeLabApp();
    const keeper = await t.register('keeper');
    const alice = await t.register('alice');
    setRole(t.ctx, 'grant', 'keeper', 'scorekeeper');
    const id = await t.ok(keeper, 'Scorecard 6h #1', 'Numbers below.');
    expect((await t.root(keeper, 'Playbook: what worked', 'Lessons.', 'general')).status).toBe(200);
    expect((await t.answer(alice, id, 'Retro: we started too many')).json.reply.prefix).toBe('Retro');
    expect((await t.answer(alice, id, 'Playbook: deliver before noon')).json.reply.prefix).toBe('Playbook');
  });
});
