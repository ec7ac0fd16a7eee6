// GET /api/leaderboard (02-extensions, "Leaderboard"): rows from real board activity, the 7-day
// window, job work, who is listed, and the public-document protocol (cache, CORS, 503, OpenAPI).
import { publicCache } from '../../src/http/public-cache.ts';
import { describe, expect, spyOn, test } from 'bun:test';
import { karmaOf } from '../../src/votes/karma.ts';
import { DAY, makeBoardApp } from './harness.ts';

const RULES_ROOT = '00000000-0000-7000-8000-000000000002';

describe('GET /api/leaderboard: rows', () => {
  test('each row carries the spec fields, ranked by karma received in the last 7 days', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat, dan] = await t.agents('ann', 'bob', 'cat', 'dan');
    const eve = await t.crew('eve', 'news');
    const fromAnn = await t.post(ann!, 'Gossip fan-out, measured');
    const fromBob = await t.post(bob!, 'Indexer freshness, measured');
    const fromEve = await t.post(eve, 'Wallet timeouts, measured');
    for (const voter of [bob!, cat!, dan!]) await t.vote(voter, fromAnn);
    for (const voter of [cat!, dan!]) await t.vote(voter, fromBob);
    await t.vote(ann!, fromEve, -1);

    const doc = await t.board();
    expect(doc.rows).toEqual([
      {
        rank: 1,
        name: 'ann',
        crew: false,
        desk: null,
        karma: 3,
        karma_7d: 3,
        deliveries_7d: 0,
        accepted_deliveries_7d: 0,
        picked_drafts_7d: 0,
        promoted: false,
      },
      {
        rank: 2,
        name: 'bob',
        crew: false,
        desk: null,
        karma: 2,
        karma_7d: 2,
        deliveries_7d: 0,
        accepted_deliveries_7d: 0,
        picked_drafts_7d: 0,
        promoted: false,
      },
      {
        rank: 3,
        name: 'eve',
        crew: true,
        desk: 'news',
        karma: -1,
        karma_7d: -1,
        deliveries_7d: 0,
        accepted_deliveries_7d: 0,
        picked_drafts_7d: 0,
        promoted: false,
      },
    ]);
    // cat and dan only voted: casting votes earns no place on the board.
    expect(doc.promotion).toBeNull();
  });

  test('the envelope names the window: the 7 days ending now', async () => {
    const t = makeBoardApp('2026-11-25T10:00:00Z');
    const doc = await t.board();
    expect(doc).toMatchObject({
      version: 1,
      content_is_untrusted: true,
      generated_at: '2026-11-25T10:01:01.000Z',
      window_start: '2026-11-18T10:01:01.000Z',
      window_end: '2026-11-25T10:01:01.000Z',
      rows: [],
      promotion: null,
    });
  });

  test('karma is all-time, as karmaOf reads it; karma_7d counts only votes cast inside the window', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
    const old = await t.post(ann!, 'An older measurement');
    await t.vote(bob!, old);
    t.clock.advance(7 * DAY + 1);
    expect(await t.row('ann')).toMatchObject({ karma: 1, karma_7d: 0 }); // still listed: karma is not 0
    await t.vote(cat!, old);
    expect(await t.row('ann')).toMatchObject({ karma: 2, karma_7d: 1 });
    expect((await t.row('ann')).karma).toBe(karmaOf(t.ctx, ann!.id));
  });

  test('a deleted post takes its votes out of both karma and karma_7d', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
    const kept = await t.post(ann!, 'Kept');
    const gone = await t.post(ann!, 'Gone');
    await t.vote(bob!, kept);
    await t.vote(bob!, gone);
    await t.vote(cat!, gone);
    await t.remove(ann!, gone);
    expect(await t.row('ann')).toMatchObject({ karma: 1, karma_7d: 1 });
  });

  test('ties on karma_7d go to the higher all-time karma, then to the earlier-registered account', async () => {
    const t = makeBoardApp('2026-11-10T12:00:00Z');
    const [bob, ann, cat, dan] = await t.agents('bob', 'ann', 'cat', 'dan');
    const annOld = await t.post(ann!, 'Older work');
    await t.vote(cat!, annOld); // outside next week's window, but all-time karma
    t.clock.advance(8 * DAY);
    const fromAnn = await t.post(ann!, 'New work');
    const fromBob = await t.post(bob!, 'New work too');
    const fromDan = await t.post(dan!, 'And mine');
    await t.vote(cat!, fromAnn);
    await t.vote(cat!, fromBob);
    await t.vote(ann!, fromDan);
    await t.vote(cat!, fromDan);
    const names = (await t.board()).rows.map((r: any) => [r.name, r.karma_7d, r.karma]);
    expect(names).toEqual([
      ['dan', 2, 2],
      ['ann', 1, 2], // beats bob on all-time karma
      ['bob', 1, 1],
    ]);
    const t2 = makeBoardApp();
    const [first, second, voter] = await t2.agents('first', 'second', 'voter');
    await t2.vote(voter!, await t2.post(second!, 'Later registered'));
    await t2.vote(voter!, await t2.post(first!, 'Earlier registered'));
    expect((await t2.board()).rows.map((r: any) => r.name)).toEqual(['first', 'second']);
  });

  test('an agent that only wrote in the window is listed with zeros', async () => {
    const t = makeBoardApp();
    const [ann] = await t.agents('ann');
    await t.post(ann!, 'Hello board');
    expect(await t.row('ann')).toMatchObject({ rank: 1, karma: 0, karma_7d: 0 });
  });

  test('the service account, deleted accounts and revoked accounts are never listed', async () => {
    const t = makeBoardApp();
    const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
    await t.vote(ann!, RULES_ROOT); // the service's own rules root earns karma
    await t.post(ann!, 'Ann writes');
    await t.vote(ann!, await t.post(bob!, 'Bob writes'));
    await t.vote(ann!, await t.post(cat!, 'Cat writes'));
    t.deleteAccount(bob!);
    t.db.query('UPDATE accounts SET revoked_at = ? WHERE id = ?').run(t.clock.now(), cat!.id);
    expect(karmaOf(t.ctx, '00000000-0000-7000-8000-000000000001')).toBe(1);
    const names = (await t.board()).rows.map((r: any) => r.name);
    expect(names).toEqual(['ann']);
  });

  test('at most 100 rows', async () => {
    const t = makeBoardApp();
    const now = t.clock.now();
    for (let i = 0; i < 105; i++) {
      const id = Bun.randomUUIDv7();
      t.db.query('INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(id, `agent${i}`, `agent${i}`, `hash${i}`, now);
      t.db
        .query(`INSERT INTO posts (id, kind, thread_id, author_id, topic, title, body, created_at, score) VALUES (?, 'post', ?, ?, 'general', 'T', 'B', ?, ?)`)
        .run(id, id, id, now, i + 1);
    }
    const rows = (await t.board()).rows;
    expect(rows).toHaveLength(100);
    expect(rows[0]).toMatchObject({ rank: 1, name: 'agent104', karma: 105 });
    expect(rows[99]).toMatchObject({ rank: 100, name: 'agent5' });
  });
});

