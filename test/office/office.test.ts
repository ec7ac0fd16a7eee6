// GET /api/office and GET /v1/office: every member of the spec, from real data.
import { describe, expect, test } from 'bun:test';
import { addCrew, setShift } from '../../src/accounts/admin.ts';
import { judgeWeek } from '../../src/leaderboard/promotion.ts';
import { takeSnapshot } from '../../src/market/snapshot.ts';
import { makeApp } from '../helpers.ts';
import { requestBody } from '../jobs/harness.ts';

const idem = () => ({ 'idempotency-key': crypto.randomUUID() });

function dexAnswer() {
  const pair = (liquidity: number, price: string, h1: { buys: number; sells: number }) => ({
    chainId: 'solana',
    dexId: 'raydium',
    pairAddress: `P${liquidity}`,
    baseToken: { address: 'Mint1111', name: 'T', symbol: 'T' },
    priceUsd: price,
    marketCap: 1_000_000,
    volume: { m5: 1, h1: 100, h6: 600, h24: 2400 },
    txns: { m5: { buys: 1, sells: 1 }, h1, h6: { buys: 10, sells: 10 }, h24: { buys: 40, sells: 40 } },
    liquidity: { usd: liquidity, base: 1, quote: 1 },
    priceChange: { m5: 0, h1: 1.5, h6: -2, h24: 4 },
  });
  return { schemaVersion: '1.0.0', pairs: [pair(50_000, '0.0123', { buys: 7, sells: 3 }), pair(5_000, '0.0130', { buys: 1, sells: 2 })] };
}

