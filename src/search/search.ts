// GET /v1/search: live posts and replies ranked by how well they match the words of q.
// Ranked results have no sequence of their own, so the cursor carries the last result's place in
// the ranking (its score and seq: a keyset), pinned to the window of posts that the first page
// ranked. A page scores the window's matches once and keeps only itself: its cost does not grow
// with how deep it is.
import * as v from 'valibot';
import type { Account } from '../accounts/accounts.ts';
import { postUrl } from '../board/urls.ts';
import { cursorMember, ViewerSchema, viewerOf } from '../board/view.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { EXCERPT_MAX, firstLine, oneLine, REPLY_TITLE_MAX } from './excerpt.ts';
import { decodeSearchCursor, encodeSearchCursor, matchExpression, type RankKey, type SearchPosition } from './query.ts';
import { BEFORE_FIRST, type CandidateRow, type SearchStore, searchStore } from './store.ts';

/**
 * How many of the newest matching posts are ranked. bm25 must score every candidate (about half
 * a microsecond per word and post) before the best can be picked, so a word found in most of the
 * board would cost tens of milliseconds at 100,000 posts. Ranking the newest 5,000 matches bounds
 * that to a few milliseconds and only affects queries matching more than 5,000 posts, whose words
 * are so common that bm25 tells little (their weight tends to zero) and recency says more.
 * More words narrow the query and reach older posts.
 */
export const MAX_RANKED = 5_000;

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

/** GET /v1/search (03-decisions §3), plus the feeds' viewer. */
export const SearchAnswer = v.strictObject({
  results: v.pipe(v.array(SearchResultSchema), v.maxLength(SEARCH_LIMIT_MAX), v.description('Best match first.')),
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

/** The lowest seq ranked below `ceiling`: the MAX_RANKED-th newest match, or 0 when fewer match. */
const floorBelow = (s: SearchStore, match: string, ceiling: number): number => s.nthNewestMatch.get(match, ceiling, MAX_RANKED - 1)?.seq ?? 0;

/**
 * Collects `want` live rows from the ranking, after `after`. Candidates of deleted accounts or
 * threads are skipped: a round that finds too few live ones goes on after its last candidate,
 * asking for twice as many, so a run of skipped candidates costs a few rounds at most (each round
 * scores the window once; the window holds at most MAX_RANKED matches).
 */
function liveRows(s: SearchStore, match: string, pos: { after: RankKey; floor: number; ceiling: number }, want: number): CandidateRow[] {
  const rows: CandidateRow[] = [];
  let after = pos.after;
  let chunk = want + 5;
  for (let seen = 0; rows.length < want && seen < MAX_RANKED; ) {
    const batch =
      after === BEFORE_FIRST
        ? s.firstCandidates.all(match, pos.floor, pos.ceiling, chunk)
        : s.candidates.all(match, pos.floor, pos.ceiling, after.score, after.seq, chunk);
    for (const r of batch) if (r.live && rows.length < want) rows.push(r);
    if (batch.length < chunk) break;
    const last = batch[batch.length - 1]!;
    after = { score: last.score, seq: last.seq };
    seen += batch.length;
    chunk *= 2;
  }
  return rows;
}

/** Where a cursor of the earlier offset form continues: after its offset-th ranked candidate. */
function keyOfOffset(s: SearchStore, match: string, pos: SearchPosition): RankKey | null {
  if (!pos.offset) return BEFORE_FIRST;
  return s.rankedAt.get(match, pos.floor, pos.ceiling, pos.offset - 1);
}

export function searchPosts(ctx: AppContext, account: Account, input: SearchInput): v.InferOutput<typeof SearchAnswer> {
  const s = searchStore(ctx.db);
  const match = matchExpression(input.words);
  let pos: { after: RankKey | null; floor: number; ceiling: number };
  if (input.before === undefined) {
    const ceiling = s.newestSeq.get()!.seq;
    pos = { after: BEFORE_FIRST, floor: floorBelow(s, match, ceiling), ceiling };
  } else {
    const at = decodeSearchCursor(input.words, input.before);
    // The window never widens beyond MAX_RANKED matches, whatever a cursor says.
    const window = { floor: Math.max(at.floor, floorBelow(s, match, at.ceiling)), ceiling: at.ceiling };
    pos = { ...window, after: at.after ?? keyOfOffset(s, match, { ...at, ...window }) };
  }
  // An offset cursor past the end of the ranking: nothing follows.
  const rows = pos.after ? liveRows(s, match, { ...pos, after: pos.after }, input.limit + 1) : [];
  // One extra row tells whether another page follows.
  const more = rows.length > input.limit;
  const page = more ? rows.slice(0, input.limit) : rows;
  const last = page[page.length - 1];
  return {
    results: page.map((r) => resultView(ctx.config.baseUrl, r)),
    next_before: more && last ? encodeSearchCursor(input.words, { after: { score: last.score, seq: last.seq }, floor: pos.floor, ceiling: pos.ceiling }) : null,
    viewer: viewerOf(ctx, account.id),
  };
}
