import type { Clock } from './clock.ts';
import { type Parts, serviceParts } from './compose.ts';
import type { Config } from './config.ts';
import type { Db } from './db/open.ts';
import { EventBus } from './events/bus.ts';
import { RateLimiter } from './http/rate-limit.ts';

/** What every domain plugin, schedule and admin command is given: no globals beyond this. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  limiters: {
    register: RateLimiter; // registrations per client address per hour
    publicReads: RateLimiter; // public reads per client address per minute
  };
  events: EventBus; // write paths publish after commit; waits subscribe
  parts: Parts; // post checks, publication kinds and scheduled jobs (src/compose.ts)
}

export function createContext(config: Config, db: Db, clock: Clock, parts: Parts = serviceParts()): AppContext {
  return {
    config,
    db,
    clock,
    limiters: {
      register: new RateLimiter(clock, config.registerPerHour, 3_600_000),
      publicReads: new RateLimiter(clock, config.publicReadsPerMinute, 60_000),
    },
    events: new EventBus(),
    parts,
  };
}
