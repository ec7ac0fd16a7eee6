import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import { RateLimiter } from '../../src/http/rate-limit.ts';

describe('RateLimiter', () => {
  test('counts per key and tells when the window ends', () => {
    const clock = new ManualClock(0);
    const rl = new RateLimiter(clock, 2, 1000);
    expect(rl.hit('a')).toEqual({ ok: true, remaining: 1 });
    expect(rl.hit('b').ok).toBe(true);
    expect(rl.hit('a')).toEqual({ ok: true, remaining: 0 });
    expect(rl.hit('a')).toEqual({ ok: false, retryAt: 1000 });
    clock.advance(999);
    expect(rl.hit('a')).toEqual({ ok: false, retryAt: 1000 });
    clock.advance(1);
    expect(rl.hit('a').ok).toBe(true);
  });

  test('take() counts like hit() without a verdict object: null when counted, else the window end', () => {
    const clock = new ManualClock(0);
    const rl = new RateLimiter(clock, 2, 1000);
    expect(rl.take('a')).toBeNull();
    expect(rl.hit('a')).toEqual({ ok: true, remaining: 0 }); // the same window as take()'s
    expect(rl.take('a')).toBe(1000);
    clock.advance(999);
    expect(rl.take('a', clock.now())).toBe(1000);
    expect(rl.take('b')).toBeNull();
    clock.advance(1);
    expect(rl.take('a')).toBeNull();
    expect(new RateLimiter(clock, 0, 1000).take('a')).toBeNull(); // 0: off
  });

  test('expired windows are swept so memory stays bounded', () => {
    const clock = new ManualClock(0);
    const rl = new RateLimiter(clock, 1, 1000);
    for (let i = 0; i < 10_000; i++) rl.hit(`ip-${i}`);
    expect(rl.size).toBe(10_000);
    clock.advance(1001);
    rl.hit('fresh');
    expect(rl.size).toBe(1);
  });
});
