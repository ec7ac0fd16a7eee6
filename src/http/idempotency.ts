// Idempotent writes. The key check, the write and the stored answer happen in one synchronous
// SQLite transaction, so two concurrent requests with one key can never both write: the second
// finds the first's row and replays it (or gets 409 when its body differs).
import type { Context } from 'elysia';
import type { AppContext } from '../context.ts';
import { inTx } from '../db/open.ts';
import { fail } from './errors.ts';
import { idempotencyStore } from './idempotency-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Publication {
  kind: string; // 'post', 'lab_page', …
  id: string;
}

export interface WriteResult<T> {
  status?: number;
  body: T;
  publication?: Publication;
}

/** Reads and checks the Idempotency-Key header (a uuid), normalized to lower case. */
export function idempotencyKey(headers: Headers, purpose: 'write' | 'lookup' = 'write'): string {
  const raw = headers.get('idempotency-key');
  if (raw === null || raw.trim() === '')
    fail(
      'IDEMPOTENCY_KEY_REQUIRED',
      { header: 'Idempotency-Key', example: crypto.randomUUID() },
      purpose === 'lookup' ? 'The lookup needs the Idempotency-Key header of the write it looks for.' : undefined,
    );
  const key = raw.trim();
  if (!UUID.test(key)) fail('INVALID_IDEMPOTENCY_KEY', { header: 'Idempotency-Key', example: crypto.randomUUID() });
  return key.toLowerCase();
}

/**
 * The key of a write the spec does not require one for (01 asks for one only on new posts,
 * replies, rules edits and lab publishes): absent is fine and means no replay protection; a
 * key that is sent must still be a uuid, and then replays exactly like a required one.
 */
export function optionalIdempotencyKey(headers: Headers): string | null {
  const raw = headers.get('idempotency-key');
  return raw === null || raw.trim() === '' ? null : idempotencyKey(headers);
}

// A string this long that needs no escape is written as it is, between quotes, rather than copied
// by JSON.stringify: JSON.stringify escapes only '"', '\\', the controls below U+0020 and lone
// surrogates, so for any other string the two give the same characters.
const LONG_STRING = 4096;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what JSON.stringify escapes
const ESCAPED = /["\\\u0000-\u001f]/;

/**
 * A value whose canonical JSON is already known (an article's content, hashed for its
 * content_hash): canonicalJson and fingerprintOf write the text as it is instead of walking the
 * value again. The text must be canonicalJson of some value.
 */
export class CanonicalText {
  constructor(readonly text: string) {}
}

/**
 * canonicalJson's text as a list of pieces, in order: the long strings of the value (a lab
 * publish's base64 files) are pieces of their own, never copied into a larger string.
 */
function canonicalPieces(value: unknown, out: string[]): void {
  if (value instanceof CanonicalText) {
    out.push(value.text);
  } else if (typeof value === 'string') {
    if (value.length >= LONG_STRING && !ESCAPED.test(value) && value.isWellFormed()) out.push('"', value, '"');
    else out.push(JSON.stringify(value));
  } else if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value) ?? 'null');
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      canonicalPieces(value[i], out);
    }
    out.push(']');
  } else {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out.push('{');
    for (let i = 0; i < entries.length; i++) {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(entries[i]![0]), ':');
      canonicalPieces(entries[i]![1], out);
    }
    out.push('}');
  }
}

/** JSON with object keys sorted, so that key order never makes "the same body" differ. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  canonicalPieces(value, out);
  return out.join('');
}

// A write's body is fingerprinted where its replay is looked up and again where its key is stored:
// once per body object is enough.
const fingerprints = new WeakMap<object, Map<string, string>>();

/** Pieces up to this many characters in all are hashed as one string (one call instead of many). */
const JOINED_UP_TO = 65_536;

/**
 * sha256 of the route and the body's canonical JSON: what makes two requests "the same write".
 * The pieces are hashed one after another, never joined when they are large: a 2.7 MB lab publish
 * hashed as one string was copied about three times over (the escapes, the joins, the UTF-8 for
 * the hash), 8.7 MB of fresh memory and ~9 ms on the request thread; piece by piece it is ~2 ms.
 */
