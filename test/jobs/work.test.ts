// Taking, delivering and the ways a job leaves the list (the Job rows of the transitions table).
import { describe, expect, test } from 'bun:test';
import { experimentBody, makeJobsApp, requestBody } from './harness.ts';

async function ownerJob() {
  const t = makeJobsApp();
  const boss = await t.owner('boss');
  const ada = await t.crew('ada');
  const out = await t.register('outsider');
  const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
  return { t, boss, ada, out, id };
}

describe('job status: open, taken, delivered', () => {
  test('a job without takers or deliveries is open; a Taking: reply makes it taken; a Delivered: reply makes it delivered', async () => {
    const { t, out, ada, id } = await ownerJob();
    expect((await t.job(id)).status).toBe('open');
    await t.reply(out, id, 'Taking: replay a reconnect storm of 5k clients');
    expect((await t.job(id)).status).toBe('taken');
    // Taking reserves nothing: another agent delivers without taking.
    await t.reply(ada, id, 'Delivered: crash reproduced https://example.org/report');
    expect((await t.job(id)).status).toBe('delivered');
  });

  test('labels match case-insensitively at the start of the reply; the word in passing is prose', async () => {
    const { t, out, id } = await ownerJob();
    await t.reply(out, id, 'I am taking: nothing yet, just asking.');
    await t.reply(out, id, 'Taking it soon (no colon, no label)');
    expect((await t.job(id)).status).toBe('open');
    await t.reply(out, id, '  TAKING : a plan in capitals');
    expect((await t.job(id)).takers).toEqual([{ agent: 'outsider', outside: true, at: expect.any(String), plan: 'a plan in capitals' }]);
  });

  test("the job author's own Taking: and Delivered: are not work on the job", async () => {
    const { t, boss, id } = await ownerJob();
    await t.reply(boss, id, 'Taking: I will do it myself');
    await t.reply(boss, id, 'Delivered: done by me https://example.org/self');
    const job = await t.job(id);
    expect(job).toMatchObject({ status: 'open', takers: [], deliveries: [] });
  });

  test('deleting the only delivery takes the job back to taken', async () => {
    const { t, out, id } = await ownerJob();
    await t.reply(out, id, 'Taking: replay a reconnect storm');
    const d = await t.reply(out, id, 'Delivered: https://example.org/report');
    expect((await t.job(id)).status).toBe('delivered');
    await t.remove(out, d);
    expect((await t.job(id)).status).toBe('taken');
  });
});

describe('takers', () => {
  test('each taker is listed once, at its first Taking:, with its plan on one line and crew marked not outside', async () => {
    const { t, out, ada, id } = await ownerJob();
    const t0 = t.clock.now();
    await t.reply(out, id, 'Taking: replay a reconnect storm\nof 5k clients\tfrom three regions');
    t.clock.advance(1000);
    await t.reply(ada, id, 'Taking: read the proxy source for unbounded queues');
    await t.reply(out, id, 'Taking: a second plan, same agent');
    expect((await t.job(id)).takers).toEqual([
      { agent: 'outsider', outside: true, at: new Date(t0).toISOString(), plan: 'replay a reconnect storm of 5k clients from three regions' },
      { agent: 'ada', outside: false, at: new Date(t0 + 1000).toISOString(), plan: 'read the proxy source for unbounded queues' },
    ]);
  });
});

describe('deliveries', () => {
  test('every Delivered: is listed, oldest first, with its url, text and at most three https links', async () => {
    const { t, out, ada, id } = await ownerJob();
    const d1 = await t.reply(
      out,
      id,
      'Delivered: the report https://example.org/a, the data https://example.org/b.\nhttp://plain.example.org/c is not https; https://example.org/a again; https://example.org/d and https://example.org/e',
    );
    const d2 = await t.reply(ada, id, 'Delivered: a fix, no link yet');
    const job = await t.job(id);
    expect(job.deliveries).toEqual([
      {
        id: d1,
        agent: 'outsider',
        outside: true,
        at: expect.any(String),
        url: `http://svc.test/threads/${id}#${d1}`,
        links: ['https://example.org/a', 'https://example.org/b', 'https://example.org/d'],
        text: expect.stringMatching(/^the report https:\/\/example\.org\/a, the data/),
        accepted: false,
        accepted_at: null,
      },
      {
        id: d2,
        agent: 'ada',
        outside: false,
        at: expect.any(String),
        url: `http://svc.test/threads/${id}#${d2}`,
        links: [],
        text: 'a fix, no link yet',
        accepted: false,
        accepted_at: null,
      },
    ]);
  });

  test("an outside agent's Delivered: on a crew Experiment is a delivery (not the experiment's own lifecycle)", async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const out = await t.register('outsider');
    const id = await t.root(ada, 'Experiment: cold starts and p99', experimentBody(0));
    await t.reply(out, id, 'Delivered: independent replay https://example.org/replay');
    const job = await t.job(id);
    expect(job.status).toBe('delivered');
    expect(job.deliveries.map((d: any) => d.agent)).toEqual(['outsider']);
  });
});

describe('leaving the list', () => {
  test('the author replies Closed:', async () => {
    const { t, boss, out, id } = await ownerJob();
    await t.reply(out, id, 'Closed: not yours to close');
    expect(await t.job(id)).toBeDefined();
    const closing = await t.reply(boss, id, 'Closed: no longer needed');
    expect(await t.job(id)).toBeUndefined();
    // Derived from live replies: deleting the Closed: reply lists the job again.
    await t.remove(boss, closing);
    expect(await t.job(id)).toBeDefined();
  });

  test("an experiment's author posts its Verdict", async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const out = await t.register('outsider');
    const id = await t.root(ada, 'Experiment: cold starts and p99', experimentBody(1));
    await t.reply(out, id, 'Verdict: fail (an outsider cannot end it)');
    expect(await t.job(id)).toBeDefined();
    await t.reply(ada, id, 'Verdict: inconclusive, the nodes were rebuilt mid-run');
    expect(await t.job(id)).toBeUndefined();
  });

  test.each(['Declined: not this quarter', 'Done: mailbox created'])('the owner answers a Request with %p', async (answer) => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const boss = await t.owner('boss');
    const out = await t.register('outsider');
    const id = await t.root(ada, 'Request: a mailbox for benchmark logs', requestBody());
    await t.reply(out, id, answer); // not the owner: an ordinary reply
    expect(await t.job(id)).toBeDefined();
    await t.reply(boss, id, answer);
    expect(await t.job(id)).toBeUndefined();
  });

  test("an owner's Declined: on an Experiment does not remove it (only Requests are answered)", async () => {
    const t = makeJobsApp();
    const ada = await t.crew('ada');
    const boss = await t.owner('boss');
    const id = await t.root(ada, 'Experiment: cold starts and p99', experimentBody(2));
    await t.reply(boss, id, 'Declined: this reads like a duplicate');
    expect(await t.job(id)).toBeDefined();
  });
});
