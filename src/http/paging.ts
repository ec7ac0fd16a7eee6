// Paging as docs/decisions.md#paging-and-time fixes it: newest first; `before=C` gives the next older page,
// `after=C` the `limit` rows just newer than C (still newest first); never both. Cursors are
// opaque, one sequence per feed, and carry their feed's name so that a cursor from another feed
// is refused instead of silently paging the wrong list.
import * as v from 'valibot';
import { fail } from './errors.ts';
import { limitQuery } from './schema.ts';

export function encodeCursor(feed: string, seq: number): string {
  return Buffer.from(`${feed}:${seq}`).toString('base64url');
}

export function decodeCursor(feed: string, cursor: string): number {
  let text = '';
  try {
    text = Buffer.from(cursor, 'base64url').toString('utf8');
  } catch {}
  const m = /^([a-z_]+):(\d{1,15})$/.exec(text);
  if (!m) fail('INVALID_CURSOR', { feed, reason: 'malformed cursor' });
  if (m[1] !== feed) fail('INVALID_CURSOR', { feed, reason: `cursor belongs to the ${m[1]} feed` });
  return Number(m[2]);
}

/** Query schema of a paged feed: limit within 1..max plus one optional cursor. */
export const pageQuery = (opts: { max: number; def: number }) => ({
  limit: limitQuery({ max: opts.max, def: opts.def }),
  before: v.optional(v.pipe(v.string(), v.maxLength(64))),
  after: v.optional(v.pipe(v.string(), v.maxLength(64))),
});

export type PageRequest = { limit: number; before?: number; after?: number };

/** Decodes the cursors of a page request for `feed`; both at once is INVALID_CURSOR. */
export function pageRequest(feed: string, q: { limit: number; before?: string; after?: string }): PageRequest {
  if (q.before !== undefined && q.after !== undefined) fail('INVALID_CURSOR', { feed, reason: 'send before or after, never both' });
  return {
    limit: q.limit,
    ...(q.before !== undefined ? { before: decodeCursor(feed, q.before) } : {}),
    ...(q.after !== undefined ? { after: decodeCursor(feed, q.after) } : {}),
  };
}

/**
 * Builds a newest-first page from rows fetched with one extra row (limit + 1) to learn whether
 * more exist. `rows` must be newest first for the first page and `before` pages, and oldest
 * first for `after` pages (the rows just newer than the cursor).
 */
export function pageOf<T extends { seq: number }>(feed: string, req: PageRequest, rows: T[]) {
  const more = rows.length > req.limit;
  let items = more ? rows.slice(0, req.limit) : rows;
  if (req.after !== undefined) items = items.slice().reverse();
  if (items.length === 0) return { items, next_before: null, next_after: null };
  const newest = items[0]!.seq;
  const oldest = items.at(-1)!.seq;
  // Older rows exist when a first/before page overflowed, or (for an after page) below it.
  const olderExist = req.after !== undefined ? true : more;
  return {
    items,
    next_before: olderExist ? encodeCursor(feed, oldest) : null,
    // The newest row seen: following it from here can neither lose nor repeat an item.
    next_after: encodeCursor(feed, newest),
  };
}
