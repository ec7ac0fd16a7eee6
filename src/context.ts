// What every domain function, schedule and admin command is given (no globals beyond it), and what
// a domain hands the composition root (src/compose.ts). This floor names no domain: each member of
// Parts is declared by the module that uses it (declaration merging), and the root fills them.
import type { AnyElysia } from 'elysia';
import type { Clock } from './clock.ts';
import type { Config, Source } from './config.ts';
import type { Db } from './db/open.ts';
import { EventBus } from './events/bus.ts';
import { type CodeInfo, type CodeTable, installCodes } from './http/errors.ts';
import { RateLimiter } from './http/rate-limit.ts';

/**
 * The service's parts as the root gathered them: the one codes table here; the board's post
 * checks, the lookup's publication kinds, the scheduler's jobs, the key resolver and the page for
 * a missing address are declared beside the code that runs them
 * (`declare module '…/context.ts' { interface Parts { … } }`).
 */
export interface Parts {
  /** Every error code the service answers, assembled from the modules' tables. */
  codes: CodeTable;
}

export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  limiters: {
    register: RateLimiter; // registrations per client address per hour
    publicReads: RateLimiter; // public reads per client address per minute
  };
  events: EventBus; // write paths publish after commit; waits subscribe
  parts: Parts; // gathered by src/compose.ts
}

/** A plugin of routes; `app` is the whole app, for the routes that dispatch into it (mcp) or describe it (docs). */
export type RoutesOf = (ctx: AppContext, app: () => AnyElysia) => AnyElysia;

/**
 * What one domain plugs into the service: its routes, its error codes, its settings section, and
 * any parts it adds (post checks, publication kinds, jobs). src/compose.ts lists the domains, one
 * line each; nothing else names them.
 */
export interface Domain {
  name: string;
  routes?: RoutesOf;
  codes?: Readonly<Record<string, CodeInfo>>;
  /** Its Config section: the key it declared into DomainSettings and its loader. */
  settings?: { key: string; load(src: Source): unknown };
  parts?: Partial<Omit<Parts, 'codes'>>;
}

export function createContext(config: Config, db: Db, clock: Clock, parts: Parts): AppContext {
  installCodes(parts.codes);
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
