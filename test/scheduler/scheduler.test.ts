// Schedules survive restarts: each run is recorded, one slot never runs twice, a missed slot is
// caught up once, manual runs always run.
import { describe, expect, test } from 'bun:test';
import { runJob, type ScheduledJob, Scheduler, slotOf } from '../../src/scheduler/scheduler.ts';
import { makeApp } from '../helpers.ts';

const every5 = '*/5 * * * *';
const counter = (name = 'count', pattern = every5) => {
  const slots: number[] = [];
  const job: ScheduledJob = {
    name,
    pattern,
    run: (_ctx, slot) => {
      slots.push(slot);
      return { n: slots.length };
    },
  };
  return { job, slots };
};
const runs = (t: ReturnType<typeof makeApp>, job: string) =>
  t.db.query('SELECT trigger, status, slot FROM job_runs WHERE job = ? ORDER BY id').all(job) as { trigger: string; status: string; slot: number }[];

describe('slotOf', () => {
  test('is the latest pattern time at or before now, in UTC', () => {
    expect(new Date(slotOf(every5, Date.parse('2026-11-23T12:07:30Z'))).toISOString()).toBe('2026-11-23T12:05:00.000Z');
    expect(new Date(slotOf(every5, Date.parse('2026-11-23T12:10:00Z'))).toISOString()).toBe('2026-11-23T12:10:00.000Z');
    expect(new Date(slotOf('0 */6 * * *', Date.parse('2026-11-23T17:59:59Z'))).toISOString()).toBe('2026-11-23T12:00:00.000Z');
    expect(new Date(slotOf('0 0 * * 1', Date.parse('2026-11-26T09:00:00Z'))).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });
});

describe('runJob', () => {
  test('a slot runs once, however often it is triggered', async () => {
    const t = makeApp();
    const { job, slots } = counter();
    const first = await runJob(t.ctx, job, 'schedule');
    expect(first).toMatchObject({ ran: true, status: 'done', result: { n: 1 }, slot: '2026-11-23T12:00:00.000Z' });
    expect((await runJob(t.ctx, job, 'schedule')).ran).toBe(false);
    expect((await runJob(t.ctx, job, 'catch_up')).ran).toBe(false);
    expect(slots.length).toBe(1);
    t.clock.advance(5 * 60_000);
    expect((await runJob(t.ctx, job, 'schedule')).ran).toBe(true);
    expect(slots.length).toBe(2);
  });

  test('overlapping triggers of one slot run it once', async () => {
    const t = makeApp();
    let calls = 0;
    const job: ScheduledJob = {
      name: 'slow',
      pattern: every5,
      run: async () => {
        calls++;
        await Bun.sleep(20);
      },
    };
    const outcomes = await Promise.all([runJob(t.ctx, job, 'schedule'), runJob(t.ctx, job, 'schedule'), runJob(t.ctx, job, 'catch_up')]);
    expect(outcomes.filter((o) => o.ran).length).toBe(1);
    expect(calls).toBe(1);
  });

  test('a failed run is recorded with its error and not retried for that slot', async () => {
    const t = makeApp();
    const job: ScheduledJob = {
      name: 'boom',
      pattern: every5,
      run: () => {
        throw new Error('market down');
      },
    };
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => void errors.push(line);
    const outcome = await runJob(t.ctx, job, 'schedule');
    console.error = original;
    expect(outcome).toMatchObject({ ran: true, status: 'failed', error: 'market down' });
    expect(runs(t, 'boom')).toEqual([{ trigger: 'schedule', status: 'failed', slot: Date.parse('2026-11-23T12:00:00Z') }]);
    expect((await runJob(t.ctx, job, 'schedule')).ran).toBe(false);
    expect(errors.join('')).toContain('market down');
  });

  test('manual runs always run and are recorded as manual', async () => {
    const t = makeApp();
    const { job, slots } = counter();
    await runJob(t.ctx, job, 'schedule');
    await runJob(t.ctx, job, 'manual');
    await runJob(t.ctx, job, 'manual');
    expect(slots.length).toBe(3);
    expect(runs(t, 'count').map((r) => r.trigger)).toEqual(['schedule', 'manual', 'manual']);
  });
});

describe('Scheduler', () => {
  test('a start after downtime catches up the latest missed slot once, and a restart does not repeat it', async () => {
    const t = makeApp();
    const { job, slots } = counter();
    await runJob(t.ctx, job, 'schedule');
    t.clock.advance(60 * 60_000); // an hour down: twelve slots missed
    const first = new Scheduler(t.ctx, [job]);
    const caught = await first.start();
    first.stop();
    expect(caught.map((c) => [c.ran, c.slot])).toEqual([[true, '2026-11-23T13:00:00.000Z']]);
    const again = new Scheduler(t.ctx, [job]);
    expect((await again.start()).map((c) => c.ran)).toEqual([false]);
    again.stop();
    expect(slots.length).toBe(2);
  });

  test('a stop starts no run and settles only once the runs under way have ended and their records are written', async () => {
    const t = makeApp();
    let release = () => {};
    const slow: ScheduledJob = { name: 'slow', pattern: every5, run: () => new Promise<{ ok: true }>((r) => (release = () => r({ ok: true }))) };
    const { job: next, slots } = counter('next');
    const scheduler = new Scheduler(t.ctx, [slow, next]);
    const started = scheduler.start();
    while (runs(t, 'slow').length === 0) await Bun.sleep(1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await Bun.sleep(20);
    expect(stopped).toBe(false);
    release();
    await stopping;
    // The slow run's record is written before the stop settles; the next job's catch-up never began.
    expect(runs(t, 'slow').map((r) => r.status)).toEqual(['done']);
    expect((await started).map((c) => c.job)).toEqual(['slow']);
    expect(slots.length).toBe(0);
    expect(runs(t, 'next')).toEqual([]);
  });
});