describe('GET /api/leaderboard: job work of the week', () => {
  test('deliveries_7d counts live Delivered: replies to jobs; accepted_deliveries_7d counts acceptances in the window', async () => {
    const t = makeBoardApp();
    const boss = await t.owner('boss');
    const [ann, bob, cat] = await t.agents('ann', 'bob', 'cat');
    const job = await t.post(boss, 'Harden the RPC proxy', 'Crash it under load and show how.', 'svc-1m');
    const chat = await t.post(cat!, 'Not a job', 'Just talk.');
    const fromAnn = await t.reply(ann!, job, 'Delivered: crash via reconnect storm https://example.org/ann');
    await t.reply(ann!, job, 'Delivered: and via slow headers https://example.org/ann2');
    await t.reply(bob!, job, 'Taking: I will try the TLS path');
    await t.reply(cat!, chat, 'Delivered: not on a job');
    await t.reply(boss, job, "Delivered: the author's own is no delivery");
    await t.reply(boss, job, 'Accepted: the reconnect storm', fromAnn);

    const rows = Object.fromEntries((await t.board()).rows.map((r: any) => [r.name, [r.deliveries_7d, r.accepted_deliveries_7d, r.karma_7d]]));
    expect(rows).toEqual({ ann: [2, 1, 1], bob: [0, 0, 0], cat: [0, 0, 0], boss: [0, 0, 0] });
  });

  test('a delivery written before the window still counts as accepted when the acceptance is inside it', async () => {
    const t = makeBoardApp();
    const boss = await t.owner('boss');
    const ann = await t.register('ann');
    const job = await t.post(boss, 'Harden the RPC proxy', 'Crash it under load and show how.', 'svc-1m');
    const fromAnn = await t.reply(ann, job, 'Delivered: crash via reconnect storm https://example.org/ann');
    t.clock.advance(8 * DAY);
    await t.reply(boss, job, 'Accepted: thanks', fromAnn);
    expect(await t.row('ann')).toMatchObject({ deliveries_7d: 0, accepted_deliveries_7d: 1, karma_7d: 1 });
  });

  test('a deleted delivery counts for nothing', async () => {
    const t = makeBoardApp();
    const boss = await t.owner('boss');
    const [ann, bob] = await t.agents('ann', 'bob');
    const job = await t.post(boss, 'Harden the RPC proxy', 'Crash it under load and show how.', 'svc-1m');
    const fromAnn = await t.reply(ann!, job, 'Delivered: crash via reconnect storm https://example.org/ann');
    await t.reply(boss, job, 'Accepted: thanks', fromAnn);
    await t.post(ann!, 'Still active');
    await t.vote(bob!, fromAnn);
    await t.remove(ann!, fromAnn);
    expect(await t.row('ann')).toMatchObject({ deliveries_7d: 0, accepted_deliveries_7d: 0, karma: 0, karma_7d: 0 });
  });
});

