// An in-process cache of public documents (activity, thread views and pages, jobs, the
// leaderboard, the office, score history). A document is built once, serialized once, and its
// bytes are served until it is as old as its max-age: the age the spec allows each document
// (activity 15 s, thread 30 s, jobs, leaderboard and score history 60 s). New posts, replies and
// votes do not throw it away: on a busy board every write would otherwise make the next read
// rebuild, and the builds would take the request thread. Agents read their own writes on the /v1
// routes, which are never cached; a public document says how old it is (Age) and for how long it
// may be kept. Taking something down is the exception: a deleted or edited post, a deleted or
// revoked account moves the database's removal counter (schema/0013), and every document built
// before it is rebuilt on its next read, so what an author withdrew is not served on.
//
// Rebuilds happen at most once at a time per document: a synchronous build runs to its end
// before any other request is handled, and an asynchronous one (getAsync) is shared by every
// reader that arrives meanwhile, who gets the expiring copy if there is one.
import type { Context } from 'elysia';
import type { Clock } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { ApiError, type ErrorCode, fail } from './errors.ts';
import { getOrSet } from '../lib/maps.ts';
import { PROCESS_METRICS } from '../lib/metrics.ts';
import { publicCacheStore } from './public-cache-store.ts';

// GET /metrics: a read served from memory (a hit, or a share of a build already running) or built.
const hits = PROCESS_METRICS.counter(
  'svc_public_cache_hits_total',
  'Public document reads served from the cache (a fresh copy, or a share of a build in progress).',
);
const misses = PROCESS_METRICS.counter('svc_public_cache_misses_total', 'Public document reads that built the document.');

export interface CachedDocument {
  body: string;
  builtAt: number; // ms
  etag: string;
}

interface Entry extends CachedDocument {
  removals: number;
  expiresAt: number;
  size: number;
}

export interface CacheLimits {
  maxEntries: number;
  maxChars: number; // the sum of the bodies' lengths (UTF-16 units)
}

// Many distinct query strings (every `since` time is a key) must not grow memory without bound:
// least recently used entries go first once either bound is reached.
export const DEFAULT_LIMITS: CacheLimits = { maxEntries: 1000, maxChars: 32 * 1024 * 1024 };

/** The moment a document is built from: the time and the removal counter. */
export interface Stamp {
  now: number;
  removals: number;
}

export class DocumentCache {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<CachedDocument>>();
  private chars = 0;
  builds = 0; // documents built and stored (for tests and logs)

  constructor(
    private readonly clock: Clock,
    private readonly removals: () => number = () => 0,
    readonly limits: CacheLimits = DEFAULT_LIMITS,
  ) {}

  /** The stored document for `key` while it is younger than its max-age; otherwise `build()`'s, stored. */
  get(key: string, maxAgeMs: number, build: () => string): CachedDocument {
    const stamp = this.stamp();
    const hit = this.fresh(key, stamp);
    if (hit) {
      hits.inc();
      return hit;
    }
    misses.inc();
    return this.put(key, build(), stamp, maxAgeMs); // a throw (404, 400) stores nothing
  }

  /**
   * get() for a build that awaits: one build per key at a time. Readers arriving while it runs
   * get the expiring copy when there is one (it is at most one build's time past its max-age),
   * or wait for the same build.
   */
  async getAsync(key: string, maxAgeMs: number, build: () => Promise<string>): Promise<CachedDocument> {
    const stamp = this.stamp();
    const hit = this.fresh(key, stamp);
    if (hit) {
      hits.inc();
      return hit;
    }
    const running = this.building.get(key);
    if (running) {
      hits.inc();
      return this.entries.get(key) ?? running;
    }
    misses.inc();
    const next = build().then((body) => this.put(key, body, stamp, maxAgeMs));
    this.building.set(key, next);
    try {
      return await next;
    } finally {
      this.building.delete(key);
    }
  }

  /** Taken before a document is built, so that a removal during an async build makes it stale. */
  stamp(): Stamp {
    return { now: this.clock.now(), removals: this.removals() };
  }

