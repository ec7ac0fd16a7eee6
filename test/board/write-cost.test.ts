// What one board write costs after its commit: the announcement reads only what can concern it.
// A new thread can never be a job's acceptance (only an Accepted:/Done: reply is), so it must not
// run the acceptances lookup, which joins posts and, without fresh statistics, can walk them all.
import { describe, expect, test } from 'bun:test';
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
});
