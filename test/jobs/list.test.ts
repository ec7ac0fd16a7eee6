// GET /api/jobs: which roots are jobs, the envelope, CORS and the cache.
import { describe, expect, spyOn, test } from 'bun:test';
import { publicCache } from '../../src/http/public-cache.ts';
import { experimentBody, makeJobsApp, requestBody } from './harness.ts';

const DAY = 24 * 3_600_000;

describe('GET /api/jobs: which roots are jobs', () => {
  test("a crew member's Request and Experiment are listed, newest first, with their kind", async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const req = await t.root(ada, 'Request: a mailbox for benchmark logs', requestBody());
    const exp = await t.root(ada, 'Experiment: cold starts and p99', experimentBody(0));
    const jobs = await t.listed();
    expect(jobs.map((j) => [j.id, j.kind])).toEqual([
      [exp, 'experiment'],
      [req, 'request'],
    ]);
  });

  test('any root the owner posts in the lab topic is an owner job', async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    const id = await t.root(boss, 'Harden the RPC proxy', 'Find a way to crash it under load and show how.');
    const jobs = await t.listed();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ id, kind: 'owner', author: 'boss', title: 'Harden the RPC proxy' });
  });

  test('roots that are not jobs are not listed', async () => {
    const t = makeJobsApp();
    const out = await t.register('outsider');
    const ada = await t.crew('ada');
    const boss = await t.owner('boss');
    await t.root(out, 'Request: a mailbox for my logs', requestBody('a mailbox where outside agents collect their own logs'));
    await t.root(ada, 'Notes on the week', 'Plain talk in the lab topic, no label.');
    await t.root(ada, 'Request: a mailbox elsewhere', requestBody(), 'general');
    await t.root(boss, 'Owner musings', 'The owner writing outside the lab topic.', 'general');
    expect(await t.listed()).toEqual([]);
  });

  test('crew membership and the owner role are read now: removing them removes the job', async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    await t.root(ada, 'Request: a mailbox for benchmark logs', requestBody());
    expect(await t.listed()).toHaveLength(1);
    const { removeCrew } = await import('../../src/accounts/admin.ts');
    removeCrew(t.ctx, 'ada');
    expect(await t.listed()).toEqual([]);
  });

  test('roots of the last 14 days are listed; older ones are not', async () => {
    const t = makeJobsApp('2026-11-01T00:00:00Z');
    const ada = await t.crew('ada');
    const old = await t.root(ada, 'Request: a mailbox for benchmark logs', requestBody());
    t.clock.advance(DAY);
    const young = await t.root(ada, 'Experiment: cold starts and p99', experimentBody(1));
    t.clock.set(Date.parse('2026-11-15T00:00:00Z') - 61_000); // listed() adds 61 s: exactly 14 days
    expect((await t.listed()).map((j) => j.id)).toEqual([young, old]);
    t.clock.advance(1); // 14 days and 1 ms
    expect((await t.listed()).map((j) => j.id)).toEqual([young]);
  });

  test('a deleted root, or a root of a deleted account, is not listed', async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const id = await t.root(ada, 'Request: a mailbox for benchmark logs', requestBody());
    await t.remove(ada, id);
    expect(await t.listed()).toEqual([]);
    const bea = await t.crew('bea');
    await t.root(bea, 'Experiment: cold starts and p99', experimentBody(2));
    t.db.run('UPDATE accounts SET deleted_at = 1 WHERE id = ?', [bea.id]);
    expect(await t.listed()).toEqual([]);
  });
});

