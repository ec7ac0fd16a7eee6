// GET /api/jobs has a bound: a page lists at most JOBS_PAGE_MAX jobs, the newest, each with its
// newest JOB_WORK_MAX takers and deliveries and the counts of all; next pages back through the
// rest of the 14 days. Seeded past the bound with straight SQL.
import { describe, expect, test } from 'bun:test';
import { JOB_WORK_MAX, JOBS_PAGE_MAX } from '../../src/jobs/document.ts';
import { read, seedMany, seedReply } from '../public/fixtures.ts';
import { makeJobsApp } from './harness.ts';

const DAY = 86_400_000;

describe('GET /api/jobs: a bound and a next page', () => {
  test(`${JOBS_PAGE_MAX * 2 + 7} jobs: the newest ${JOBS_PAGE_MAX} first, next pages through the rest; closed jobs and old roots are not listed`, async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const n = JOBS_PAGE_MAX * 2 + 7;
    const start = t.clock.now() - 12 * DAY;
    seedMany(t, ada, 3, (i) => ({ topic: 'svc-1m', title: `Request: too old ${i}`, prefix: 'Request', at: start - 3 * DAY + i }));
    const roots = seedMany(t, ada, n, (i) => ({ topic: 'svc-1m', title: `Request: job ${i}`, prefix: 'Request', at: start + i * 60_000 }));
    // Every tenth is closed by its author: left, never listed, never counted against the page.
    const closed = roots.filter((_, i) => i % 10 === 5);
    for (const c of closed) seedReply(t, ada, c.id, { body: 'Closed: done elsewhere' });
    const open = roots.filter((r) => !closed.includes(r)).reverse();
    const first = await read(t, '/api/jobs');
    expect(first.status).toBe(200);
    expect(first.json.jobs.map((j: any) => j.id)).toEqual(open.slice(0, JOBS_PAGE_MAX).map((r) => r.id));
    expect(first.json.has_more).toBe(true);
    expect(first.json.next).toBe(`http://svc.test/api/jobs?before=${open[JOBS_PAGE_MAX - 1]!.id}`);
    const seen = first.json.jobs.map((j: any) => j.id);
    let next: string | null = first.json.next;
    while (next) {
      const r = await read(t, next.replace('http://svc.test', ''));
      expect(r.status).toBe(200);
      expect(r.json.jobs.length).toBeLessThanOrEqual(JOBS_PAGE_MAX);
      seen.push(...r.json.jobs.map((j: any) => j.id));
      next = r.json.next;
      expect(r.json.has_more).toBe(next !== null);
    }
    expect(seen).toEqual(open.map((r) => r.id));
    expect((await read(t, '/api/jobs?before=nope')).json.error.code).toBe('INVALID_CURSOR');
    expect((await read(t, `/api/jobs?before=${crypto.randomUUID()}`)).status).toBe(400);
  });

  test(`a job with ${JOB_WORK_MAX + 5} takers and deliveries lists the newest ${JOB_WORK_MAX} of each, oldest first, and counts all`, async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const [job] = seedMany(t, ada, 1, () => ({ topic: 'svc-1m', title: 'Request: a big one', prefix: 'Request' }));
    const names: string[] = [];
    for (let i = 0; i < JOB_WORK_MAX + 5; i++) {
      const a = await t.register(`worker_${i}`);
      names.push(a.name);
      seedReply(t, a, job!.id, { body: `Taking: plan ${i}`, at: t.clock.now() + 2 * i });
      seedReply(t, a, job!.id, { body: `Delivered: result ${i} https://example.org/${i}`, at: t.clock.now() + 2 * i + 1 });
    }
    const j = (await t.listed())[0];
    expect(j.taker_count).toBe(JOB_WORK_MAX + 5);
    expect(j.delivery_count).toBe(JOB_WORK_MAX + 5);
    expect(j.takers.map((x: any) => x.agent)).toEqual(names.slice(-JOB_WORK_MAX));
    expect(j.deliveries.map((x: any) => x.agent)).toEqual(names.slice(-JOB_WORK_MAX));
    expect(j.status).toBe('delivered');
  });
});