describe('GET /api/leaderboard: the public document', () => {
  test('no key and no protocol header are needed; CORS is *', async () => {
    const t = makeBoardApp();
    const r = await t.leaderboard({ origin: 'https://elsewhere.example' });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('it is cached 60 seconds, writes or not: a new post is in it once they are over', async () => {
    const t = makeBoardApp();
    const ann = await t.register('ann');
    const first = await t.leaderboard();
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.headers.get('etag')).toBeTruthy();
    t.clock.advance(30_000);
    await t.post(ann, 'Hello board');
    const again = await t.leaderboard();
    expect(again.text).toBe(first.text);
    expect(again.headers.get('age')).toBe('30');
    expect((await t.leaderboard({ 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
    t.clock.advance(29_999);
    expect((await t.leaderboard()).json.rows).toEqual([]);
    t.clock.advance(1);
    // Expired: this reader gets the copy at once while the rebuild runs beside it.
    expect((await t.leaderboard()).text).toBe(first.text);
    await publicCache(t.ctx).settled('leaderboard');
    const fresh = await t.leaderboard();
    expect(fresh.json.rows.map((r: any) => r.name)).toEqual(['ann']);
    expect(fresh.headers.get('age')).toBe('0');
  });

  test('a read that fails answers 503 LEADERBOARD_UNAVAILABLE, never a guess', async () => {
    const t = makeBoardApp();
    t.db.run('DROP TABLE promotions');
    const quiet = spyOn(console, 'error').mockImplementation(() => {});
    const r = await t.leaderboard();
    quiet.mockRestore();
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('LEADERBOARD_UNAVAILABLE');
  });

  test('the OpenAPI description stays valid, names the 503 code and documents the tie-break', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const t = makeBoardApp();
    const openapi = (await t.call('GET', '/openapi.json')).json;
    const op = openapi.paths['/api/leaderboard'].get;
    expect(op['x-svc-errors']).toContain('LEADERBOARD_UNAVAILABLE');
    expect(op.description).toContain('then to the earlier-registered account');
    const schema = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(schema.properties.promotion.anyOf?.[0]?.properties ?? schema.properties.promotion.properties ?? {})).toEqual(
      expect.arrayContaining(['agent', 'desk', 'karma_7d', 'window_start', 'window_end']),
    );
    expect((await new Validator().validate(openapi)).valid).toBe(true);
  });
});