export function fingerprintOf(route: string, body: unknown): string {
  const held = typeof body === 'object' && body !== null ? fingerprints.get(body) : undefined;
  const known = held?.get(route);
  if (known !== undefined) return known;
  const pieces = [`${route}\n`];
  canonicalPieces(body, pieces);
  const hasher = new Bun.CryptoHasher('sha256');
  let length = 0;
  for (const p of pieces) length += p.length;
  if (length <= JOINED_UP_TO) hasher.update(pieces.join(''));
  else for (const p of pieces) hasher.update(p);
  const hash = hasher.digest('hex');
  if (typeof body === 'object' && body !== null) {
    if (held) held.set(route, hash);
    else fingerprints.set(body, new Map([[route, hash]]));
  }
  return hash;
}

/**
 * The stored answer of an earlier request with this key: replayed verbatim (its status and
 * `Idempotent-Replayed: true`), or 409 IDEMPOTENCY_CONFLICT when that request had another body.
 * Undefined when the key is new.
 */
export function priorAnswer(ctx: AppContext, req: { accountId: string; key: string; route: string; hash: string; set: Context['set'] }): unknown {
  const prior = idempotencyStore(ctx.db).answer.get(req.accountId, req.key);
  if (!prior) return undefined;
  if (prior.request_hash !== req.hash) fail('IDEMPOTENCY_CONFLICT', { key: req.key, original_route: prior.route, lookup: ctx.parts.lostWriteLookup?.() });
  req.set.status = prior.status;
  req.set.headers['idempotent-replayed'] = 'true';
  return JSON.parse(prior.response) as unknown;
}

/**
 * Runs `write` once per (account, key), in one transaction with the key's row. A replay answers
 * the first response verbatim; a refused write (any thrown error) stores nothing, so the key
 * stays free and the refusal cost nothing. Without a key (a route where it is optional and the
 * caller sent none) the write simply runs in its transaction.
 */
export function idempotentWrite<T>(
  ctx: AppContext,
  // hash: the body's fingerprint when the caller has it already (fingerprintOf(route, body)).
  req: { accountId: string; key: string | null; route: string; body: unknown; set: Context['set']; hash?: string },
  write: () => WriteResult<T>,
): T | unknown {
  const key = req.key;
  if (key === null) {
    return inTx(ctx.db, () => {
      const result = write();
      req.set.status = result.status ?? 200;
      return result.body;
    });
  }
  const hash = req.hash ?? fingerprintOf(req.route, req.body);
  return inTx(ctx.db, () => {
    const prior = priorAnswer(ctx, { accountId: req.accountId, key, route: req.route, hash, set: req.set });
    if (prior !== undefined) return prior;
    const result = write();
    const status = result.status ?? 200;
    idempotencyStore(ctx.db).insert.run(
      req.accountId,
      key,
      req.route,
      hash,
      status,
      JSON.stringify(result.body),
      result.publication?.kind ?? null,
      result.publication?.id ?? null,
      ctx.clock.now(),
    );
    req.set.status = status;
    return result.body;
  });
}

export interface PublicationInfo {
  id: string;
  seq: number;
  thread_id: string;
  url: string;
}

/** Each publishing domain says how to find its live publication by id (null once deleted); src/compose.ts lists them. */
export type PublicationResolver = (ctx: AppContext, id: string) => PublicationInfo | null;

/** The lookup route's answer: publishes nothing, finds only retained (live) publications. */
export function lookupPublication(ctx: AppContext, accountId: string, key: string): { found: false } | ({ found: true } & PublicationInfo) {
  const row = idempotencyStore(ctx.db).resource.get(accountId, key);
  if (!row?.resource_kind || !row.resource_id) return { found: false };
  const info = ctx.parts.publications[row.resource_kind]?.(ctx, row.resource_id);
  return info ? { found: true, ...info } : { found: false };
}

declare module '../context.ts' {
  interface Parts {
    /** resource kind (as stored with an idempotency key) → how to find that publication while it lives. */
    publications: Readonly<Record<string, PublicationResolver>>;
    /** The address of the lost-write lookup a key conflict points to (the accounts domain serves it). */
    lostWriteLookup?(): string;
  }
}
