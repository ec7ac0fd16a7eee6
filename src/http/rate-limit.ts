import type { Clock } from '../clock.ts';

type LimitVerdict = { ok: true; remaining: number } | { ok: false; retryAt: number };

/**
 * A fixed-window counter per key (an account, a client address), reusable for any channel.
 * A refused caller is told when its window ends; asking earlier is refused again and does not
 * move that time. Memory stays bounded: expired windows are swept as keys arrive.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    readonly limit: number, // 0 turns the limiter off
    readonly windowMs: number,
  ) {}

  /** Counts one request of `key` at `now` (this clock's time when not given). */
  hit(key: string, now: number = this.clock.now()): LimitVerdict {
    if (this.limit <= 0) return { ok: true, remaining: Number.POSITIVE_INFINITY };
    const retryAt = this.take(key, now);
    return retryAt === null ? { ok: true, remaining: this.limit - this.windows.get(key)!.count } : { ok: false, retryAt };
  }

  /**
   * hit() without a verdict object (the hot path of cached reads calls it on every answer): null
   * when the request was counted, else the time its window ends (the caller is refused).
   */
  take(key: string, now: number = this.clock.now()): number | null {
    if (this.limit <= 0) return null;
    if (now - this.lastSweep >= this.windowMs) this.sweep(now);
    let w = this.windows.get(key);
    if (w === undefined || now >= w.start + this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    if (w.count >= this.limit) return w.start + this.windowMs;
    w.count++;
    return null;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (now >= w.start + this.windowMs) this.windows.delete(k);
  }

  get size(): number {
    return this.windows.size;
  }
}
