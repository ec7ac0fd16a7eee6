// The hot path of a cached public read. A public document is built once and its bytes are served
// until its max-age (public-cache.ts); serving those bytes through the whole route lifecycle
// (routing, query parsing, validation, the handler, header merging) cost about twice a bare
// Bun.serve per request. Once a route has served a document for an address, the shared
// conventions answer the next anonymous GET of that exact address (path and query as sent, and
// the values of the request headers the document varies on) straight from the cache, before
// routing, with the same bytes and headers the route would send: while the cache still holds that
// document fresh. Everything else (a stale or removed document, a cookie or a key, another method,
// an address no route has served) takes the ordinary path, which rebuilds and remembers it again.
//
// It runs before Elysia sees the request at all (plugin.ts wraps every handler): no context, no
// hooks, no routing. Each answer reads only what it must: the address, the request headers that
// decide (Cookie, Authorization, the Vary ones, If-None-Match, X-Request-Id), the clock once.
import { type Coding, type Encoded, encodedBody, preferredCoding } from './compress.ts';
import { encodedTag, matchesEtag } from './etag.ts';
import { familyOf } from './families.ts';

/** A cached document as the hot path sees it (public-cache.ts's CachedDocument is one). */
export interface HotDocument {
  body: string;
  builtAt: number; // ms
  etag: string;
  encoded?: Encoded; // its compressed bytes by coding (compress.ts), kept with the document
}

/** The answers remembered at one address, one per variant of the headers it varies on. */
export interface Slot {
  vary: readonly string[]; // request header names (lower case) whose values pick the variant
  variants: Map<string, Prepared>;
}

/** One remembered answer: which document, with which headers, in which route family. */
export interface Prepared {
  key: string; // the document's key in the cache
  address: string; // the address it answers (path and query as sent)
  family: string; // the route family of the address (families.ts), for the read limit and metrics
  fixed: Readonly<Record<string, string>>; // the route's headers, less those that change per answer
  codings: boolean; // whether the answer varies on Accept-Encoding (a text document: compress.ts)
  // Per form of the bytes (identity, br, gzip): the headers of the latest answer but its request
  // id, rebuilt when the bytes or their age (in whole seconds) change. Copying a Headers is cheaper
  // than making one from an object. The bytes are encoded once per document (a string body is
  // transcoded to UTF-8 on every answer), into a Blob: a Response shares a Blob's bytes, where it
  // copies an ArrayBuffer's (46 KB each time).
  templates?: Partial<Record<Form, Template>>;
}

type Form = 'identity' | Coding;

interface Template {
  doc: HotDocument;
  age: number;
  headers: Headers;
  bytes: Blob;
}

/** The bytes the templates of one answer hold. */
const heldBy = (p: Prepared | undefined): number => {
  let n = 0;
  for (const t of Object.values(p?.templates ?? {})) n += t.bytes.size;
  return n;
};

const ENCODER = new TextEncoder();

// Set per answer by the hot path itself (the age, tag and coding of the bytes, the request's id).
const PER_ANSWER = new Set(['age', 'etag', 'x-request-id', 'content-encoding']);

/** A 304 with the answer's headers but its coding: it has no body to code. */
function notModified(headers: Headers): Response {
  const answer = new Response(null, { status: 304, headers });
  answer.headers.delete('content-encoding');
  return answer;
}

/** The address a request names without its origin: path and query exactly as sent. */
export function addressOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start < 0 ? '/' : url.slice(start);
}

const varyOf = (headers: Readonly<Record<string, string>>): string[] => {
  const v = Object.entries(headers).find(([name]) => name.toLowerCase() === 'vary')?.[1];
  return v
    ? v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : [];
};

// Accept-Encoding picks the form of the bytes within one remembered answer (respond), not a
// variant of its own: clients send many spellings of the same few choices.
const ENCODING = 'accept-encoding';

const variantOf = (headers: Headers, vary: readonly string[]): string => {
  let out = '';
  for (const name of vary) out += `${headers.get(name) ?? ''}\n`;
  return out;
};

/** Whether a request may be answered from the hot path at all: an anonymous GET. */
export const hotEligible = (request: Request): boolean => request.method === 'GET' && anonymous(request.headers);

const anonymous = (headers: Headers): boolean => !headers.has('cookie') && !headers.has('authorization');

export class HotReads {
  private readonly slots = new Map<string, Slot>();
  private bytes = 0; // the encoded bodies the templates hold
  answered = 0; // requests the hot path answered (for tests and logs)

  /**
   * @param current  the cache's document for a key while it is fresh and nothing was taken down
   *                 since it was built (DocumentCache.fresh at `now`, this moment when not given), else null
   * @param limits   addresses remembered, and the encoded bytes they hold at most: the least
   *                 recently remembered go first
   */
  constructor(
    private readonly current: (key: string, now?: number) => HotDocument | null,
    readonly limits = { addresses: 1000, bytes: 32 * 1024 * 1024 },
  ) {}