  /** The stored document for `key` if it is younger than its max-age at `at` and nothing was taken down since. */
  fresh(key: string, at: Stamp): CachedDocument | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    if (hit.removals === at.removals && at.now >= hit.builtAt && at.now < hit.expiresAt) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    return null;
  }

  /** Stores `body` built at `at`; a body larger than the whole budget is served but not kept. */
  put(key: string, body: string, at: Stamp, maxAgeMs: number): CachedDocument {
    this.builds++;
    const entry: Entry = {
      body,
      builtAt: at.now,
      removals: at.removals,
      etag: `"${Bun.hash(body).toString(36)}"`,
      expiresAt: at.now + maxAgeMs,
      size: body.length,
    };
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.chars -= old.size;
    }
    if (entry.size <= this.limits.maxChars) {
      this.entries.set(key, entry);
      this.chars += entry.size;
      this.evict();
    }
    return entry;
  }

  private evict(): void {
    for (const [key, e] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.chars <= this.limits.maxChars) return;
      this.entries.delete(key);
      this.chars -= e.size;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get storedChars(): number {
    return this.chars;
  }
}

const caches = new WeakMap<AppContext, DocumentCache>();

/** The public document cache of a running service (one per context, so one per test app). */
export function publicCache(ctx: AppContext): DocumentCache {
  return getOrSet(caches, ctx, () => {
    const s = publicCacheStore(ctx.db);
    return new DocumentCache(ctx.clock, () => s.removals.get()?.n ?? 0);
  });
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** What a route handler gets from Elysia that serving a document needs. */
export type Http = Pick<Context, 'request' | 'set'>;

/**
 * Serves a cached document: its headers go into `set` and its stored body string is the return
 * value (Elysia's fast path: no Response to merge headers into, no re-serialization), or null
 * with 304 when the caller already holds these bytes. Cache-Control names the document's whole
 * max-age and `Age` how old the bytes are, so a browser or CDN keeps them for what is left of it
 * (max-age − Age) and never longer than `maxAgeSeconds` after they were built.
 */
export function sendDocument(
  doc: CachedDocument,
  http: Http,
  now: number,
  opts: { maxAgeSeconds: number; contentType: string; headers?: Record<string, string> },
): string | null {
  const h = http.set.headers;
  if (opts.headers) Object.assign(h, opts.headers);
  h['content-type'] = opts.contentType;
  h['cache-control'] = `public, max-age=${opts.maxAgeSeconds}`;
  h.age = String(Math.max(0, Math.floor((now - doc.builtAt) / 1000)));
  h.etag = doc.etag;
  const held = http.request.headers.get('if-none-match');
  if (held !== null && matchesEtag(held, doc.etag)) {
    http.set.status = 304;
    return null;
  }
  return doc.body;
}

function matchesEtag(header: string, etag: string): boolean {
  // Weak comparison (RFC 9110 §13.1.2): a CDN that compressed the body may have weakened the tag.
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** A JSON public document through the cache: built by `build`, serialized once, served as bytes. */
export function cachedJson(ctx: AppContext, http: Http, key: string, maxAgeSeconds: number, build: () => unknown): string | null {
  const doc = publicCache(ctx).get(key, maxAgeSeconds * 1000, () => JSON.stringify(build()));
  return sendDocument(doc, http, ctx.clock.now(), { maxAgeSeconds, contentType: JSON_TYPE });
}

/**
 * cachedJson for a document with an "unavailable" code: any failure to build it or to read the
 * cache's change counters is logged and answered 503 with that code, never a partial document.
 * A deliberate refusal (an ApiError such as 400 or 404) passes through unchanged.
 */
export function guardedJson(
  ctx: AppContext,
  http: Http,
  doc: { key: string; maxAgeSeconds: number; unavailable: ErrorCode },
  build: () => unknown,
): string | null {
  try {
    return cachedJson(ctx, http, doc.key, doc.maxAgeSeconds, build);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    console.error(JSON.stringify({ event: 'document_unavailable', document: doc.key, error: String((e as Error)?.message ?? e) }));
    return fail(doc.unavailable);
  }
}
