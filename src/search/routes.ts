// GET /v1/search: the valibot schema and the wiring. The rules live in search.ts and query.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { charCount } from '../http/body.ts';
import { jsonAnswer } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { coded, limitQuery } from '../http/schema.ts';
import { MAX_WORDS, Q_MAX_CHARS, searchWords } from './query.ts';
import { SCAN_MAX, SEARCH_LIMIT_MAX, SearchAnswer, searchPosts } from './search.ts';

const qMissing = coded('INVALID_REQUEST', {
  reason: 'q is required, once: one string of words (send the parameter a single time)',
  example: 'benchmark latency',
});
const qEmpty = coded('INVALID_REQUEST', { min_chars: 1, max_chars: Q_MAX_CHARS, reason: 'q is empty: send at least one word' });
const qLong = coded('INVALID_REQUEST', { min_chars: 1, max_chars: Q_MAX_CHARS, reason: `q is longer than ${Q_MAX_CHARS} characters` });
const noWords = coded('INVALID_REQUEST', {
  usable_words: [],
  reason: 'q holds no searchable word: words are runs of letters or digits; punctuation, symbols and emoji are ignored',
  example: 'benchmark latency',
});

const SearchQuery = v.object({
  // The words are cut out here, once: the handler only ever sees searchable words.
  q: v.pipe(
    v.string(qMissing),
    v.description(`Words to find, 1..${Q_MAX_CHARS} characters; never full-text syntax.`),
    // At least one word (a letter or a digit), as searchWords reads them: else 400 INVALID_REQUEST.
    v.metadata({ minLength: 1, maxLength: Q_MAX_CHARS, pattern: '[\\p{L}\\p{N}\\p{Co}]' }),
    v.minLength(1, qEmpty),
    v.check((q: string) => charCount(q) <= Q_MAX_CHARS, qLong),
    v.transform(searchWords),
    v.check((words: string[]) => words.length > 0, noWords),
  ),
  limit: limitQuery({ max: SEARCH_LIMIT_MAX, def: 20 }),
  before: v.optional(v.pipe(v.string(), v.maxLength(128, coded('INVALID_CURSOR', { feed: 'search', reason: 'malformed cursor' })))),
});

export const searchRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'search', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .get(
      '/v1/search',
      ({ account, query }) =>
        searchPosts(ctx, account, { words: query.q, limit: query.limit, ...(query.before !== undefined ? { before: query.before } : {}) }),
      {
        auth: true,
        query: SearchQuery,
        detail: doc({
          summary: 'Search live posts and replies by their words',
          description:
            `q (1..${Q_MAX_CHARS} characters) is words, never full-text syntax: it is cut into runs of letters and digits and every word must occur ` +
            `(stemmed: "benchmarks" finds "benchmark"; case and accents do not count; a word's combining marks are part of it), anywhere in the post: ` +
            'words are never matched side by side, and a word the index holds as pieces (split by an enclosing mark) asks for each piece. ' +
            `Quotes, operators and punctuation are ignored, and only the first ${MAX_WORDS} distinct words count. ` +
            'Results are newest first: every live post and reply holding all the words, the whole board reachable page by page. ' +
            'A reply shows its first line as title; excerpt is the start of the body on one line. ' +
            "Page with before=next_before and the same q. The cursor holds the last result's place (its post's sequence), so every page " +
            'costs what the first costs, however deep, and pages put together are every match with nothing repeated or left out; posts ' +
            'written while paging are newer than the walk and stay out of it (a new first page finds them). A page looks at no more than ' +
            `${SCAN_MAX} matches: when those are mostly the writing of deleted accounts or threads it may hold fewer than limit results ` +
            'and still give a next_before (go on until next_before is null). Cursors of the earlier ranked forms are still accepted: ' +
            'they go on, newest first, from the posts that existed at their first page. ' +
            'Deleted posts, replies of deleted threads and the writing of deleted accounts are never found.',
          tags: ['search'],
          auth: true,
          answers: { 200: jsonAnswer(SearchAnswer, 'One page of live posts and replies that hold every word, newest first, with your voting state.') },
          errors: ['INVALID_REQUEST', 'INVALID_LIMIT', 'INVALID_CURSOR'],
        }),
      },
    );
