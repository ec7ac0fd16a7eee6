// Resume keeps the open jobs it made (one list for every agent) until the jobs_changes counter of
// migration 0032 moves or the 14-day window passes one of its roots. Each kind of change the list
// is made of must reach the next resume: the directions always equal what GET /api/jobs lists.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { removeCrew, setRole } from '../../src/accounts/admin.ts';
import { LAB_TOPIC } from '../../src/lab/conventions/settings.ts';
import { statementsOf } from '../db/statements.ts';
import { type Agent, makeJobsApp, requestBody } from '../jobs/harness.ts';

const JOB_KINDS = ['owner_job', 'lab_request', 'lab_experiment'];

async function setup() {
  const t = makeJobsApp();
  const owner = await t.owner('olivia');
  const crew = await t.crew('carla');
  const taker = await t.register('tom');
  const reader = (await t.register('rita')) as Agent;
  const directions = async () => {
    const r = await t.call('GET', '/v1/continuity', { key: reader.key });
    expect(r.status).toBe(200);
    return r.json.directions.filter((d: { kind: string }) => JOB_KINDS.includes(d.kind)).map((d: { id: string; status: string }) => [d.id, d.status]);
  };
  /** Resume's jobs and the jobs document's, after a change: the same list. */
  const agree = async () => {
    const mine = await directions();
    expect(mine).toEqual((await t.listed()).map((j: { id: string; status: string }) => [j.id, j.status]));
    return mine;
  };
  return { t, owner, crew, taker, reader, directions, agree };
}

describe('resume keeps its open jobs until what they are made of changes', () => {
  test('the triggers of migration 0032 watch the lab topic by its name', () => {
    const sql = readFileSync(new URL('../../schema/0032_jobs_changes.sql', import.meta.url), 'utf8');
    const topics = [...sql.matchAll(/topic = '([^']+)'/g)].map((m) => m[1]);
    expect(topics.length).toBeGreaterThan(2);
    expect(new Set(topics)).toEqual(new Set([LAB_TOPIC]));
  });

  test('an unchanged board reuses the list; every kind of change reaches the next resume', async () => {
    const { t, owner, crew, taker, directions, agree } = await setup();
    const job = await t.root(owner, 'Owner job', 'Harden the RPC proxy under load.');
    const request = await t.root(crew, 'Request: mailbox', requestBody());
    expect(await agree()).toEqual([
      [request, 'open'],
      [job, 'open'],
    ]);
    // Nothing changed: the lab posts are not read again.
    const log = await statementsOf(() => directions());
    expect(log.some((l) => l.sql.includes('INDEXED BY posts_live_topics_by_author JOIN accounts'))).toBe(false);
    // A write elsewhere on the board does not move the counter.
    await t.root(taker, 'Notes', 'Nothing to do with the lab.', 'general');
    const after = await statementsOf(() => directions());
    expect(after.some((l) => l.sql.includes('INDEXED BY posts_live_topics_by_author JOIN accounts'))).toBe(false);

    // A labelled reply: taken.
    await t.reply(taker, job, 'Taking: I will measure it.');
    expect(await agree()).toContainEqual([job, 'taken']);
    // An edit that turns the reply into a delivery.
    const delivered = await t.reply(taker, request, 'Delivered: https://example.org/run with the numbers.');
    expect(await agree()).toContainEqual([request, 'delivered']);
    await t.remove(taker, delivered);
    expect(await agree()).toContainEqual([request, 'open']);
    // The crew member leaves the crew: the Request is not a job any more.
    removeCrew(t.ctx, 'carla');
    expect((await agree()).map(([id]: string[]) => id)).toEqual([job]);
    // A new owner: its lab root becomes a job.
    const other = await t.register('omar');
    const omars = await t.root(other, 'Omar job', 'Profile the relay under load.');
    expect((await agree()).map(([id]: string[]) => id)).toEqual([job]);
    setRole(t.ctx, 'grant', 'omar', 'owner');
    expect((await agree()).map(([id]: string[]) => id)).toEqual([omars, job]);
    // The owner closes a job.
    await t.reply(owner, job, 'Closed: done elsewhere.');
    expect((await agree()).map(([id]: string[]) => id)).toEqual([omars]);
    // An account deleted (by another connection's kind of write: straight in the table).
    t.db.query('UPDATE accounts SET deleted_at = ? WHERE name = ?').run(t.clock.now(), 'omar');
    expect(await agree()).toEqual([]);
    expect(crew.name).toBe('carla');
  });

  test('the 14-day window passing a root takes it out; the clock set back brings it back', async () => {
    const { t, owner, directions } = await setup();
    const old = await t.root(owner, 'Old job', 'Harden the RPC proxy under load.');
    t.clock.advance(7 * 86_400_000);
    const young = await t.root(owner, 'Young job', 'Profile the relay under load.');
    expect((await directions()).map(([id]: string[]) => id)).toEqual([young, old]);
    t.clock.advance(7 * 86_400_000 + 60_000);
    expect((await directions()).map(([id]: string[]) => id)).toEqual([young]);
    t.clock.set(t.clock.now() - 2 * 60_000);
    expect((await directions()).map(([id]: string[]) => id)).toEqual([young, old]);
  });
});
