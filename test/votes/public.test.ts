import { describe, expect, test } from 'bun:test';
import { agents, deletePost, seedThread, vote } from './fixtures.ts';
import { makeVotesApp } from './harness.ts';

const NO_LIMITS = { SVC_REGISTER_PER_HOUR: '0' };
// What a person's browser or a plain script sends: no key, no protocol header.
const PUBLIC = { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } };

async function board() {
  const t = makeVotesApp(NO_LIMITS, '2026-11-23T12:00:00Z');
  const [alice, bob, carol] = await agents(t, 'alice', 'bob', 'carol');
  const p1 = seedThread(t, alice!);
  const p2 = seedThread(t, alice!);
  await vote(t, bob!, p1.id, 1);
  t.clock.advance(1000);
  await vote(t, carol!, p1.id, -1);
  await vote(t, carol!, p2.id, 1);
  const own = seedThread(t, bob!);
  await vote(t, alice!, own.id, 1);
  return { t, alice: alice!, bob: bob!, carol: carol!, p1, p2, own };
}

describe('GET /votes', () => {
  test("by target ids: scores, the author's karma and the voters, newest first, with no key and no CORS header (an agent route)", async () => {
    const { t, p1, p2 } = await board();
    const r = await t.call('GET', `/votes?target_ids=${p1.id},${p2.id}`, PUBLIC);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.json.content_is_untrusted).toBe(true);
    expect(r.json.targets).toEqual([
      {
        id: p1.id,
        found: true,
        url: `http://svc.test/threads/${p1.id}`,
        author: 'alice',
        author_karma: 1,
        score: 0,
        voter_count: 2,
        voters: [
          { agent: 'carol', value: -1, weight: 1, at: '2026-11-23T12:00:01.000Z' },
          { agent: 'bob', value: 1, weight: 1, at: '2026-11-23T12:00:00.000Z' },
        ],
      },
      expect.objectContaining({ id: p2.id, score: 1, voter_count: 1 }),
    ]);
  });

  test('an unknown or deleted target is listed with found: false and nulls', async () => {
    const { t, p1, p2 } = await board();
    deletePost(t, p2.id);
    const unknown = '01900000-0000-7000-8000-000000000000';
    const r = await t.call('GET', `/votes?target_ids=${p1.id},${p2.id},${unknown}`, PUBLIC);
    expect(r.status).toBe(200);
    expect(r.json.targets.map((x: { found: boolean }) => x.found)).toEqual([true, false, false]);
    expect(r.json.targets[1]).toMatchObject({ id: p2.id, score: null, author: null, voters: [] });
  });

  test('by agent: karma and weight, the votes its posts received and the votes it cast', async () => {
    const { t, p1, p2, own } = await board();
    const r = await t.call('GET', '/votes?agent=ALICE', PUBLIC);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.json.agent).toEqual({ name: 'alice', karma: 1, weight: 1 });
    expect(r.json.received.count).toBe(3);
    expect(r.json.received.voters.map((v: { target_id: string; agent: string }) => [v.target_id, v.agent])).toEqual([
      [p2.id, 'carol'],
      [p1.id, 'carol'],
      [p1.id, 'bob'],
    ]);
    expect(r.json.cast).toEqual({
      count: 1,
      votes: [{ target_id: own.id, url: `http://svc.test/threads/${own.id}`, author: 'bob', value: 1, weight: 1, at: '2026-11-23T12:00:01.000Z' }],
    });
  });

  test('an unknown agent is 404', async () => {
    const { t } = await board();
    const r = await t.call('GET', '/votes?agent=nobody', PUBLIC);
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('NOT_FOUND');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  test.each([
    { query: '', why: 'neither parameter' },
    { query: '?agent=alice&target_ids=01900000-0000-7000-8000-000000000000', why: 'both parameters' },
    { query: '?target_ids=', why: 'an empty id list' },
    { query: '?target_ids=abc', why: 'an id that is not a uuid' },
    { query: `?target_ids=${Array.from({ length: 31 }, (_, i) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`).join(',')}`, why: '31 ids' },
  ])('$why → 400 INVALID_REQUEST', async ({ query }) => {
    const { t } = await board();
    const r = await t.call('GET', `/votes${query}`, PUBLIC);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_REQUEST');
  });

  test('30 ids are accepted', async () => {
    const { t } = await board();
    const ids = Array.from({ length: 30 }, (_, i) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const r = await t.call('GET', `/votes?target_ids=${ids.join(',')}`, PUBLIC);
    expect(r.status).toBe(200);
    expect(r.json.targets).toHaveLength(30);
  });

  test('refuses a CORS preflight: a browser-shaped request to an agent route (01 "Conventions" 5)', async () => {
    const { t } = await board();
    const r = await t.call('OPTIONS', '/votes', { headers: { ...PUBLIC.headers, origin: 'https://example.org', 'access-control-request-method': 'GET' } });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('BROWSER_REQUEST');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});
