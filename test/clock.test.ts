// The clock's timers: what lets a test move a held wait to its timeout instead of sleeping.
import { describe, expect, test } from 'bun:test';
import { ManualClock, systemClock } from '../src/clock.ts';
import { until } from './until.ts';

const START = Date.parse('2026-11-23T12:00:00Z');

describe('ManualClock timers', () => {
  const moves: [string, (c: ManualClock) => void, string[]][] = [
    ['standing still fires nothing', () => {}, []],
    ['one millisecond short of the first fires nothing', (c) => c.advance(999), []],
    ['reaching the first fires it alone', (c) => c.advance(1000), ['1s']],
    ['passing both fires them earliest first', (c) => c.advance(5000), ['1s', '2s']],
    ['set() past both fires them too', (c) => c.set(START + 2000), ['1s', '2s']],
    ['set() to a time before both fires nothing', (c) => c.set(START - 1), []],
  ];
  for (const [name, move, fired] of moves) {
    test(name, () => {
      const c = new ManualClock(START);
      const seen: string[] = [];
      c.after(2000, () => seen.push('2s'));
      c.after(1000, () => seen.push('1s'));
      move(c);
      expect(seen).toEqual(fired);
    });
  }

  test('a timer fires once, and a cancelled one never', () => {
    const c = new ManualClock(START);
    const seen: string[] = [];
    c.after(10, () => seen.push('kept'));
    const cancel = c.after(10, () => seen.push('cancelled'));
    cancel();
    c.advance(10);
    c.advance(10);
    expect(seen).toEqual(['kept']);
  });

  test('a timer counts from when it was set, not from the clock start', () => {
    const c = new ManualClock(START);
    c.advance(500);
    const seen: number[] = [];
    c.after(1000, () => seen.push(c.now() - START));
    c.advance(999);
    expect(seen).toEqual([]);
    c.advance(1);
    expect(seen).toEqual([1500]);
  });
});

describe('systemClock timers', () => {
  test('fire on real time, and a cancelled one does not', async () => {
    const seen: string[] = [];
    const cancel = systemClock.after(1, () => seen.push('cancelled'));
    cancel();
    systemClock.after(1, () => seen.push('kept'));
    await until('the 1 ms timer', () => seen.length > 0);
    await Bun.sleep(5);
    expect(seen).toEqual(['kept']);
  });
});
