// All time in the service comes from a Clock so that tests can move it (quota resets, suspensions, schedules).
export interface Clock {
  now(): number; // milliseconds since the epoch
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; used by tests. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  set(ms: number | string): void {
    this.ms = typeof ms === 'string' ? Date.parse(ms) : ms;
  }
  advance(ms: number): void {
    this.ms += ms;
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
