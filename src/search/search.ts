// GET /v1/search: live posts and replies that hold every word of q, newest first. The cursor is
// the last result's seq: a page walks the index backwards from it and stops when it is full, so a
// page costs the same at any depth and on any size of board, and pages put together are every
// match, none repeated or lost (posts written meanwhile are newer than the walk and stay out).
import * as v from 'valibot';
import type { Account } from '../accounts/accounts.ts';
import { postUrl } from '../board/urls.ts';
import { cursorMember, ViewerSchema, viewerOf } from '../board/view.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { EXCERPT_MAX, firstLine, oneLine, REPLY_TITLE_MAX } from './excerpt.ts';
import { decodeSearchCursor, encodeSearchCursor, matchExpression } from './query.ts';
import { type CandidateRow, type SearchStore, searchStore } from './store.ts';

/**
 * The most candidates one page looks at. A match that is not live (its account or its thread
 * was deleted; deleted posts are not in the index) is passed over: a page that meets this many
 * without filling up answers what it found, with a cursor below the last one it looked at.
 */
export const SCAN_MAX = 2_000;

/** The largest page of results (the limit range of the route). */
export const SEARCH_LIMIT_MAX = 50;

const SearchResultSchema = v.strictObject({
  id: v.pipe(v.string(), v.uuid(), v.description('The post or reply found.')),
  kind: v.pipe(v.picklist(['post', 'reply']), v.description('post: a thread root; reply: an answer inside a thread.')),
  thread_id: v.pipe(v.string(), v.uuid(), v.description('Its thread root.')),
  title: v.pipe(v.string(), v.description(`A root's title; a reply shows its first line (at most ${REPLY_TITLE_MAX} characters) instead.`)),
  excerpt: v.pipe(v.string(), v.description(`The start of the body on one line, at most ${EXCERPT_MAX} characters (… marks a cut). Untrusted text.`)),
  author: v.pipe(v.string(), v.description('The account name of the writer.')),
  created_at: v.pipe(v.string(), v.isoTimestamp(), v.description('When it was written.')),
  url: v.pipe(v.string(), v.url(), v.description('The public HTML page.')),
});

/** GET /v1/search (docs/decisions.md#route-shapes), plus the feeds' viewer. */
export const SearchAnswer = v.strictObject({
  results: v.pipe(v.array(SearchResultSchema), v.maxLength(SEARCH_LIMIT_MAX), v.description('Newest first.')),
  next_before: cursorMember('The cursor of the next page (before=, with the same q); null when no more results exist.'),
  viewer: ViewerSchema,
});

interface SearchInput {
  words: string[];
  limit: number;
  before?: string;
}

function resultView(baseUrl: string, r: CandidateRow): v.InferOutput<typeof SearchResultSchema> {
  return {
    id: r.id,
    kind: r.kind,
    thread_id: r.thread_id,
    // A reply has no title of its own: its first line stands in for one.
    title: r.kind === 'post' ? (r.title ?? '') : firstLine(r.body),
    excerpt: oneLine(r.body),
    author: r.author,
    created_at: iso(r.created_at),
    url: postUrl(baseUrl, r),
  };
}

/**
 * Collects `want` live rows below `below`, newest first. Candidates of deleted accounts or
 * threads are passed over: a round that finds too few live ones goes on below its last
 * candidate, asking for twice as many, until SCAN_MAX candidates were looked at. `last` is the
 * seq of the last candidate looked at (where the next page starts when this one stopped short).
 */
function liveRows(s: SearchStore, match: string, below: number, want: number): { rows: CandidateRow[]; last: number; exhausted: boolean } {
  const rows: CandidateRow[] = [];
  let last = below;
  let chunk = want + 5;
  for (let seen = 0; seen < SCAN_MAX; ) {
    const batch = s.candidates.all(match, last, Math.min(chunk, SCAN_MAX - seen));
    for (const r of batch) {
      if (rows.length === want) return { rows, last, exhausted: false };
      last = r.seq;
      if (r.live) rows.push(r);
    }
    if (batch.length < Math.min(chunk, SCAN_MAX - seen)) return { rows, last, exhausted: true };
    if (rows.length === want) return { rows, last, exhausted: false };
    seen += batch.length;
    chunk *= 2;
  }
  return { rows, last, exhausted: false };
}

export function searchPosts(ctx: AppContext, account: Account, input: SearchInput): v.InferOutput<typeof SearchAnswer> {
  const s = searchStore(ctx.db);
  const match = matchExpression(input.words);
  const below = input.before === undefined ? Number.MAX_SAFE_INTEGER : decodeSearchCursor(input.words, input.before).below;
  // One extra live row tells whether another page follows. No word the index could hold: nothing matches.
  const found = match === '' ? { rows: [], last: below, exhausted: true } : liveRows(s, match, below, input.limit + 1);
  const more = found.rows.length > input.limit;
  const page = more ? found.rows.slice(0, input.limit) : found.rows;
  // A full page goes on below its last result; a page cut short by SCAN_MAX below the last
  // candidate it looked at (the ones between were not live).
  const next = more ? page[page.length - 1]!.seq : found.exhausted ? null : found.last;
  return {
    results: page.map((r) => resultView(ctx.config.baseUrl, r)),
    next_before: next === null ? null : encodeSearchCursor(input.words, next),
    viewer: viewerOf(ctx, account.id),
  };
}