  /**
   * Remembers that a route answered `request` with the document at `key` and these headers (all
   * it set: content type, cache control, CORS, its own; Vary among them), status 200.
   */
  remember(request: Request, key: string, headers: Readonly<Record<string, string>>): void {
    if (!hotEligible(request)) return;
    // Only where the route path would answer it as a public read: never past the agent guard.
    const family = familyOf(request);
    if (family !== 'public' && family !== 'page' && family !== 'other') return;
    const address = addressOf(request.url);
    const fixed: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (!PER_ANSWER.has(name.toLowerCase())) fixed[name] = value;
    const varied = varyOf(fixed);
    const codings = varied.includes(ENCODING);
    const vary = varied.filter((h) => h !== ENCODING);
    let slot = this.slots.get(address);
    if (slot) this.drop(address, slot.vary.join() === vary.join() ? null : slot); // re-inserted below: the newest last
    if (!slot || slot.vary.join() !== vary.join()) slot = { vary, variants: new Map() };
    this.slots.set(address, slot);
    const variant = variantOf(request.headers, vary);
    this.bytes -= heldBy(slot.variants.get(variant));
    slot.variants.delete(variant);
    slot.variants.set(variant, { key, address, family, fixed, codings });
    // A variant per distinct header value, bounded like the addresses.
    if (slot.variants.size > 8) {
      const [first, gone] = slot.variants.entries().next().value!;
      this.bytes -= heldBy(gone);
      slot.variants.delete(first);
    }
    this.trim(address);
  }

  /** What the route would answer `request` with, when the hot path can tell; else null. */
  lookup(request: Request, now?: number): { serving: Prepared; doc: HotDocument } | null {
    const slot = request.method === 'GET' ? this.at(request.url) : undefined;
    const serving = slot === undefined ? null : this.pick(slot, request.headers);
    const doc = serving && this.document(serving, now);
    return doc ? { serving, doc } : null;
  }

  /**
   * The address `url` (request.url) names, if a route served a document there. The hot path calls
   * at() then pick(), so that it reads a request's headers (request.headers, a call into Bun) only
   * at a remembered address: every other request pays one Map lookup.
   */
  at(url: string): Slot | undefined {
    return this.slots.size === 0 ? undefined : this.slots.get(addressOf(url));
  }

  /** The answer remembered at `slot` for an anonymous request with these headers; else null. */
  pick(slot: Slot, headers: Headers): Prepared | null {
    if (!anonymous(headers)) return null;
    return slot.variants.get(slot.vary.length === 0 ? '' : variantOf(headers, slot.vary)) ?? null;
  }

  /** The document `serving` names while the cache holds it fresh at `now`; else null, and its bytes go. */
  document(serving: Prepared, now?: number): HotDocument | null {
    const doc = this.current(serving.key, now);
    if (!doc && serving.templates) {
      // Stale or taken down: the route answers and remembers the next copy. The old bytes go now.
      this.bytes -= heldBy(serving);
      serving.templates = undefined;
    }
    return doc;
  }

  /** The answer itself: 200 with the bytes, or 304 when the caller holds them (If-None-Match). */
  answer(hit: { serving: Prepared; doc: HotDocument }, request: Request, now: number, requestId: string): Response {
    return this.respond(hit.serving, hit.doc, request.headers, now, requestId);
  }

  /** answer() without the pair, given the request's headers: the hot path's own call. */
  respond(serving: Prepared, doc: HotDocument, requestHeaders: Headers, now: number, requestId: string): Response {
    this.answered++;
    const age = Math.max(0, Math.floor((now - doc.builtAt) / 1000));
    // The coding the caller prefers, when the document is text and compressing it paid.
    const coding = serving.codings ? preferredCoding(requestHeaders.get(ENCODING)) : null;
    const encoded = coding === null ? null : encodedBody(doc, coding);
    const form: Form = encoded === null ? 'identity' : coding!;
    serving.templates ??= {};
    const templates = serving.templates;
    let template = templates[form];
    if (template?.doc !== doc || template.age !== age) {
      const headers = new Headers(serving.fixed);
      headers.set('age', String(age));
      headers.set('etag', form === 'identity' ? doc.etag : encodedTag(doc.etag, form));
      if (form !== 'identity') headers.set('content-encoding', form);
      let bytes: Blob;
      if (template?.doc === doc) bytes = template.bytes;
      else {
        bytes = new Blob([encoded ?? ENCODER.encode(doc.body)]);
        this.bytes += bytes.size - (template?.bytes.size ?? 0);
      }
      template = templates[form] = { doc, age, headers, bytes };
      this.trim(serving.address); // once per document and second, not per answer
    }
    // A Response copies the Headers it is given: the template is copied once, into the answer,
    // and the answer's own copy takes the request id (no intermediate Headers to copy again).
    const held = requestHeaders.get('if-none-match');
    const answer = held !== null && matchesEtag(held, doc.etag) ? notModified(template.headers) : new Response(template.bytes, { headers: template.headers });
    answer.headers.set('x-request-id', requestId);
    return answer;
  }

  /** Forgets a slot and its bytes (with `slot` null: only takes the address out of the order). */
  private drop(address: string, slot: Slot | null): void {
    this.slots.delete(address);
    if (slot) for (const v of slot.variants.values()) this.bytes -= heldBy(v);
  }

  /** The oldest addresses go while over either bound; `keep` (the one in use) stays. */
  private trim(keep: string): void {
    for (const [address, slot] of this.slots) {
      if (this.slots.size <= this.limits.addresses && this.bytes <= this.limits.bytes) return;
      if (address !== keep) this.drop(address, slot);
    }
  }

  /** Forgets every address (and its bytes): the next read of each takes the route again. */
  clear(): void {
    this.slots.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.slots.size;
  }

  /** The encoded bodies held (for tests and /metrics). */
  get heldBytes(): number {
    return this.bytes;
  }
}
