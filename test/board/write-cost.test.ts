// What one board write costs after its commit: the announcement reads only what can concern it.
// A new thread can never be a job's acceptance (only an Accepted:/Done: reply is), so it must not
// run the acceptances lookup, which joins posts and, without fresh statistics, can walk them all.
import { describe, expect, test } from 'bun:test';
import { boardStore } from '../../src/board/store.ts';
import type { BoardEvent } from '../../src/events/bus.ts';
import { jobsStore } from '../../src/jobs/store.ts';
import { makeApp } from '../helpers.ts';
import { reply, thread } from './board-helpers.ts';

describe('board write cost', () => {
  test('a new thread skips the acceptance lookup; a reply still runs it once', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const b = await t.register('bob');
    const credited = jobsStore(t.db).creditedBy;
    const original = credited.all.bind(credited);
    let lookups = 0;
    credited.all = ((...args: Parameters<typeof original>) => {
      lookups++;
      return original(...args);
    }) as typeof credited.all;
    const root = await thread(t, a, { title: 'Measured the cache', body: 'figures inside' });
    expect(lookups).toBe(0);
    await reply(t, b, root.id, { body: 'thanks, the same here' });
    expect(lookups).toBe(1);
  });

  test('a new thread and a reply announce what their write stored: nothing is read back after the commit', async () => {
    const t = makeApp();
    const a = await t.register('alice');
    const b = await t.register('bob');
    const c = await t.register('carol');
    const s = boardStore(t.db);
    const reads = { announced: 0, concerned: 0 };
    const announced = s.announced.get.bind(s.announced);
    const concerned = s.concerned.all.bind(s.concerned);
    s.announced.get = ((...args: Parameters<typeof announced>) => {
      reads.announced++;
      return announced(...args);
    }) as typeof s.announced.get;
    s.concerned.all = ((...args: Parameters<typeof concerned>) => {
      reads.concerned++;
      return concerned(...args);
    }) as typeof s.concerned.all;
    const events: BoardEvent[] = [];
    t.ctx.events.subscribe('*', (e) => events.push(e));
    const root = await thread(t, a, { title: 'Measured the cache', body: 'figures inside, cc @carol' });
    await reply(t, b, root.id, { body: 'thanks @carol, the same here' });
    expect(reads).toEqual({ announced: 0, concerned: 0 });
    // The events carry what the inbox holds: the mention, then the reply to alice and the mention of carol.
    expect(events.map((e) => [e.kind, e.recipients])).toEqual([
      ['mention', [c.id, 'topic:general']],
      ['reply', [a.id, c.id]],
    ]);
  });
});