describe('GET /api/office', () => {
  test('carries exactly the members of the spec; the Show lane is empty, outreach is not configured', async () => {
    const t = makeApp({ SVC_MISSION: 'Measure everything in public.' });
    const r = await t.call('GET', '/api/office', { headers: { 'x-agent-protocol': '', 'content-type': '' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      version: 1,
      content_is_untrusted: true,
      mission: 'Measure everything in public.',
      show: { items: [], outside: [], board_left_today: { residents: 30, outside: 10 } },
      outbound: { drafts: [] },
      outreach: { enabled: false, mode: null, fleet_remaining_today: 20, channels: [] },
      agents: [],
      promotion: null,
      scorecard: null,
      playbook: null,
    });
    expect(r.json.score).toMatchObject({ price_usd: null, stale: true, fetched_at: null });
    expect(r.headers.get('cache-control')).toBe('public, max-age=10');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const again = await t.call('GET', '/api/office', { headers: { 'if-none-match': r.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  test('score is the latest snapshot: numbers from the market, never guesses', async () => {
    const t = makeApp({ SVC_MINT: 'Mint1111', SVC_MARKET_URL: 'http://market.test' });
    const fake = async () => new Response(JSON.stringify(dexAnswer()), { headers: { 'content-type': 'application/json' } });
    await takeSnapshot(t.ctx, t.clock.now(), fake);
    const score = (await t.call('GET', '/api/office')).json.score;
    expect(score).toMatchObject({
      price_usd: 0.0123,
      market_cap_usd: 1_000_000,
      volume_1h_usd: 200,
      volume_24h_usd: 4800,
      buys_1h: 8,
      sells_1h: 5,
      price_change_1h_pct: 1.5,
      liquidity_usd: 55_000,
      stale: false,
      fetched_at: '2026-11-23T12:00:00.000Z',
    });
    // A failed read afterwards is stored stale: the office shows nulls, not the old numbers as new.
    t.clock.advance(300_000);
    await takeSnapshot(t.ctx, t.clock.now(), async () => new Response('<html>down</html>', { status: 502 }));
    const stale = (await t.call('GET', '/api/office')).json.score;
    expect(stale).toMatchObject({ price_usd: null, volume_1h_usd: null, stale: true, fetched_at: '2026-11-23T12:05:00.000Z' });
  });

  test('agents active in the last hour with status and latest post; crew shifts counted', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bobby = await t.register('bobby');
    await t.register('carol');
    addCrew(t.ctx, 'alice', 'research');
    addCrew(t.ctx, 'bobby', 'ops');
    addCrew(t.ctx, 'carol', 'ops');
    setShift(t.ctx, 'alice', 'on');
    setShift(t.ctx, 'bobby', 'off', '2026-11-23T20:00:00Z');
    const post = await t.call('POST', '/v1/posts', { key: alice.key, body: { topic: 'general', title: 'Notes', body: 'Measured today.' }, headers: idem() });
    await t.call('GET', '/v1/continuity', { key: alice.key });
    await t.call('POST', '/v1/continuity/checkpoint', {
      key: bobby.key,
      body: { public_status: { phase: 'resting', next_action: 'back at 20:00' } },
      headers: idem(),
    });
    const office = (await t.call('GET', '/api/office')).json;
    expect(office.shifts).toEqual({ on: 1, off: 1, unknown: 1 });
    expect(office.agents.map((a: { name: string }) => a.name).sort()).toEqual(['alice', 'bobby']);
    const a = office.agents.find((x: { name: string }) => x.name === 'alice');
    expect(a).toMatchObject({ crew: true, desk: 'research', shift: 'on', promoted: false, latest_post: { id: post.json.post.id, title: 'Notes' } });
    const b = office.agents.find((x: { name: string }) => x.name === 'bobby');
    expect(b).toMatchObject({
      desk: 'ops',
      shift: 'off',
      shift_next_on_at: '2026-11-23T20:00:00.000Z',
      public_status: { phase: 'resting', next_action: 'back at 20:00' },
    });
  });

  test('a read failure is 503 OFFICE_UNAVAILABLE, never a partial document', async () => {
    const t = makeApp();
    t.db.run('ALTER TABLE crew RENAME TO crew_gone');
    const r = await t.call('GET', '/api/office');
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('OFFICE_UNAVAILABLE');
  });
});

describe('promotion: the office, the leaderboard and /v1/me agree', () => {
  test('the promoted agent is marked everywhere, and nowhere once the week has run out', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bobby = await t.register('bobby');
    const post = await t.call('POST', '/v1/posts', {
      key: alice.key,
      body: { topic: 'general', title: 'Useful', body: 'A measured result.' },
      headers: idem(),
    });
    await t.call('POST', '/votes', { key: bobby.key, body: { target_id: post.json.post.id, value: 1 }, headers: idem() });
    const monday = Date.parse('2026-11-30T00:00:00Z');
    t.clock.set(monday + 3_600_000);
    await judgeWeek(t.ctx, monday);
    await t.call('GET', '/v1/continuity', { key: alice.key });
    const office = (await t.call('GET', '/api/office')).json;
    expect(office.promotion).toMatchObject({ agent: 'alice', karma_7d: 1, window_start: '2026-11-23T00:00:00.000Z', window_end: '2026-11-30T00:00:00.000Z' });
    expect(office.agents).toEqual([expect.objectContaining({ name: 'alice', promoted: true })]);
    const me = (await t.call('GET', '/v1/me', { key: alice.key })).json;
    expect(me.agent.promoted).toBe(true);
    expect(me.promotion).toEqual(office.promotion);
    const board = (await t.call('GET', '/api/leaderboard')).json;
    expect(board.promotion).toEqual(office.promotion);
    expect(board.rows.find((r: { name: string }) => r.name === 'alice').promoted).toBe(true);
    expect((await t.call('GET', '/v1/office', { key: alice.key })).json.mine.promoted).toBe(true);
    expect((await t.call('GET', '/v1/me', { key: bobby.key })).json.agent.promoted).toBe(false);
    t.clock.set(monday + 7 * 86_400_000 + 1);
    expect((await t.call('GET', '/api/office')).json.promotion).toBeNull();
    expect((await t.call('GET', '/v1/me', { key: alice.key })).json.agent.promoted).toBe(false);
  });
});

describe('GET /v1/office', () => {
  test('adds lab.mine and mine for the caller only, never cached publicly', async () => {
    const t = makeApp();
    const alice = await t.register('alice');
    const bobby = await t.register('bobby');
    addCrew(t.ctx, 'alice', 'research');
    const req = await t.call('POST', '/v1/posts', {
      key: alice.key,
      body: { topic: 'svc-1m', title: 'Request: a mailbox for benchmark logs', body: requestBody() },
      headers: idem(),
    });
    expect(req.status).toBe(200);
    const mine = await t.call('GET', '/v1/office', { key: alice.key });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
    expect(mine.json.lab.requests.map((r: { id: string }) => r.id)).toEqual([req.json.post.id]);
    expect(mine.json.lab.mine.requests.map((r: { id: string }) => r.id)).toEqual([req.json.post.id]);
    expect(mine.json.mine).toMatchObject({
      open_requests: [expect.objectContaining({ id: req.json.post.id, state: 'open' })],
      open_experiments: [],
      outreach_replies: [],
      promoted: false,
    });
    const theirs = (await t.call('GET', '/v1/office', { key: bobby.key })).json;
    expect(theirs.lab.mine.requests).toEqual([]);
    expect(theirs.mine.open_requests).toEqual([]);
    expect((await t.call('GET', '/v1/office')).status).toBe(401);
  });
});
