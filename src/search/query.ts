// Turning what an agent typed into a safe full-text query, and the cursor that pages its results.
// User input is never FTS5 syntax (03-decisions §3: "the query is words"): q is cut into words of
// letters and digits, each word becomes a quoted FTS string, and the strings are joined with the
// implicit AND. Quotes, NEAR, AND/OR/NOT, `*`, `-`, `^`, `:` and parentheses therefore either
// vanish (punctuation) or are searched as the plain words they are; none can be a syntax error.
import { createHash } from 'node:crypto';
import { fail } from '../http/errors.ts';

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

/** The FTS5 MATCH expression: every word as a string literal (quotes doubled), all required. */
export const matchExpression = (words: string[]): string => words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' ');

/** Identifies the query a cursor was issued for, so a cursor cannot page another query's results. */
const queryHash = (words: string[]): string =>
  createHash('sha256')
    .update(words.map((w) => w.toLowerCase()).join('\u0000'))
    .digest('base64url')
    .slice(0, 12);

/**
 * Where a ranked result list continues: the position in the ranking already shown, and the
 * window of posts.seq being ranked. `ceiling` is the newest post when the first page was served
 * (later posts stay out, so they cannot push results into a page already read); `floor` bounds
 * the window from below (see MAX_RANKED in search.ts). Positions count ranked candidates, live or
 * not, so a post of a deleted account skipped on one page cannot shift the next.
 */
export interface SearchPosition {
  offset: number;
  floor: number;
  ceiling: number;
}

export function encodeSearchCursor(words: string[], pos: SearchPosition): string {
  return Buffer.from(`${SEARCH_FEED}:${pos.offset}:${pos.floor}:${pos.ceiling}:${queryHash(words)}`).toString('base64url');
}

export function decodeSearchCursor(words: string[], cursor: string): SearchPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const feed = /^([a-z_]+):/.exec(text)?.[1];
  if (feed !== undefined && feed !== SEARCH_FEED) fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: `cursor belongs to the ${feed} feed` });
  const m = /^search:(\d{1,9}):(\d{1,15}):(\d{1,15}):([A-Za-z0-9_-]{12})$/.exec(text);
  if (!m) fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: 'malformed cursor' });
  if (m[4] !== queryHash(words))
    fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: 'cursor belongs to another query: send the same q as the page that returned it' });
  return { offset: Number(m[1]), floor: Number(m[2]), ceiling: Number(m[3]) };
}
