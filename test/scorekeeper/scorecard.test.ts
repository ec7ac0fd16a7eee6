// The scorekeeper: `Scorecard 6h #N` every 6 hours in the lab topic, a real post by the
// scorekeeper account, numbered without gaps or repeats, with numbers counted from the board.
import { describe, expect, test } from 'bun:test';
import { revokeKey } from '../../src/accounts/accounts.ts';
import { accountStore } from '../../src/accounts/store.ts';
import { setRole } from '../../src/accounts/admin.ts';
import { runAdmin } from '../../src/admin/cli.ts';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { serviceContext } from '../../src/compose.ts';
import { runJob } from '../../src/scheduler/scheduler.ts';
import { SCORECARD_JOB } from '../../src/scorekeeper/job.ts';
import { latestPlaybook, latestScorecard, postScorecard } from '../../src/scorekeeper/scorecard.ts';
import { distinct, experimentBody, makeLabApp, requestBody } from '../lab/conventions/harness.ts';

const H = 3_600_000;
const scorecards = (t: ReturnType<typeof makeLabApp>) =>
  t.db.query('SELECT n, slot, trigger, post_id FROM scorecards ORDER BY n').all() as { n: number; slot: number; trigger: string; post_id: string }[];
const scorecardTitles = (t: ReturnType<typeof makeLabApp>) =>
  (t.db.query("SELECT title FROM posts WHERE title LIKE 'Scorecard%' ORDER BY seq").all() as { title: string }[]).map((r) => r.title);

describe('the scorecard job', () => {
  test('is registered as "scorecard" every 6 hours, and svc admin run scorecard runs it', async () => {
    const t = makeLabApp();
    expect(t.ctx.parts.jobs.find((j) => j.name === 'scorecard')?.pattern).toBe('0 */6 * * *');
    const out = (await runAdmin(t.ctx, ['run', 'scorecard'])) as { ran: boolean; status: string; result: { n: number } };
    expect(out).toMatchObject({ ran: true, status: 'done', result: { posted: true, n: 1 } });
  });

  test('posts a real thread in the lab topic as the scorekeeper account, readable like any post', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    const out = await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    expect(out).toMatchObject({ ran: true, status: 'done', slot: '2026-11-23T12:00:00.000Z' });
    const [card] = scorecards(t);
    const read = await t.call('GET', `/v1/posts/${card!.post_id}`, { key: alice.key });
    expect(read.status).toBe(200);
    expect(read.json.post).toMatchObject({ title: 'Scorecard 6h #1', topic: 'svc-1m', author: 'scorekeeper', prefix: 'Scorecard' });
    expect(read.json.post.body).toStartWith('Window: 2026-11-23T06:00:00.000Z to 2026-11-23T12:00:00.000Z (6 hours, UTC).');
  });

  test('run twice for one slot posts once; the next slot posts #2', async () => {
    const t = makeLabApp();
    expect((await runJob(t.ctx, SCORECARD_JOB, 'schedule')).ran).toBe(true);
    expect((await runJob(t.ctx, SCORECARD_JOB, 'schedule')).ran).toBe(false);
    expect((await runJob(t.ctx, SCORECARD_JOB, 'catch_up')).ran).toBe(false);
    // Even called around the scheduler, a slot keeps its one scorecard.
    expect(await postScorecard(t.ctx, { slot: Date.parse('2026-11-23T12:00:00Z'), trigger: 'schedule' })).toMatchObject({ posted: false, n: 1 });
    t.clock.advance(6 * H);
    expect((await runJob(t.ctx, SCORECARD_JOB, 'schedule')).result).toMatchObject({ posted: true, n: 2 });
    expect(scorecardTitles(t)).toEqual(['Scorecard 6h #1', 'Scorecard 6h #2']);
  });

  test('manual runs post the next N, in a slot that already has its scorecard too; N never repeats', async () => {
    const t = makeLabApp();
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    t.clock.advance(60_000);
    expect((await runJob(t.ctx, SCORECARD_JOB, 'manual')).result).toMatchObject({
      posted: true,
      n: 2,
      window: { from: '2026-11-23T06:01:00.000Z', to: '2026-11-23T12:01:00.000Z' },
    });
    expect((await runJob(t.ctx, SCORECARD_JOB, 'manual')).result).toMatchObject({ posted: true, n: 3 });
    t.clock.set('2026-11-23T18:00:00Z');
    expect((await runJob(t.ctx, SCORECARD_JOB, 'schedule')).result).toMatchObject({ posted: true, n: 4 });
    expect(scorecards(t).map((c) => [c.n, c.trigger])).toEqual([
      [1, 'schedule'],
      [2, 'manual'],
      [3, 'manual'],
      [4, 'schedule'],
    ]);
  });

  test('a deleted scorecard keeps its number', async () => {
    const t = makeLabApp();
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    t.db.query('UPDATE posts SET deleted_at = ? WHERE id = ?').run(t.clock.now(), scorecards(t)[0]!.post_id);
    expect(latestScorecard(t.ctx)).toBeNull();
    t.clock.advance(6 * H);
    expect((await runJob(t.ctx, SCORECARD_JOB, 'schedule')).result).toMatchObject({ n: 2 });
  });

  test('a restart over the same database continues the numbering', async () => {
    const t = makeLabApp();
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    await runJob(t.ctx, SCORECARD_JOB, 'manual');
    const clock = new ManualClock(Date.parse('2026-11-23T18:00:00Z'));
    const ctx = serviceContext(t.config, t.db, clock);
    createApp(ctx);
    const caught = await runJob(ctx, SCORECARD_JOB, 'catch_up');
    expect(caught.result).toMatchObject({ posted: true, n: 3 });
    expect(scorecardTitles(t)).toEqual(['Scorecard 6h #1', 'Scorecard 6h #2', 'Scorecard 6h #3']);
  });
});

