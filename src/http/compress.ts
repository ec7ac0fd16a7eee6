// Compressed answers for what is public. A public document is built once and served many times
// (public-cache.ts): its compressed bytes are made once per cached copy and coding, the first time
// a reader asks for that coding, and kept with the copy, so a poll of a 60 KB document costs the
// same as before and moves a fifth of the bytes. Only answers that are public by construction are
// compressed (a cached document, or an answer marked Cache-Control: public with no cookie): an
// answer that carries a secret beside text an attacker chose (a CSRF token, a session) is never
// compressed, which is what BREACH needs.
//
// Each coding is its own representation (RFC 9110 §8.8.3): its ETag is the document's with the
// coding appended ("abc" → "abc.br"), and a tag held for any coding of the same bytes revalidates
// them (etag.ts).
import { brotliCompressSync, constants } from 'node:zlib';
import { type Coding, encodedTag, matchesEtag } from './etag.ts';

export type { Coding };

/** Bytes of their own (never a view of a shared buffer): what a Blob or a Response takes. */
type Bytes = Uint8Array<ArrayBuffer>;

/** Below this many bytes a compressed answer saves less than the headers and the work it costs. */
export const MIN_COMPRESS_BYTES = 1024;

// Brotli at quality 5 and gzip at level 6: measured here on a 100 KB JSON document, 5 ms and 2 ms
// once per copy, within 4 % of quality 9's size; quality 11 took a second.
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

const TEXT_TYPE = /^(?:text\/|application\/(?:json|xml|atom\+xml|rss\+xml|javascript|manifest\+json|problem\+json|openapi\+json)|image\/svg\+xml)/i;

/** Whether a content type is text worth compressing (images, fonts and archives are compressed already). */
export const compressibleType = (contentType: string | null | undefined): boolean => !!contentType && TEXT_TYPE.test(contentType);

// Accept-Encoding values repeat (each client sends its own few): the choice is kept per value.
const chosen = new Map<string, Coding | null>();

/**
 * The coding to answer with for an Accept-Encoding value (RFC 9110 §12.5.3): br over gzip when
 * both are acceptable at the same weight, a higher q winning; `*` stands for any coding not
 * named; q=0 refuses one; no header, or none acceptable, is null (the identity).
 */
export function preferredCoding(accept: string | null): Coding | null {
  if (accept === null || accept === '') return null;
  const known = chosen.get(accept);
  if (known !== undefined) return known;
  const q: Record<string, number> = {};
  for (const part of accept.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k?.trim().toLowerCase() === 'q') weight = Number(v?.trim());
    }
    q[coding === 'x-gzip' ? 'gzip' : coding] = Number.isFinite(weight) ? Math.min(1, Math.max(0, weight)) : 0;
  }
  const weightOf = (c: Coding) => q[c] ?? q['*'] ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  const pick: Coding | null = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : null;
  if (chosen.size >= 256) chosen.clear();
  chosen.set(accept, pick);
  return pick;
}

/** `bytes` in `coding`, or null when that saves less than a tenth (already dense, or tiny). */
export function compress(bytes: Uint8Array, coding: Coding): Bytes | null {
  if (bytes.byteLength < MIN_COMPRESS_BYTES) return null;
  const out =
    coding === 'br'
      ? new Uint8Array(
          brotliCompressSync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
            },
          }),
        )
      : (Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>, { level: GZIP_LEVEL }) as Bytes);
  return out.byteLength <= bytes.byteLength * 0.9 ? out : null;
}

/** What a cached copy keeps of its codings: the bytes, or null when compressing did not pay. */
export type Encoded = Partial<Record<Coding, Bytes | null>>;

const ENCODER = new TextEncoder();

/** A document's body in `coding`, made once per document and kept on it (`doc.encoded`). */
export function encodedBody(doc: { body: string; encoded?: Encoded }, coding: Coding): Bytes | null {
  const kept = doc.encoded?.[coding];
  if (kept !== undefined) return kept;
  const made = doc.body.length < MIN_COMPRESS_BYTES / 3 ? null : compress(ENCODER.encode(doc.body), coding);
  doc.encoded = { ...doc.encoded, [coding]: made };
  return made;
}

/** `vary` with Accept-Encoding added once. */
export function varyWithEncoding(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

/**
 * The answer of a route whose text never changes while the process runs (a stylesheet, a script,
 * a generated reference): its tag, codings and 304s made once, the coding picked per request.
 * `headers` must say Cache-Control: public (nothing secret is ever compressed here).
 */
export function fixedText(body: string, headers: Readonly<Record<string, string>>): (request: Request) => Response {
  const etag = headers.etag ?? `"${new Bun.CryptoHasher('sha256').update(body).digest('hex').slice(0, 32)}"`;
  const doc: { body: string; encoded?: Encoded } = { body };
  const text = compressibleType(headers['content-type']);
  return (request) => {
    const coding = text ? preferredCoding(request.headers.get('accept-encoding')) : null;
    const encoded = coding === null ? null : encodedBody(doc, coding);
    const h: Record<string, string> = { ...headers, etag: encoded === null ? etag : encodedTag(etag, coding!) };
    if (text) h.vary = varyWithEncoding(h.vary);
    const held = request.headers.get('if-none-match');
    if (held !== null && matchesEtag(held, etag)) return new Response(null, { status: 304, headers: h });
    if (encoded !== null) h['content-encoding'] = coding!; // a 304 has no body to code
    return new Response(encoded ?? body, { headers: h });
  };
}
