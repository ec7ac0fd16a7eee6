// GET /api/jobs declares its answer (issues 13 §4 and 14): a closed valibot schema that accepts
// the real list, with a taker and an accepted delivery, and refuses its near misses, checked the
// way the suite checks every answer (test/contract.ts). The 200/304 declaration itself is checked
// with the other public documents in test/public/described.test.ts.
import { describe, expect, test } from 'bun:test';
import { altered, expectDeclared200, refusal, servedSpec } from '../board/described.ts';
import { makeJobsApp } from './harness.ts';

/** An owner job taken by ann and delivered by bob, whose delivery the owner accepted. */
async function answer() {
  const t = makeJobsApp();
  const boss = await t.owner('boss');
  const ann = await t.register('ann');
  const bob = await t.register('bob');
  const id = await t.root(boss, 'Harden the RPC proxy', 'Crash it under load and show how.');
  await t.reply(ann, id, 'Taking: a reconnect storm');
  const delivery = await t.reply(bob, id, 'Delivered: crash via slow headers https://example.org/bob https://example.org/bob2');
  await t.reply(boss, id, 'Accepted: thanks', delivery);
  t.clock.advance(61_000);
  const r = await t.jobs();
  expect(r.status).toBe(200);
  expect(r.json.jobs[0].takers).toHaveLength(1);
  expect(r.json.jobs[0].deliveries[0].accepted).toBe(true);
  return { t, body: r.json };
}

const ACCEPTED: [string, (b: any) => void][] = [
  ['the real list', () => {}],
  ['a delivery not accepted (accepted_at null)', (b) => Object.assign(b.jobs[0].deliveries[0], { accepted: false, accepted_at: null })],
  ['three links', (b) => (b.jobs[0].deliveries[0].links = ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'])],
  ['an open job', (b) => Object.assign(b.jobs[0], { status: 'open', takers: [], deliveries: [] })],
  ['no jobs', (b) => (b.jobs = [])],
];

const NEAR_MISSES: [string, (b: any) => void][] = [
  ['an undocumented member', (b) => (b.total = 1)],
  ['version 2', (b) => (b.version = 2)],
  ['docs that is not a url', (b) => (b.docs = '/docs')],
  ['jobs that are not a list', (b) => (b.jobs = b.jobs[0])],
  ['an undocumented member of a job', (b) => (b.jobs[0].reward = 5)],
  ['an unknown kind', (b) => (b.jobs[0].kind = 'bounty')],
  ['an unknown status', (b) => (b.jobs[0].status = 'done')],
  ['a brief of 241 characters', (b) => (b.jobs[0].brief = 'x'.repeat(241))],
  ['a job id that is not a uuid', (b) => (b.jobs[0].id = 'job-1')],
  ['a taker with an undocumented member', (b) => (b.jobs[0].takers[0].eta = 'soon')],
  ['outside as text', (b) => (b.jobs[0].takers[0].outside = 'yes')],
  ['a plan of 241 characters', (b) => (b.jobs[0].takers[0].plan = 'x'.repeat(241))],
  ['four links', (b) => (b.jobs[0].deliveries[0].links = ['https://a.example/1', 'https://a.example/2', 'https://a.example/3', 'https://a.example/4'])],
  ['a link that is not a url', (b) => (b.jobs[0].deliveries[0].links = ['example.org/bob'])],
  ['an accepted_at that is not a time', (b) => (b.jobs[0].deliveries[0].accepted_at = 'soon')],
  ['a delivery without accepted_at', (b) => delete b.jobs[0].deliveries[0].accepted_at],
];

describe('GET /api/jobs: the described answer is the real one, and nothing near it', () => {
  test('the route declares a closed 200 schema and x-svc-contract', async () => {
    expectDeclared200(await servedSpec(makeJobsApp()), 'GET', '/api/jobs');
  });

  test.each(ACCEPTED)('%s is accepted', async (_case, edit) => {
    const a = await answer();
    expect(await refusal(a.t, 'GET', '/api/jobs', altered(a.body, edit))).toBeNull();
  });

  test.each(NEAR_MISSES)('%s is refused', async (_case, edit) => {
    const a = await answer();
    expect(await refusal(a.t, 'GET', '/api/jobs', altered(a.body, edit))).toContain('does not match the description');
  });
});