describe('the scorekeeper account', () => {
  test('is created keyless with the role when no account holds it, and reused after', async () => {
    const t = makeLabApp();
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    t.clock.advance(6 * H);
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    const rows = t.db.query("SELECT a.name, a.key_hash FROM account_roles r JOIN accounts a ON a.id = r.account_id WHERE r.role = 'scorekeeper'").all() as {
      name: string;
      key_hash: string;
    }[];
    expect(rows.length).toBe(1);
    expect(rows[0]!.name).toBe('scorekeeper');
    expect(rows[0]!.key_hash).toStartWith('no-key:');
  });

  test('an operator-made scorekeeper posts instead; a revoked one stops the run with a clear error', async () => {
    const t = makeLabApp();
    await t.register('keeper');
    setRole(t.ctx, 'grant', 'keeper', 'scorekeeper');
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    expect(latestScorecard(t.ctx)).toMatchObject({ n: 1 });
    expect(
      (t.db.query('SELECT a.name FROM posts p JOIN accounts a ON a.id = p.author_id WHERE p.id = ?').get(scorecards(t)[0]!.post_id) as { name: string }).name,
    ).toBe('keeper');

    revokeKey(t.ctx, accountStore(t.db).byName.get('keeper')!);
    t.clock.advance(6 * H);
    const out = await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    expect(out).toMatchObject({ ran: true, status: 'failed' });
    expect(out.error).toContain('scorekeeper role');
    expect(scorecards(t).length).toBe(1);
  });

  test("the scorecard uses the scorekeeper's posting allowance: when it is spent the run fails and takes no number", async () => {
    const t = makeLabApp({ SVC_POSTING_PER_DAY: '1' });
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    const out = await runJob(t.ctx, SCORECARD_JOB, 'manual');
    expect(out).toMatchObject({ status: 'failed' });
    expect(scorecards(t).map((c) => c.n)).toEqual([1]);
  });
});

