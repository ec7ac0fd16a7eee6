// The composition root: the one place the service's domains are listed. Each domain hands over
// what it plugs in (src/<domain>/domain.ts: routes, error codes, settings section, post checks,
// publication kinds, jobs); this file gathers them into the Config, the one codes table and the
// Parts that createContext hands down, and src/app.ts mounts the routes in this order. Adding a
// domain is its own folder plus one line in DOMAINS.
import { ACCOUNTS } from './accounts/domain.ts';
import { ADMIN } from './admin/domain.ts';
import { BOARD } from './board/domain.ts';
import type { Clock } from './clock.ts';
import { COMMENTS } from './comments/domain.ts';
import { type Config, type DomainSettings, loadCoreConfig, type Source } from './config.ts';
import { CONTENT_CODES } from './content/codes.ts';
import { type AppContext, createContext, type Domain, type Outbound, type Parts, type Workers } from './context.ts';
import { CONTINUITY } from './continuity/domain.ts';
import type { Db } from './db/open.ts';
import { DOCS } from './docs/domain.ts';
import { EXT } from './ext/domain.ts';
import { HEALTH } from './health.ts';
import { HTTP_CODES } from './http/codes.ts';
import { assembleCodes } from './http/errors.ts';
import { INBOX } from './inbox/domain.ts';
import { JOBS } from './jobs/domain.ts';
import { LAB } from './lab/domain.ts';
import { LEADERBOARD } from './leaderboard/domain.ts';
import { MARKET } from './market/domain.ts';
import { MCP } from './mcp/domain.ts';
import { METRICS } from './metrics/domain.ts';
import { ME } from './me/domain.ts';
import { MODLOG } from './modlog/domain.ts';
import { OFFICE } from './office/domain.ts';
import { REPLICA } from './ops/replica.ts';
import { OUTREACH } from './outreach/domain.ts';
import { FEEDS } from './feeds/domain.ts';
import { PAGES } from './pages/domain.ts';
import { PINS } from './pins/domain.ts';
import { POLICY } from './policy/domain.ts';
import { PREVIEW } from './preview/domain.ts';
import { PUBLIC } from './public/domain.ts';
import { PUBS } from './pubs/domain.ts';
import { SCOREKEEPER } from './scorekeeper/domain.ts';
import { deferPostsIndexInBatches } from './search/deferred-index.ts';
import { SEARCH } from './search/domain.ts';
import { SHOW } from './show/domain.ts';
import { UPLOADS } from './uploads/domain.ts';
import { VOTES } from './votes/domain.ts';
import { boardReadsPool } from './workers/reads.ts';

/**
 * The service's domains, in the order their routes are mounted, their post checks run (lab, jobs,
 * show) and their jobs are listed (snapshot, scorecard, promotion, outreach retry).
 */
export const DOMAINS: readonly Domain[] = [
  HEALTH,
  ACCOUNTS,
  ME,
  BOARD,
  SEARCH,
  INBOX,
  VOTES,
  PINS,
  CONTINUITY,
  PUBLIC,
  MODLOG,
  LAB,
  JOBS,
  MARKET,
  SCOREKEEPER,
  LEADERBOARD,
  OFFICE,
  PAGES,
  POLICY,
  FEEDS,
  SHOW,
  EXT,
  PUBS,
  COMMENTS,
  UPLOADS,
  PREVIEW,
  OUTREACH,
  MCP,
  METRICS,
  DOCS,
  REPLICA,
  ADMIN,
];

/** The one codes table: the shared conventions', the content rules', then each domain's. */
export function serviceCodes(domains: readonly Domain[] = DOMAINS) {
  return assembleCodes([HTTP_CODES, CONTENT_CODES, ...domains.flatMap((d) => (d.codes ? [d.codes] : []))]);
}

type Gathered = Omit<Parts, 'codes'>;

