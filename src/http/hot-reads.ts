// The hot path of a cached public read. A public document is built once and its bytes are served
// until its max-age (public-cache.ts); serving those bytes through the whole route lifecycle
// (routing, query parsing, validation, the handler, header merging) cost about twice a bare
// Bun.serve per request. Once a route has served a document for an address, the shared
// conventions answer the next anonymous GET of that exact address (path and query as sent, and
// the values of the request headers the document varies on) straight from the cache, before
// routing, with the same bytes and headers the route would send: while the cache still holds that
// document fresh. Everything else (a stale or removed document, a cookie or a key, another method,
// an address no route has served) takes the ordinary path, which rebuilds and remembers it again.
/** A cached document as the hot path sees it (public-cache.ts's CachedDocument is one). */
export interface HotDocument {
  body: string;
  builtAt: number; // ms
  etag: string;
}

interface Slot {
  vary: readonly string[]; // request header names (lower case) whose values pick the variant
  variants: Map<string, Prepared>;
}

interface Prepared {
  key: string; // the document's key in the cache
  fixed: Readonly<Record<string, string>>; // the route's headers, less those that change per answer
  // The headers of the latest answer but its request id: rebuilt when the bytes or their age
  // (in whole seconds) change. Copying a Headers is cheaper than making one from an object.
  // The bytes are encoded once per document: a string body is transcoded to UTF-8 on every answer.
  template?: { doc: HotDocument; age: number; headers: Headers; bytes: Uint8Array<ArrayBuffer> };
}

const ENCODER = new TextEncoder();

// Set per answer by the hot path itself (the age and tag of the bytes, the request's id).
const PER_ANSWER = new Set(['age', 'etag', 'x-request-id']);

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

const variantOf = (request: Request, vary: readonly string[]): string => {
  let out = '';
  for (const name of vary) out += `${request.headers.get(name) ?? ''}\n`;
  return out;
};

/** Whether a request may be answered from the hot path at all: an anonymous GET. */
export const hotEligible = (request: Request): boolean => request.method === 'GET' && !request.headers.has('cookie') && !request.headers.has('authorization');

export class HotReads {
  private readonly slots = new Map<string, Slot>();
  private bytes = 0; // the encoded bodies the templates hold
  answered = 0; // requests the hot path answered (for tests and logs)

  /**
   * @param current  the cache's document for a key while it is fresh and nothing was taken down
   *                 since it was built (DocumentCache.fresh at this moment), else null
   * @param limits   addresses remembered, and the encoded bytes they hold at most: the least
   *                 recently remembered go first
   */
  constructor(
    private readonly current: (key: string) => HotDocument | null,
    readonly limits = { addresses: 1000, bytes: 32 * 1024 * 1024 },
  ) {}

  /**
   * Remembers that a route answered `request` with the document at `key` and these headers (all
   * it set: content type, cache control, CORS, its own; Vary among them), status 200.
   */
  remember(request: Request, key: string, headers: Readonly<Record<string, string>>): void {
    if (!hotEligible(request)) return;
    const address = addressOf(request.url);
    const fixed: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (!PER_ANSWER.has(name.toLowerCase())) fixed[name] = value;
    const vary = varyOf(fixed);
    let slot = this.slots.get(address);
    if (slot) this.drop(address, slot.vary.join() === vary.join() ? null : slot); // re-inserted below: the newest last
    if (!slot || slot.vary.join() !== vary.join()) slot = { vary, variants: new Map() };
    this.slots.set(address, slot);
    const variant = variantOf(request, vary);
    const old = slot.variants.get(variant);
    if (old?.template) this.bytes -= old.template.bytes.length;
    slot.variants.delete(variant);
    slot.variants.set(variant, { key, fixed });
    // A variant per distinct header value, bounded like the addresses.
    if (slot.variants.size > 8) {
      const [first, gone] = slot.variants.entries().next().value!;
      if (gone.template) this.bytes -= gone.template.bytes.length;
      slot.variants.delete(first);
    }
    this.trim(address);
  }

  /** What the route would answer `request` with, when the hot path can tell; else null. */
  lookup(request: Request): { serving: Prepared; doc: HotDocument } | null {
    const slot = this.slots.get(addressOf(request.url));
    if (!slot || !hotEligible(request)) return null;
    const serving = slot.variants.get(variantOf(request, slot.vary));
    if (!serving) return null;
    const doc = this.current(serving.key);
    if (!doc) {
      // Stale or taken down: the route answers and remembers the next copy. The old bytes go now.
      if (serving.template) this.bytes -= serving.template.bytes.length;
      serving.template = undefined;
      return null;
    }
    this.answered++;
    return { serving, doc };
  }

  /** The answer itself: 200 with the bytes, or 304 when the caller holds them (If-None-Match). */
  answer(hit: { serving: Prepared; doc: HotDocument }, request: Request, now: number, requestId: string): Response {
    const { serving, doc } = hit;
    const age = Math.max(0, Math.floor((now - doc.builtAt) / 1000));
    let template = serving.template;
    if (template?.doc !== doc || template.age !== age) {
      const headers = new Headers(serving.fixed);
      headers.set('age', String(age));
      headers.set('etag', doc.etag);
      let bytes: Uint8Array<ArrayBuffer>;
      if (template?.doc === doc) bytes = template.bytes;
      else {
        bytes = ENCODER.encode(doc.body);
        this.bytes += bytes.length - (template?.bytes.length ?? 0);
      }
      template = serving.template = { doc, age, headers, bytes };
      this.trim(addressOf(request.url));
    }
    const headers = new Headers(template.headers);
    headers.set('x-request-id', requestId);
    const held = request.headers.get('if-none-match');
    if (held !== null && matchesEtag(held, doc.etag)) return new Response(null, { status: 304, headers });
    return new Response(template.bytes, { headers });
  }

  /** Forgets a slot and its bytes (with `slot` null: only takes the address out of the order). */
  private drop(address: string, slot: Slot | null): void {
    this.slots.delete(address);
    if (slot) for (const v of slot.variants.values()) if (v.template) this.bytes -= v.template.bytes.length;
  }

  /** The oldest addresses go while over either bound; `keep` (the one in use) stays. */
  private trim(keep: string): void {
    for (const [address, slot] of this.slots) {
      if (this.slots.size <= this.limits.addresses && this.bytes <= this.limits.bytes) return;
      if (address !== keep) this.drop(address, slot);
    }
  }

  get size(): number {
    return this.slots.size;
  }

  /** The encoded bodies held (for tests and /metrics). */
  get heldBytes(): number {
    return this.bytes;
  }
}

/** Weak comparison (RFC 9110 §13.1.2): a CDN that compressed the body may have weakened the tag. */
export function matchesEtag(header: string, etag: string): boolean {
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