describe('the scorecard numbers', () => {
  test('count what the board shows in the 6 hours before the slot, live posts only', async () => {
    const t = makeLabApp({}, '2026-11-23T05:00:00Z');
    const alice = await t.register('alice');
    const bob = await t.register('bobby');
    const owner = await t.register('owner');
    setRole(t.ctx, 'grant', 'owner', 'owner');
    // Before the window (05:00): an experiment started; it is delivered inside the window.
    const early = await t.ok(alice, 'Experiment: early', distinct(0));
    await t.said(alice, early, 'Started: before the window');
    // Inside the window [06:00, 12:00).
    t.clock.set('2026-11-23T07:00:00Z');
    await t.said(alice, early, 'Delivered: https://example.org/early');
    const second = await t.ok(alice, 'Experiment: second', distinct(1));
    await t.said(alice, second, 'Started: go');
    const third = await t.ok(bob, 'Experiment: third', distinct(2));
    await t.said(bob, third, 'Started: go');
    await t.said(bob, third, 'Delivered: https://example.org/third');
    t.clock.set('2026-11-23T08:00:00Z');
    await t.said(alice, early, 'Result 1h: 12 readers');
    await t.said(bob, third, 'Result 15m: 2 readers');
    const gone = await t.said(bob, third, 'Result 1h: 5 readers');
    await t.call('DELETE', `/v1/posts/${gone}`, { key: bob.key }); // deleted: not counted
    await t.said(alice, early, 'Verdict: win');
    await t.said(bob, third, 'Verdict: inconclusive');
    await t.said(bob, early, 'Started: not the author, not counted');
    const req = await t.ok(bob, 'Request: inbox', requestBody());
    await t.said(owner, req, 'Approved: ok');
    await t.ok(alice, 'Proposal: domain', 'Cost: 40 USD\nPayback: 3x');
    // After the window (12:00 and later): not counted in the 12:00 scorecard.
    t.clock.set('2026-11-23T12:00:00Z');
    await t.said(alice, second, `Delivered: https://example.org/second`);

    const out = await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    expect((out.result as { numbers: unknown }).numbers).toEqual({
      experiments_posted: 2,
      experiments_started: 2,
      experiments_delivered: 2,
      results_posted: 2,
      verdicts: { win: 1, fail: 0, inconclusive: 1 },
      accepted_deliveries: 0,
      requests_posted: 1,
      proposals_posted: 1,
      market_change: null,
    });
    const card = latestScorecard(t.ctx)!;
    expect(card.numbers.experiments_started).toBe(2);
    const post = (await t.call('GET', `/v1/posts/${card.id}`, { key: alice.key })).json.post;
    for (const line of [
      'Experiments started: 2',
      'Experiments delivered: 2',
      'Results posted: 2',
      'Verdicts: 1 win, 0 fail, 1 inconclusive',
      'Accepted deliveries: 0',
      'Market change: not measured yet',
    ]) {
      expect(post.body).toContain(line);
    }
  });

  test('accepted deliveries are counted from the acceptances inside the window', async () => {
    const t = makeLabApp();
    // Acceptances point at real posts: four deliveries in one thread of the rules root's author.
    const root = '00000000-0000-7000-8000-000000000002';
    const author = '00000000-0000-7000-8000-000000000001';
    ['2026-11-23T05:59:59Z', '2026-11-23T06:00:00Z', '2026-11-23T11:00:00Z', '2026-11-23T12:00:00Z'].forEach((at, i) => {
      const id = `00000000-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`;
      t.db
        .query("INSERT INTO posts (id, kind, thread_id, author_id, topic, body, created_at) VALUES (?, 'reply', ?, ?, 'rules', 'Delivered: x', 0)")
        .run(id, root, author);
      t.db
        .query("INSERT INTO acceptances (delivery_id, job_id, author_id, reply_id, rule, accepted_at) VALUES (?, ?, ?, ?, 'newest', ?)")
        .run(id, root, author, id, Date.parse(at));
    });
    const out = await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    expect((out.result as { numbers: { accepted_deliveries: number } }).numbers.accepted_deliveries).toBe(2);
  });
});

describe('Retro: and Playbook: replies on a scorecard', () => {
  test('are ordinary replies; the newest Playbook: is what latestPlaybook shows', async () => {
    const t = makeLabApp();
    const alice = await t.register('alice');
    await runJob(t.ctx, SCORECARD_JOB, 'schedule');
    const card = latestScorecard(t.ctx)!;
    expect(latestPlaybook(t.ctx)).toBeNull();
    await t.said(alice, card.id, 'Retro: we started three, delivered one');
    t.clock.advance(1000);
    const id = await t.said(alice, card.id, 'Playbook: deliver one before starting the next');
    expect(latestPlaybook(t.ctx)).toEqual({
      id,
      author: 'alice',
      body: 'Playbook: deliver one before starting the next',
      created_at: '2026-11-23T12:00:01.000Z',
      url: `http://svc.test/threads/${card.id}#${id}`,
    });
    // The experiment rules are unaffected by the scorecard thread.
    expect((await t.root(alice, 'Experiment: x', experimentBody())).status).toBe(200);
  });
});
