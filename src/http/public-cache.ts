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
// before any other request is handled, and an asynchronous one (getAsync, getStale) is shared by
// every reader that arrives meanwhile, who gets the expiring copy if there is one and nothing was
// taken down since it was built.
//
// Stable tags: a JSON document carries generated_at (and some carry other members derived from
// the build time, such as a window's start). A rebuild whose content, those stamps aside, equals
// the stored copy's keeps the stored bytes, generated_at and ETag, so that If-None-Match keeps
// answering 304 until something in the document really changed; Age then counts from the rebuild
// that confirmed the copy.
import type { Context } from 'elysia';
import type { Clock } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { type Coding, compressibleType, type Encoded, encodedBody, preferredCoding, varyWithEncoding } from './compress.ts';
import { encodedTag, matchesEtag } from './etag.ts';
import { ApiError, type ErrorCode, fail } from './errors.ts';
import { getOrSet } from '../lib/maps.ts';
import { PROCESS_METRICS } from '../lib/metrics.ts';
import { HotReads } from './hot-reads.ts';
import { publicCacheStore } from './public-cache-store.ts';
import { watchRemovals } from './removal-watch.ts';

// GET /metrics: a read served from memory (a hit, or a share of a build already running) or built.
const hitsTotal = PROCESS_METRICS.counter(
  'svc_public_cache_hits_total',
  'Public document reads served from the cache (a fresh copy, or a share of a build in progress).',
);
const misses = PROCESS_METRICS.counter('svc_public_cache_misses_total', 'Public document reads that built the document.');
// Bound once: every hot answer counts a hit.
const hits = hitsTotal.bind();

export interface CachedDocument {
  body: string;
  builtAt: number; // ms
  etag: string;
  /** The body's compressed bytes by coding, made on first demand (compress.ts). */
  encoded?: Encoded;
}

interface Entry extends CachedDocument {
  removals: number;
  expiresAt: number;
  size: number;
  content: bigint | number | undefined; // the hash of the content without its stamps (Built)
}

/**
 * What a build yields: the body, or a body with its content apart from the build-time stamps
 * (stableJson). A content equal to the stored copy's keeps the stored copy's bytes and tag, and
 * `body()` is not called.
 */
export type Built = string | { content: string; body: () => string };

interface Running {
  promise: Promise<CachedDocument>;
  removals: number;
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
  private readonly building = new Map<string, Running>();
  private chars = 0;
  private newest: string | undefined; // the key inserted last (the Map's last), if it is still there
  builds = 0; // documents built and stored (for tests and logs)
  /** The addresses routes served from this cache, answered again before routing (hot-reads.ts). */
  readonly hot = new HotReads((key, now) => {
    const doc = this.freshAt(key, now ?? this.clock.now(), this.removals());
    if (doc !== null) hits.inc();
    return doc;
  });

  constructor(
    private readonly clock: Clock,
    private readonly removals: () => number = () => 0,
    readonly limits: CacheLimits = DEFAULT_LIMITS,
  ) {}

