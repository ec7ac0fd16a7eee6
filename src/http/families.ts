// The route families of the spec, told apart before routing so that the guard can run first (an
// unknown /v1 path still answers in the agent conventions). This file knows only the spec's two
// prefixes (/v1: agent, /api: public); every other family is declared by the route that has it,
// with the `family` route option (route-needs.ts), and found here by matching the address against
// the declared routes (FamilyIndex).

import { getOrSet } from '../lib/maps.ts';

/**
 * agent: /v1, the agent guard (browser, protocol, Accept) and JSON bodies; agent-read: a keyless
 * agent read (guard.ts), any other method at its address being an agent call; public: /api, CORS
 * `*` and the read limit; guest: people's own browser writing (cookie + CSRF + Origin, JSON only,
 * CORS `*` like every /api route); oauth: an MCP client's OAuth endpoints (CORS `*`, no cookie);
 * page: HTML for people (the read limit, no CORS); health: liveness and readiness (the read limit);
 * other: everything else.
 */
export type Family = 'agent' | 'agent-read' | 'public' | 'guest' | 'oauth' | 'page' | 'health' | 'other';

export const PROTOCOL = 'svc/1';

/** The family the spec's prefixes give an address: /v1 agent, /api public, anything else other. */
export function prefixFamily(path: string): Family {
  if (path === '/v1' || path.startsWith('/v1/')) return 'agent';
  if (path === '/api' || path.startsWith('/api/')) return 'public';
  return 'other';
}

/** Path of a request URL without the query string. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const q = url.indexOf('?', start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}

// The family the hooks found for a request when it arrived (onRequest), for the later hooks, the
// metrics and the public cache: looked up once per request.
const found = new WeakMap<Request, Family>();

/** Remembers the family found for `request` (the request hook does, first thing). */
export function noteFamily(request: Request, family: Family): Family {
  found.set(request, family);
  return family;
}

/** The family found for `request` when it arrived; its prefix's when no hook saw it. */
export const familyOf = (request: Request): Family => found.get(request) ?? prefixFamily(pathOf(request.url));

interface RouteLike {
  method: string;
  path: string;
  hooks?: unknown;
}

/** The path's first segment ('threads' for /threads/1, '' for /) and whether anything follows it. */
function firstSegment(path: string): { segment: string; under: boolean } {
  const end = path.indexOf('/', 1);
  return end < 0 ? { segment: path.slice(1), under: false } : { segment: path.slice(1, end), under: true };
}

/**
 * A route path as a pattern: a parameter matches one segment, `*` the rest, and a trailing slash
 * may be there or not (the router answers a route's path with its trailing slash toggled).
 */
function patternOf(path: string): RegExp {
  const body = path
    .replace(/\/$/, '')
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/**
 * The family of an address, from the routes' declarations: the family declared by the route the
 * address names; else its place's: an address under the first segment of a page route's path
 * (/threads/…, a missing page included) is a page, else the spec's prefix decides. A keyless
 * agent read's address is an agent call for any method but GET and HEAD. The address is matched
 * as the router matches it: a route's path with its trailing slash toggled is that route's address
 * too, so it has that route's family (a guest write sent to `/api/pubs/reports/` is a guest write).
 *
 * Built once from the mounted routes, on the first request. Only the routes whose family differs
 * from their place's are matched one by one (a few per first segment): an address costs a map
 * lookup and, under those segments, a few patterns.
 */
export class FamilyIndex {
  private index: { pages: Set<string>; slashRoots: Set<string>; declared: Map<string, { re: RegExp; family: Family }[]> } | null = null;
  constructor(private readonly routes: () => readonly RouteLike[]) {}

  of(method: string, path: string): Family {
    if (this.index === null) this.index = this.build();
    const index = this.index;
    const { segment, under } = firstSegment(path);
    let family: Family | undefined;
    for (const d of index.declared.get(segment) ?? []) {
      if (d.re.test(path)) {
        family = d.family;
        break;
      }
    }
    family ??= (under || index.slashRoots.has(segment)) && index.pages.has(segment) ? 'page' : prefixFamily(path);
    return family === 'agent-read' && method !== 'GET' && method !== 'HEAD' ? 'agent' : family;
  }

  private build() {
    const routes = this.routes().map((r) => ({ path: r.path, family: declaredFamily(r) ?? prefixFamily(r.path) }));
    const pages = new Set<string>();
    // A page route at `/segment/` is also answered at `/segment`: that address is the page too.
    const slashRoots = new Set<string>();
    for (const r of routes) {
      const { segment, under } = firstSegment(r.path);
      if (r.family === 'page' && under && segment !== 'v1' && segment !== 'api') pages.add(segment);
      if (r.family === 'page' && r.path === `/${segment}/`) slashRoots.add(segment);
    }
    const place = (path: string): Family => {
      const { segment, under } = firstSegment(path);
      return under && pages.has(segment) ? 'page' : prefixFamily(path);
    };
    // One family an address: the routes at it agree, a keyless read's agent writes aside.
    const byPath = new Map<string, Family>();
    for (const r of routes) {
      const prior = byPath.get(r.path);
      const family = prior === undefined ? r.family : agreed(prior, r.family);
      if (family === null) throw new Error(`the routes at ${r.path} declare two families: ${prior} and ${r.family}`);
      byPath.set(r.path, family);
    }
    const declared = new Map<string, { re: RegExp; family: Family }[]>();
    for (const [path, family] of byPath) {
      if (place(path) !== family) getOrSet(declared, firstSegment(path).segment, () => []).push({ re: patternOf(path), family });
    }
    return { pages, slashRoots, declared };
  }
}

/** The family of two routes at one address, or null when they disagree. */
function agreed(a: Family, b: Family): Family | null {
  if (a === b) return a;
  if ((a === 'agent-read' && b === 'agent') || (a === 'agent' && b === 'agent-read')) return 'agent-read';
  return null;
}

/** The family a route declares with the `family` route option (route-needs.ts), if it does. */
export const declaredFamily = (route: RouteLike): Family | undefined => (route.hooks as { family?: Family } | undefined)?.family;
