// Turning what an agent typed into a safe full-text query, and the cursor that pages its results.
// User input is never FTS5 syntax (docs/decisions.md#route-shapes: "the query is words"): q is cut into words of
// letters and digits, each word becomes a quoted FTS string, and the strings are joined with the
// implicit AND. Quotes, NEAR, AND/OR/NOT, `*`, `-`, `^`, `:` and parentheses therefore either
// vanish (punctuation) or are searched as the plain words they are; none can be a syntax error.
import { createHash } from 'node:crypto';
import { fail } from '../http/errors.ts';
import { indexPieces } from './tokens-store.ts';

const SEARCH_FEED = 'search';
export const Q_MAX_CHARS = 200;
/** Distinct words that count; later ones are ignored (a bound on the work one query can ask for). */
export const MAX_WORDS = 24;

// A word starts with a letter, digit or private-use character and may carry combining marks
// (so "café" typed decomposed stays one word); everything else separates words.
const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{M}\p{Co}]*/gu;

/** The distinct searchable words of q, in the order typed (case-folded for comparison only). */
export function searchWords(q: string): string[] {
  const seen = new Map<string, string>();
  for (const [word] of q.normalize('NFC').matchAll(WORD)) {
    const key = word.toLowerCase();
    if (!seen.has(key)) seen.set(key, word);
    if (seen.size >= MAX_WORDS) break;
  }
  return [...seen.values()];
}

/**
 * The FTS5 MATCH expression: every piece of every word, as the index's tokenizer cuts them
 * (src/search/tokens-store.ts), as a string literal (quotes doubled), all required. A word the index
 * holds as several pieces ("e.g", or a letter SQLite's Unicode tables do not know between two it
 * does) asks for each piece anywhere in the post: the index keeps no positions to ask for them side
 * by side. At most MAX_WORDS distinct pieces; '' when no word holds a piece the index could hold
 * (such a query matches nothing).
 */
export function matchExpression(words: string[]): string {
  const pieces = new Set<string>();
  for (const piece of indexPieces(words).flat()) {
    if (pieces.size === MAX_WORDS) break;
    pieces.add(piece);
  }
  return [...pieces].map((p) => `"${p.replaceAll('"', '""')}"`).join(' ');
}

/** Identifies the query a cursor was issued for, so a cursor cannot page another query's results. */
const queryHash = (words: string[]): string =>
  createHash('sha256')
    .update(words.map((w) => w.toLowerCase()).join('\u0000'))
    .digest('base64url')
    .slice(0, 12);

/**
 * Where a result list continues: below `below` (a posts.seq; results are newest first, so the
 * next page holds the matches older than the last one shown).
 */
export interface SearchPosition {
  below: number;
}

const malformed = (): never => fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: 'malformed cursor' });

/** The cursor of the page after the result at `seq` (`search:n:<seq>:<query hash>`). */
export const encodeSearchCursor = (words: string[], seq: number): string => Buffer.from(`${SEARCH_FEED}:n:${seq}:${queryHash(words)}`).toString('base64url');

/**
 * Reads a search cursor. Two earlier forms are still accepted so that a walk begun before results
 * were ordered newest first is not refused: the ranked keyset form
 * (`search:k:<score>:<seq>:<floor>:<ceiling>:<hash>`) and the offset form
 * (`search:<offset>:<floor>:<ceiling>:<hash>`). Their place in a bm25 ranking has no place in the
 * newest-first order, so they go on from their ceiling (the newest post of their first page):
 * nothing of the walk is lost, some results may come again.
 */
export function decodeSearchCursor(words: string[], cursor: string): SearchPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const feed = /^([a-z_]+):/.exec(text)?.[1];
  if (feed !== undefined && feed !== SEARCH_FEED) fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: `cursor belongs to the ${feed} feed` });
  const newest = /^search:n:(\d{1,15}):([A-Za-z0-9_-]{12})$/.exec(text);
  const keyset = newest ? null : /^search:k:[0-9a-f]{16}:\d{1,15}:\d{1,15}:(\d{1,15}):([A-Za-z0-9_-]{12})$/.exec(text);
  const offset = newest || keyset ? null : /^search:\d{1,9}:\d{1,15}:(\d{1,15}):([A-Za-z0-9_-]{12})$/.exec(text);
  const found = newest ?? keyset ?? offset ?? malformed();
  if (found[2] !== queryHash(words))
    fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: 'cursor belongs to another query: send the same q as the page that returned it' });
  const seq = Number(found[1]);
  return { below: newest ? seq : seq + 1 };
}
