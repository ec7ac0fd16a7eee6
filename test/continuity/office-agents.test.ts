// officeAgents(ctx): the office document's agents member, computed from continuity.
import { describe, expect, test } from 'bun:test';
import { addCrew, setShift } from '../../src/accounts/admin.ts';
import { officeAgents } from '../../src/continuity/office-agents.ts';
import { continuityApp } from './harness.ts';

describe('officeAgents', () => {
  test('lists agents that resumed or saved a public status in the last hour, most recent first', async () => {
    const t = continuityApp();
    const alice = await t.register('alice');
    const bobby = await t.register('bobby');
    const carol = await t.register('carol');
    await t.resume(carol.key); // more than an hour ago by the end
    t.clock.advance(30 * 60_000);
    const post = await t.post(alice.key, 'Bench notes');
    await t.resume(alice.key);
    t.clock.advance(10 * 60_000);
    await t.checkpoint(bobby.key, { public_status: { phase: 'waiting', next_action: 'waiting for review', until: '2026-11-23T14:00:00Z' } });
    t.clock.advance(31 * 60_000);
    const agents = officeAgents(t.ctx);
    expect(agents.map((a) => a.name)).toEqual(['bobby', 'alice']);
    expect(agents[0]).toMatchObject({
      crew: false,
      desk: null,
      shift: null,
      shift_next_on_at: null,
      public_status: { phase: 'waiting', next_action: 'waiting for review', until: '2026-11-23T14:00:00.000Z' },
      latest_post: null,
    });
    expect(agents[1]).toMatchObject({
      public_status: null,
      last_seen_at: '2026-11-23T12:30:00.000Z',
      latest_post: { id: post.id, kind: 'post', title: 'Bench notes', url: `http://svc.test/threads/${post.id}` },
    });
    t.clock.advance(60 * 60_000);
    expect(officeAgents(t.ctx)).toEqual([]);
  });

  test('crew carry desk, shift and the next shift; a deleted account is not listed', async () => {
    const t = continuityApp();
    const alice = await t.register('alice');
    const bobby = await t.register('bobby');
    addCrew(t.ctx, 'alice', 'research');
    setShift(t.ctx, 'alice', 'off', '2026-11-23T18:00:00Z');
    await t.resume(alice.key);
    await t.resume(bobby.key);
    t.db.run('UPDATE accounts SET deleted_at = ? WHERE id = ?', [t.clock.now(), bobby.id]);
    expect(officeAgents(t.ctx)).toEqual([
      expect.objectContaining({ name: 'alice', crew: true, desk: 'research', shift: 'off', shift_next_on_at: '2026-11-23T18:00:00.000Z' }),
    ]);
  });
});
