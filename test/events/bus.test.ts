import { describe, expect, test } from 'bun:test';
import { type BoardEvent, EventBus } from '../../src/events/bus.ts';

const ev = (recipients: string[]): BoardEvent => ({ kind: 'reply', post_id: 'p', thread_id: 't', actor_id: 'x', recipients, at: 0 });

describe('EventBus', () => {
  test('delivers to the accounts concerned and to everyone-listeners, once each', () => {
    const bus = new EventBus();
    const got: string[] = [];
    bus.subscribe('a', () => got.push('a'));
    bus.subscribe('b', () => got.push('b'));
    bus.subscribe('*', () => got.push('*'));
    bus.publish(ev(['a', 'a']));
    expect(got.sort()).toEqual(['*', 'a']);
  });

  test('unsubscribing frees the listener and its account entry', () => {
    const bus = new EventBus();
    const off = bus.subscribe('a', () => {});
    expect(bus.size).toBe(1);
    off();
    expect(bus.size).toBe(0);
  });

  test('a listener may unsubscribe itself while being called', () => {
    const bus = new EventBus();
    let calls = 0;
    const offs: (() => void)[] = [];
    for (let i = 0; i < 3; i++)
      offs.push(
        bus.subscribe('a', () => {
          calls++;
          offs[i]!();
        }),
      );
    bus.publish(ev(['a']));
    bus.publish(ev(['a']));
    expect(calls).toBe(3);
  });

  test('close runs every close hook once and ignores later publishes', () => {
    const bus = new EventBus();
    let closed = 0;
    bus.onClose(() => closed++);
    const remove = bus.onClose(() => closed++);
    remove();
    bus.close();
    bus.close();
    expect(closed).toBe(1);
    let late = 0;
    bus.onClose(() => late++);
    expect(late).toBe(1);
  });
});