  /** The stored document for `key` while it is younger than its max-age; otherwise `build()`'s, stored. */
  get(key: string, maxAgeMs: number, build: () => Built): CachedDocument {
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
   * get the expiring copy when there is one that no removal has made stale (it is at most one
   * build's time past its max-age), or wait for the same build. A build that started before the
   * latest removal is not shared: the reader starts one of its own.
   */
  async getAsync(key: string, maxAgeMs: number, build: () => Promise<Built>): Promise<CachedDocument> {
    const stamp = this.stamp();
    const hit = this.fresh(key, stamp);
    if (hit) {
      hits.inc();
      return hit;
    }
    const running = this.building.get(key);
    if (running && running.removals === stamp.removals) {
      hits.inc();
      const old = this.entries.get(key);
      return old && old.removals === stamp.removals ? old : running.promise;
    }
    misses.inc();
    return this.startBuild(key, maxAgeMs, stamp, build);
  }

  /**
   * Stale-while-revalidate: a fresh copy is served; a copy that expired less than `staleMs` ago,
   * with nothing taken down since it was built, is served at once while one build, started now
   * and shared, replaces it; otherwise the reader waits for that build. So a slow build delays
   * no reader once the document exists, and what an author withdrew is never served on.
   */
  getStale(key: string, maxAgeMs: number, staleMs: number, build: () => Promise<Built>): CachedDocument | Promise<CachedDocument> {
    const stamp = this.stamp();
    const hit = this.fresh(key, stamp);
    if (hit) {
      hits.inc();
      return hit;
    }
    const old = this.entries.get(key);
    const usable = old && old.removals === stamp.removals && stamp.now >= old.builtAt && stamp.now < old.expiresAt + staleMs ? old : undefined;
    const running = this.building.get(key);
    if (running && running.removals === stamp.removals) {
      hits.inc();
      return usable ?? running.promise;
    }
    if (!usable) {
      misses.inc();
      return this.startBuild(key, maxAgeMs, stamp, build);
    }
    hits.inc();
    // The reader has its copy; the build's failure is logged, and the next reader tries again.
    this.startBuild(key, maxAgeMs, stamp, build).catch((e) =>
      console.error(JSON.stringify({ event: 'document_rebuild_failed', document: key, error: String((e as Error)?.message ?? e) })),
    );
    return usable;
  }

  /**
   * Builds `key` ahead of its first reader (a cold document after a start), unless a fresh copy or
   * a build is there already. Not a read: neither a hit nor a miss is counted.
   */
  warm(key: string, maxAgeMs: number, build: () => Promise<Built>): Promise<CachedDocument | undefined> {
    const stamp = this.stamp();
    if (this.fresh(key, stamp) || this.building.has(key)) return Promise.resolve(undefined);
    return this.startBuild(key, maxAgeMs, stamp, build);
  }

  /** The build of `key` in progress (of every key without one), if any, settled (for tests and shutdown): resolves either way. */
  async settled(key?: string): Promise<void> {
    const running = key === undefined ? [...this.building.values()] : [this.building.get(key)];
    await Promise.all(running.map((r) => r?.promise.catch(() => undefined)));
  }

  private startBuild(key: string, maxAgeMs: number, stamp: Stamp, build: () => Promise<Built>): Promise<CachedDocument> {
    // The build starts on a later turn of the loop: the reader served a stale copy is answered first.
    const promise = (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return this.put(key, await build(), stamp, maxAgeMs);
    })();
    const running: Running = { promise, removals: stamp.removals };
    this.building.set(key, running);
    const done = () => {
      if (this.building.get(key) === running) this.building.delete(key);
    };
    promise.then(done, done);
    return promise;
  }

  /** Taken before a document is built, so that a removal during an async build makes it stale. */
  stamp(): Stamp {
    return { now: this.clock.now(), removals: this.removals() };
  }

  /** The stored document for `key` if it is younger than its max-age at `at` and nothing was taken down since. */
  fresh(key: string, at: Stamp): CachedDocument | null {
    return this.freshAt(key, at.now, at.removals);
  }

  /** fresh() without a Stamp to make (the hot path's call, on every cached answer). */
  freshAt(key: string, now: number, removals: number): CachedDocument | null {
    const hit = this.entries.get(key);
    if (hit === undefined) return null;
    if (hit.removals === removals && now >= hit.builtAt && now < hit.expiresAt) {
      if (this.newest !== key) this.touch(key, hit); // already the most recently used: nothing to move
      return hit;
    }
    return null;
  }

  /**
   * Stores what was built at `at`; a body larger than the whole budget is served but not kept. A
   * content equal to the stored copy's keeps that copy's bytes and tag (built again at `at`). A
   * build that started before a copy already stored from a later start does not replace it.
   */
  put(key: string, built: Built, at: Stamp, maxAgeMs: number): CachedDocument {
    this.builds++;
    const old = this.entries.get(key);
    let body: string;
    let etag: string | undefined;
    let content: bigint | number | undefined;
    let encoded: Encoded | undefined;
    if (typeof built === 'string') body = built;
    else {
      content = Bun.hash(built.content);
      if (old && old.content === content) {
        body = old.body;
        etag = old.etag;
        encoded = old.encoded; // the same bytes: their compressed forms still hold
      } else body = built.body();
    }
    const entry: Entry = {
      body,
      builtAt: at.now,
      removals: at.removals,
      etag: etag ?? `"${Bun.hash(body).toString(36)}"`,
      expiresAt: at.now + maxAgeMs,
      size: body.length,
      content,
      ...(encoded ? { encoded } : {}),
    };
    origins.set(entry, { cache: this, key });
    // The removal counter only grows, and a clock only forward: the later start wins.
    if (old && (old.removals > at.removals || (old.removals === at.removals && old.builtAt > at.now))) return entry;
    if (old) {
      this.entries.delete(key);
      this.chars -= old.size;
    }
    if (entry.size <= this.limits.maxChars) {
      this.entries.set(key, entry);
      this.newest = key;
      this.chars += entry.size;
      this.evict();
    }
    return entry;
  }

  /** Moves `key` to the most recently used end. */
  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.newest = key;
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

// Which cache and key a served document came from, so that sendDocument can let the hot path know.
const origins = new WeakMap<CachedDocument, { cache: DocumentCache; key: string }>();

/**
 * A long build's pacing: `pace()` gives the loop back (a macrotask turn, so requests, timers and
 * I/O waiting run) once `sliceMs` of work has passed since it last did, so a build of tens of
 * milliseconds blocks the loop for at most about one slice at a time (each SQLite statement
 * still runs whole). What it reads between slices may include writes made meanwhile; a removal
 * made meanwhile makes the document stale at once (its stamp was taken before).
 */
export class Pacer {
  private since = performance.now();
  yields = 0;
  constructor(readonly sliceMs = 4) {}

  async pace(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    this.yields++;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

const caches = new WeakMap<AppContext, DocumentCache>();

/** The public document cache of a running service (one per context, so one per test app). */
export function publicCache(ctx: AppContext): DocumentCache {
  return getOrSet(caches, ctx, () => {
    const s = publicCacheStore(ctx.db);
    return new DocumentCache(
      ctx.clock,
      watchRemovals(
        () => s.changes.get()!.n,
        () => s.removals.get()?.n ?? 0,
      ),
    );
  });
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** A served document's body: its text, its compressed bytes, or null with 304. */
export type DocumentBody = string | Uint8Array | null;

/** What a route handler gets from Elysia that serving a document needs. */
export type Http = Pick<Context, 'request' | 'set'>;

/**
 * Serves a cached document: its headers go into `set` and its stored body is the return value
 * (Elysia's fast path: no Response to merge headers into, no re-serialization), or null with 304
 * when the caller already holds these bytes. Cache-Control names the document's whole max-age and
 * `Age` how old the bytes are, so a browser or CDN keeps them for what is left of it (max-age −
 * Age) and never longer than `maxAgeSeconds` after they were built. A text document is answered
 * in the coding the caller prefers (br, gzip), compressed once per copy (compress.ts), with
 * Vary: Accept-Encoding and the coding's own ETag.
 */
export function sendDocument(
  doc: CachedDocument,
  http: Http,
  now: number,
  opts: { maxAgeSeconds: number; contentType: string; headers?: Record<string, string> },
): DocumentBody {
  const h = http.set.headers;
  if (opts.headers) Object.assign(h, opts.headers);
  h['content-type'] = opts.contentType;
  h['cache-control'] = `public, max-age=${opts.maxAgeSeconds}`;
  h.age = String(Math.max(0, Math.floor((now - doc.builtAt) / 1000)));
  let encoded: Uint8Array | null = null;
  let coding: Coding | null = null;
  if (compressibleType(opts.contentType)) {
    h.vary = varyWithEncoding(h.vary as string | undefined);
    coding = preferredCoding(http.request.headers.get('accept-encoding'));
    encoded = coding === null ? null : encodedBody(doc, coding);
  }
  h.etag = encoded !== null && coding !== null ? encodedTag(doc.etag, coding) : doc.etag;
  const held = http.request.headers.get('if-none-match');
  if (held !== null && matchesEtag(held, doc.etag)) {
    http.set.status = 304;
    return null;
  }
  if (encoded !== null) h['content-encoding'] = coding!; // a 304 has no body to code
  // The next anonymous GET of this address is answered from here before routing, with all the
  // headers set so far (the conventions' CORS, the route's own): see hot-reads.ts.
  const origin = origins.get(doc);
  if (origin) origin.cache.hot.remember(http.request, origin.key, h as Record<string, string>);
  return encoded ?? doc.body;
}

/**
 * A JSON document as the cache stores it: its bytes, and its content with the members that only
 * say when it was built (generated_at, and the dotted `stamps` paths, such as a window's start)
 * set to null, so that a rebuild with nothing new keeps the stored copy's bytes and tag.
 */
export function stableJson(doc: unknown, stamps: readonly string[] = []): Built {
  const saved: [Record<string, unknown>, string, unknown][] = [];
  for (const path of ['generated_at', ...stamps]) {
    const keys = path.split('.');
    let at: unknown = doc;
    for (const k of keys.slice(0, -1)) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[k] : undefined;
    const last = keys.at(-1)!;
    if (at === null || typeof at !== 'object' || !(last in at)) continue;
    const o = at as Record<string, unknown>;
    saved.push([o, last, o[last]]);
    o[last] = null;
  }
  const content = JSON.stringify(doc);
  if (saved.length === 0) return { content, body: () => content };
  for (const [o, k, value] of saved) o[k] = value;
  return { content, body: () => JSON.stringify(doc) };
}

/** What serving a JSON document needs: its cache key and max-age, and its build-time members. */
export interface JsonDocument {
  key: string;
  maxAgeSeconds: number;
  /** Dotted paths of members derived from the build time besides generated_at (stableJson). */
  stamps?: readonly string[];
}

/** A JSON public document through the cache: built by `build`, serialized once, served as bytes. */
export function cachedJson(ctx: AppContext, http: Http, key: string, maxAgeSeconds: number, build: () => unknown, stamps?: readonly string[]): DocumentBody {
  const doc = publicCache(ctx).get(key, maxAgeSeconds * 1000, () => stableJson(build(), stamps));
  return sendDocument(doc, http, ctx.clock.now(), { maxAgeSeconds, contentType: JSON_TYPE });
}

const unavailable = (doc: { key: string; unavailable: ErrorCode }, e: unknown): never => {
  if (e instanceof ApiError) throw e;
  console.error(JSON.stringify({ event: 'document_unavailable', document: doc.key, error: String((e as Error)?.message ?? e) }));
  return fail(doc.unavailable);
};

/**
 * cachedJson for a document with an "unavailable" code: any failure to build it or to read the
 * cache's change counters is logged and answered 503 with that code, never a partial document.
 * A deliberate refusal (an ApiError such as 400 or 404) passes through unchanged.
 */
export function guardedJson(ctx: AppContext, http: Http, doc: JsonDocument & { unavailable: ErrorCode }, build: () => unknown): DocumentBody {
  try {
    return cachedJson(ctx, http, doc.key, doc.maxAgeSeconds, build, doc.stamps);
  } catch (e) {
    return unavailable(doc, e);
  }
}

/**
 * guardedJson for a build that yields the loop while it runs (a long one, in slices): served
 * stale-while-revalidate (DocumentCache.getStale) for up to one more max-age, so once the
 * document exists no reader waits for a rebuild; the first build, or one after a removal, is
 * awaited. A failed background rebuild is logged and the next reader tries again.
 */
export function guardedJsonStale(
  ctx: AppContext,
  http: Http,
  doc: JsonDocument & { unavailable: ErrorCode },
  build: () => Promise<unknown>,
): DocumentBody | Promise<DocumentBody> {
  const maxAgeMs = doc.maxAgeSeconds * 1000;
  const send = (d: CachedDocument) => sendDocument(d, http, ctx.clock.now(), { maxAgeSeconds: doc.maxAgeSeconds, contentType: JSON_TYPE });
  try {
    const got = publicCache(ctx).getStale(doc.key, maxAgeMs, maxAgeMs, async () => stableJson(await build(), doc.stamps));
    if (!(got instanceof Promise)) return send(got);
    return got.then(send, (e) => unavailable(doc, e));
  } catch (e) {
    return unavailable(doc, e);
  }
}