describe('GET /api/jobs: the document', () => {
  test('the envelope and a job carry exactly the fields of the spec', async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const id = await t.root(ada, 'Request: a mailbox for benchmark logs', `${requestBody()}\n\nMore detail below the fold.`);
    t.clock.advance(61_000);
    const r = await t.jobs();
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['before', 'content_is_untrusted', 'docs', 'generated_at', 'has_more', 'jobs', 'next', 'version']);
    expect(r.json).toMatchObject({ before: null, has_more: false, next: null });
    expect(r.json).toMatchObject({
      version: 1,
      content_is_untrusted: true,
      docs: 'http://svc.test/docs/api/get-api-jobs',
      generated_at: new Date(t.clock.now()).toISOString(),
    });
    expect(r.json.jobs[0]).toEqual({
      id,
      kind: 'request',
      title: 'Request: a mailbox for benchmark logs',
      author: 'ada',
      created_at: '2026-11-23T12:00:00.000Z',
      url: `http://svc.test/threads/${id}`,
      status: 'open',
      brief: 'Resource: mailbox Need: a shared inbox for benchmark participants to send their logs Cost: none More detail below the fold.',
      takers: [],
      taker_count: 0,
      deliveries: [],
      delivery_count: 0,
    });
  });

  test('the brief is one line of at most 240 characters', async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    await t.root(
      boss,
      'A long brief',
      `first line\r\nsecond\tline\n${'The proxy drops connections when many clients reconnect at once after a restart. '.repeat(4)}`,
    );
    const [job] = await t.listed();
    expect([...job.brief].length).toBeLessThanOrEqual(240);
    expect(job.brief.startsWith('first line second line The proxy drops')).toBe(true);
    expect(job.brief.endsWith('…')).toBe(true);
  });

  test('no key and no protocol header are needed; CORS is *', async () => {
    const t = makeJobsApp();
    const r = await t.jobs({ origin: 'https://elsewhere.example' });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('it is cached 60 seconds, writes or not: a new job is in it once they are over', async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    const first = await t.jobs();
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.headers.get('etag')).toBeTruthy();
    t.clock.advance(30_000);
    const again = await t.jobs();
    expect(again.text).toBe(first.text);
    expect(again.headers.get('age')).toBe('30');
    expect((await t.jobs({ 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
    await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
    expect((await t.jobs()).text).toBe(first.text);
    t.clock.advance(30_000);
    // Expired: this reader gets the copy it had at once, while the rebuild runs beside it.
    const stale = await t.jobs();
    expect(stale.text).toBe(first.text);
    expect(stale.headers.get('age')).toBe('60');
    await publicCache(t.ctx).settled('jobs:');
    const fresh = await t.jobs();
    expect(fresh.json.jobs).toHaveLength(1);
    expect(fresh.headers.get('age')).toBe('0');
  });

  test('a read that fails answers 503 JOBS_UNAVAILABLE, never a guess', async () => {
    const t = makeJobsApp();
    const boss = await t.owner('boss');
    await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
    expect(await t.listed()).toHaveLength(1);
    t.db.run('DROP TABLE acceptances');
    t.clock.advance(61_000);
    const quiet = spyOn(console, 'error').mockImplementation(() => {});
    // Within its stale time the last good copy is served while the rebuild fails (logged) ...
    const last = await t.jobs();
    await publicCache(t.ctx).settled('jobs:');
    expect(last.status).toBe(200);
    expect(quiet.mock.calls.some((c) => String(c[0]).includes('document_rebuild_failed'))).toBe(true);
    // ... and past it the reader waits for a build, which fails: 503, never a guess.
    t.clock.advance(60_000);
    const r = await t.jobs();
    quiet.mockRestore();
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('JOBS_UNAVAILABLE');
  });
});

describe('GET /api/jobs: its documentation', () => {
  test('the OpenAPI description stays valid and the docs link names its section of the reference page', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const t = makeJobsApp();
    const openapi = (await t.call('GET', '/openapi.json')).json;
    const op = openapi.paths['/api/jobs'].get;
    expect(op['x-svc-errors']).toContain('JOBS_UNAVAILABLE');
    expect(op.responses['200'].content['application/json'].schema.properties.jobs).toBeDefined();
    expect((await new Validator().validate(openapi)).valid).toBe(true);
    const page = await t.call('GET', '/docs', { headers: { accept: 'text/html' } });
    expect(page.text).toContain('id="get-/api/jobs"');
  });
});
