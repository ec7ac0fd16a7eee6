// An in-process cache of public documents (activity, thread views and pages; later the office,
// leaderboard and score documents). A document is built once, serialized once, and its bytes are
// served until it is older than its max-age or the database has changed, whichever comes first.
//
// Invalidation without the write paths knowing about the cache: every entry is stamped with the
// database's change counters (`databaseVersion`), which move on every write of the server's own
// connection (the only writer of a server process) and on commits of any other connection
// (`svc admin` on the same data dir; seen within a second). A write thus makes the next read
// rebuild, and a read never serves what a write of the server has made untrue.
import type { Context } from 'elysia';
import type { Clock } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { ApiError, type ErrorCode, fail } from '../http/errors.ts';
import { publicStore } from './store.ts';
import { getOrSet } from '../lib/maps.ts';

export interface CachedDocument {
  body: string;
  builtAt: number; // ms
  etag: string;
}

interface Entry extends CachedDocument {
  own: number;
  other: number;
  expiresAt: number;
  size: number;
}

export type Version = { own: number; other: number };

export interface CacheLimits {
  maxEntries: number;
  maxChars: number; // the sum of the bodies' lengths (UTF-16 units)
}

// Many distinct query strings (every `since` time is a key) must not grow memory without bound:
// least recently used entries go first once either bound is reached.
export const DEFAULT_LIMITS: CacheLimits = { maxEntries: 1000, maxChars: 32 * 1024 * 1024 };

/** The moment a document is built from: the time and the database's change counters. */
export interface Stamp extends Version {
  now: number;
}

export class DocumentCache {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(
    private readonly clock: Clock,
    private readonly version: () => Version,
    readonly limits: CacheLimits = DEFAULT_LIMITS,
  ) {}

  /** The stored document for `key` while it is fresh; otherwise `build()`'s, stored. */
  get(key: string, maxAgeMs: number, build: () => string): CachedDocument {
    const stamp = this.stamp();
    return this.fresh(key, stamp) ?? this.put(key, build(), stamp, maxAgeMs); // a throw (404, 400) stores nothing
  }

  /** Taken before a document is built, so that a write during an async build makes it stale. */
  stamp(): Stamp {
    return { now: this.clock.now(), ...this.version() };
  }

  /** The stored document for `key` if no write happened since it was built and it is younger than its max-age. */
  fresh(key: string, at: Stamp): CachedDocument | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    this.entries.delete(key);
    if (hit.own === at.own && hit.other === at.other && at.now >= hit.builtAt && at.now < hit.expiresAt) {
      this.entries.set(key, hit);
      return hit;
    }
    this.chars -= hit.size;
    return null;
  }

  /** Stores `body` built at `at`; a body larger than the whole budget is served but not kept. */
  put(key: string, body: string, at: Stamp, maxAgeMs: number): CachedDocument {
    const entry: Entry = {
      body,
      builtAt: at.now,
      etag: `"${Bun.hash(body).toString(36)}"`,
      own: at.own,
      other: at.other,
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

/** How stale a commit of another connection may be seen (the server's own writes: at once). */
export const OTHER_WRITERS_CHECK_MS = 1000;

/**
 * The change counters of the service's database: this connection's total changes on every
 * read, the data version (commits of other connections) at most once per OTHER_WRITERS_CHECK_MS.
 */
export function databaseVersion(ctx: AppContext): () => Version {
  const s = publicStore(ctx.db);
  let other = 0;
  let checkedAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = ctx.clock.now();
    if (now - checkedAt >= OTHER_WRITERS_CHECK_MS || now < checkedAt) {
      other = s.dataVersion.get()!.n;
      checkedAt = now;
    }
    return { own: s.ownChanges.get()!.n, other };
  };
}

/** The public document cache of a running service (one per context, so one per test app). */
export function publicCache(ctx: AppContext): DocumentCache {
  return getOrSet(caches, ctx, () => new DocumentCache(ctx.clock, databaseVersion(ctx)));
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** What a route handler gets from Elysia that serving a document needs. */
export type Http = Pick<Context, 'request' | 'set'>;

/**
 * Serves a cached document: its headers go into `set` and its stored body string is the return
 * value (Elysia's fast path: no Response to merge headers into, no re-serialization), or null
 * with 304 when the caller already holds these bytes. `Age` says how old the bytes are, so a
 * browser or CDN adding its own max-age never serves them longer than `maxAgeSeconds` after
 * they were built.
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
