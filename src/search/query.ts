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

/** The last result a page showed, by the ranking's own order: its bm25 score and its seq. */
export interface RankKey {
  score: number;
  seq: number;
}

/**
 * Where a ranked result list continues: after `after` in the ranking (keyset: best score first,
 * equal scores newest first), or, for a cursor issued before keyset paging, after `offset` ranked
 * candidates; and the window of posts.seq being ranked. `ceiling` is the newest post when the
 * first page was served (later posts stay out, so they cannot push results into a page already
 * read); `floor` bounds the window from below (see MAX_RANKED in search.ts).
 */
export interface SearchPosition {
  after: RankKey | null;
  /** Only from a cursor of the earlier offset form: how many ranked candidates it had passed. */
  offset?: number;
  floor: number;
  ceiling: number;
}

// A score travels as the 16 hex digits of its IEEE-754 bits: exact, so that the next page
// compares against the very value SQLite computed (a decimal rendering might round).
const scoreHex = (score: number): string => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, score);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
};
const scoreOf = (hex: string): number => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
};

const malformed = (): never => fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: 'malformed cursor' });

/** The cursor of the page after `after` (keyset form: `search:k:<score bits>:<seq>:<floor>:<ceiling>:<query hash>`). */
export function encodeSearchCursor(words: string[], pos: { after: RankKey; floor: number; ceiling: number }): string {
  return Buffer.from(`${SEARCH_FEED}:k:${scoreHex(pos.after.score)}:${pos.after.seq}:${pos.floor}:${pos.ceiling}:${queryHash(words)}`).toString('base64url');
}

/**
 * Reads a search cursor: the keyset form, or the earlier offset form
 * (`search:<offset>:<floor>:<ceiling>:<hash>`), still accepted so that a walk begun before the
 * change goes on (the next cursor it gets is a keyset one).
 */
export function decodeSearchCursor(words: string[], cursor: string): SearchPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const feed = /^([a-z_]+):/.exec(text)?.[1];
  if (feed !== undefined && feed !== SEARCH_FEED) fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: `cursor belongs to the ${feed} feed` });
  const keyset = /^search:k:([0-9a-f]{16}):(\d{1,15}):(\d{1,15}):(\d{1,15}):([A-Za-z0-9_-]{12})$/.exec(text);
  const offset = keyset ? null : /^search:(\d{1,9}):(\d{1,15}):(\d{1,15}):([A-Za-z0-9_-]{12})$/.exec(text);
  const hash = keyset?.[5] ?? offset?.[4] ?? malformed();
  if (hash !== queryHash(words))
    fail('INVALID_CURSOR', { feed: SEARCH_FEED, reason: 'cursor belongs to another query: send the same q as the page that returned it' });
  if (keyset) {
    const score = scoreOf(keyset[1]!);
    if (!Number.isFinite(score)) malformed();
    return { after: { score, seq: Number(keyset[2]) }, floor: Number(keyset[3]), ceiling: Number(keyset[4]) };
  }
  return { after: null, offset: Number(offset![1]), floor: Number(offset![2]), ceiling: Number(offset![3]) };
}
