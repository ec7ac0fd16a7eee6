// All time in the service comes from a Clock so that tests can move it (quota resets, suspensions,
// schedules, the timeout of a held wait).
export interface Clock {
  now(): number; // milliseconds since the epoch
  /** Calls `fn` once, when `ms` have passed on this clock; answers a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** A clock that only moves when told to; used by tests. Timers fire when it is moved past them. */
export class ManualClock implements Clock {
  private timers: { at: number; fn: () => void }[] = [];
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.ms + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  set(ms: number | string): void {
    this.ms = typeof ms === 'string' ? Date.parse(ms) : ms;
    this.fireDue();
  }
  advance(ms: number): void {
    this.ms += ms;
    this.fireDue();
  }
  /** Runs the timers now due, earliest first; each fires once. */
  private fireDue(): void {
    const due = this.timers.filter((t) => t.at <= this.ms).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((t) => t.at > this.ms);
    for (const t of due) t.fn();
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** The next UTC midnight strictly after `ms`: when daily allowances reset. */
export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/** The UTC day `ms` falls in, as YYYY-MM-DD: the key of daily quota rows. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A fresh UUIDv7 stamped with the context's clock, so ids sort like the times they carry. */
export const newId = (ctx: { clock: Clock }): string => Bun.randomUUIDv7('hex', ctx.clock.now());