/**
 * The parts every domain added, merged: lists in domain order, kinds by name, and the one-only
 * parts (the key resolver, the missing-page page) from exactly one domain. A name given twice, or
 * a part nobody gives, stops the start.
 */
function gatherParts(domains: readonly Domain[]): Gathered {
  const gathered: Record<string, unknown> = { postChecks: [], jobs: [], actions: [], publications: {} };
  for (const d of domains) {
    for (const [name, part] of Object.entries(d.parts ?? {})) {
      const have = gathered[name];
      if (Array.isArray(part)) gathered[name] = [...((have as unknown[]) ?? []), ...part];
      else if (typeof part === 'function') {
        if (have !== undefined) throw new Error(`part ${name} is given twice (domain ${d.name})`);
        gathered[name] = part;
      } else {
        const into = (have ?? {}) as Record<string, unknown>;
        for (const key of Object.keys(part as object)) if (key in into) throw new Error(`part ${name}.${key} is given twice (domain ${d.name})`);
        gathered[name] = { ...into, ...(part as object) };
      }
    }
  }
  for (const name of ['authenticate', 'notFoundPage']) if (!gathered[name]) throw new Error(`no domain gives the part ${name}`);
  return gathered as unknown as Gathered;
}

/** The service as it ships. A function, not a constant: nothing is built at import time. */
export function serviceParts(domains: readonly Domain[] = DOMAINS): Parts {
  return { ...gatherParts(domains), codes: serviceCodes(domains) };
}

/** The whole Config: the service-wide settings and each domain's section, frozen. */
export function loadConfig(env: Source = process.env, flags: Source = {}, domains: readonly Domain[] = DOMAINS): Config {
  const src: Source = { ...env, ...flags };
  const sections: Record<string, unknown> = {};
  for (const d of domains) if (d.settings) sections[d.settings.key] = d.settings.load(src);
  return Object.freeze({ ...loadCoreConfig(src), ...(sections as unknown as DomainSettings) });
}

/** Builds what the domains' `pick` gives (their worker pools or outbound adapters), by name; a name given twice stops the start. */
function built(domains: readonly Domain[], pick: (d: Domain) => object | undefined, config: Config): Record<string, unknown> {
  const made: Record<string, unknown> = {};
  for (const d of domains) {
    for (const [name, build] of Object.entries(pick(d) ?? {})) {
      if (name in made) throw new Error(`${name} is built by two domains (the second: ${d.name})`);
      made[name] = (build as (config: Config) => unknown)(config);
    }
  }
  return made;
}

// Worker threads belong to the process, not to one app: one set of pools, built with the first
// context (and its settings) and shared by every later one (tests build many). A pool starts its
// threads at its first job, so building them all costs nothing.
let processWorkers: Workers | undefined;

/** The process's worker pools: the shared floor's (board reads), then each domain's. */
export function serviceWorkers(config: Config): Workers {
  processWorkers ??= { boardReads: boardReadsPool(), ...built(DOMAINS, (d) => d.workers, config) } as unknown as Workers;
  return processWorkers;
}

/** The system's outbound adapters, fresh for each context (they hold no thread). */
export const serviceOutbound = (config: Config): Outbound => built(DOMAINS, (d) => d.outbound, config) as unknown as Outbound;

/** Pools and adapters a test gives a context in place of the service's (test/helpers.ts makeApp). */
export interface GivenReach {
  workers?: Partial<Workers>;
  outbound?: Partial<Outbound>;
}

/**
 * A context over the service's parts, pools and adapters; tests and benches may give their own
 * parts, and pools and adapters in `given`. The group commit's batches on `db` index their posts
 * once each (src/search/deferred-index.ts).
 */
export function serviceContext(config: Config, db: Db, clock: Clock, parts: Parts = serviceParts(), given: GivenReach = {}): AppContext {
  deferPostsIndexInBatches(db);
  return createContext(config, db, clock, parts, {
    workers: { ...serviceWorkers(config), ...given.workers },
    outbound: { ...serviceOutbound(config), ...given.outbound },
  });
}
