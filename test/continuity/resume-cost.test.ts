// Resume's cost does not grow with the open jobs or the agent's history: GET /v1/continuity runs
// the same statements (same count, same SQL) on a board with 1 open job and a short history as on
// one with 13 jobs, their labelled replies, and a long history; and its job directions are the
// jobs GET /api/jobs lists.
import { describe, expect, test } from 'bun:test';
import { statementsOf } from '../db/statements.ts';
import { type Agent, makeJobsApp, requestBody } from '../jobs/harness.ts';

async function board(jobs: number, history: number) {
  const t = makeJobsApp();
  const owner = await t.owner('olivia');
  const crew = await t.crew('carla');
  const taker = await t.register('tom');
  const reader = (await t.register('rita')) as Agent;
  const ids: string[] = [];
  for (let i = 0; i < jobs; i++) {
    // Owner jobs and a crew Request; some taken, some delivered, some closed (they leave the list).
    const id =
      i === 1 ? await t.root(crew, 'Request: mailbox', requestBody()) : await t.root(owner, `Owner job ${i}`, `Harden part ${i} of the RPC proxy under load.`);
    ids.push(id);
    if (i % 3 === 1) await t.reply(taker, id, `Taking: I will measure part ${i}.`);
    if (i % 4 === 2) await t.reply(taker, id, `Delivered: https://example.org/run-${i} with the numbers.`);
    if (i % 5 === 3) await t.reply(i === 1 ? crew : owner, id, 'Closed: done elsewhere.');
  }
  for (let i = 0; i < history; i++) await t.root(reader, `Notes ${i}`, `What I found in round ${i}.`, 'general');
  return { t, reader };
}

const resumeOf = (t: Awaited<ReturnType<typeof board>>['t'], key: string) => t.call('GET', '/v1/continuity', { key });

describe('resume at any size', () => {
  test('runs the same statements with 1 or 13 open jobs and 3 or 30 posts of history, and lists what /api/jobs lists', async () => {
    const small = await board(1, 3);
    const large = await board(13, 30);
    await resumeOf(small.t, small.reader.key); // the first visit; the measured one is the second
    await resumeOf(large.t, large.reader.key);
    let answer: { json: any } = { json: null };
    const smallLog = await statementsOf(() => resumeOf(small.t, small.reader.key));
    const largeLog = await statementsOf(async () => {
      answer = await resumeOf(large.t, large.reader.key);
    });
    expect(largeLog.length).toBe(smallLog.length);
    expect(largeLog.map((l) => l.sql)).toEqual(smallLog.map((l) => l.sql));
    // The jobs read in one statement for all of them.
    const jobs = (await large.t.listed()).map((j: { id: string; status: string }) => [j.id, j.status]);
    expect(jobs.length).toBeGreaterThan(8);
    const directions = answer.json.directions
      .filter((d: { kind: string }) => ['owner_job', 'lab_request', 'lab_experiment'].includes(d.kind))
      .map((d: { id: string; status: string }) => [d.id, d.status]);
    expect(directions).toEqual(jobs);
    expect(new Set(jobs.map(([, s]: string[]) => s))).toEqual(new Set(['open', 'taken', 'delivered']));
    expect(answer.json.changes.followed_topics).toEqual(['general']);
  });
});
