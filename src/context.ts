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

/**
 * The worker pools (src/workers/pool.ts) slow or hostile work runs in, by name. Each member is
 * declared beside the code that sends it jobs; the composition root builds them from what the
 * domains hand over (Domain.workers). Threads belong to the process: one set serves every context.
 */
// biome-ignore lint/suspicious/noEmptyInterface: its members are declared by the modules that use them
export interface Workers {}

/**
 * How the service reaches outside the process (the mail relay, the fetchers' resolver and extra
 * CA, DNS), by name: the system's as the domains build them (Domain.outbound), or a test's own.
 * Each member is declared beside the code that uses it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: its members are declared by the modules that use them
export interface Outbound {}

/** What a context reaches beyond its own thread with, built by the root (src/compose.ts). */
export interface Reach {
  workers: Workers;
  outbound: Outbound;
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
  workers: Workers; // built by src/compose.ts, shared by the process's contexts
  outbound: Outbound; // built by src/compose.ts
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
  /** How to build its worker pools (once per process; a pool starts no thread before its first job). */
  workers?: { [K in keyof Workers]?: (config: Config) => Workers[K] };
  /** How to build its outbound adapters (the system's). */
  outbound?: { [K in keyof Outbound]?: (config: Config) => Outbound[K] };
}

/**
 * The seed an Elysia plugin of this context is declared with: one small number per context. Elysia
 * tells two uses of a plugin apart by its name and seed, and stringifies the seed for every hook
 * and macro it adds: a seed of the whole context cost every start about 100 ms (JSON.stringify of
 * the context, once per hook).
 */
export function seedOf(ctx: AppContext): number {
  const known = seeds.get(ctx);
  if (known !== undefined) return known;
  const seed = ++lastSeed;
  seeds.set(ctx, seed);
  return seed;
}
const seeds = new WeakMap<AppContext, number>();
let lastSeed = 0;

export function createContext(config: Config, db: Db, clock: Clock, parts: Parts, reach: Reach): AppContext {
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
    workers: reach.workers,
    outbound: reach.outbound,
  };
}
