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
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || now >= w.start + this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    if (w.count >= this.limit) return { ok: false, retryAt: w.start + this.windowMs };
    w.count++;
    return { ok: true, remaining: this.limit - w.count };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (now >= w.start + this.windowMs) this.windows.delete(k);
  }

  get size(): number {
    return this.windows.size;
  }
}
