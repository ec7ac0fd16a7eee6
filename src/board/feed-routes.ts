// The board's reads: the thread feed, a thread, the rules and the activity feed (valibot schemas
// in schemas.ts, and wiring). The rules live in feeds.ts.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { jsonAnswer } from '../http/contract.ts';
import type { ErrorCode } from '../http/errors.ts';
import { doc } from '../http/openapi-detail.ts';
import { ActivityAnswer, activity, listThreads, RULES_DISCUSSION_MAX, RulesAnswer, readRules, readThread, ThreadAnswer, ThreadsAnswer } from './feeds.ts';
import { ActivityQuery, FeedQuery, PostId, ThreadQuery } from './schemas.ts';
import { READABLE_TOPICS } from './topics.ts';

const TAGS = ['board'];
const PAGE_CODES: ErrorCode[] = ['INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_REQUEST'];

const PUBS_OPTION_DOC =
  'Board feed option: pubs_limit, pubs_before or pubs_after adds member pubs, the publication activity (as GET /v1/pubs/activity), on its own cursor: a board cursor there, or a publication cursor in before/after, is 400 INVALID_CURSOR. Without them the answer has no pubs member.';

export const boardFeedRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'board-feeds', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .get('/v1/posts', ({ account, query }) => listThreads(ctx, account, query), {
      auth: true,
      query: FeedQuery,
      detail: doc({
        summary: 'Live threads, newest first',
        description:
          'limit 1..100 (default 25); before=C for the next older page, after=C for the threads just newer than C (still newest first); never both. ' +
          'Cursors are opaque and belong to this feed. An empty page has next_after null: keep your cursor. ' +
          `topic narrows to one of ${READABLE_TOPICS.join(', ')}; without it the rules root is left out (read it through /v1/rules). ` +
          'Posts have reply_count; a reply (elsewhere) has reply_count null and title null. ' +
          PUBS_OPTION_DOC,
        tags: TAGS,
        auth: true,
        answers: { 200: jsonAnswer(ThreadsAnswer, 'One page of live threads, newest first, with your voting state.') },
        errors: [...PAGE_CODES, 'INVALID_TOPIC', 'USE_SHOW_LANE'],
      }),
    })
    .get('/v1/posts/:id', ({ account, params, query }) => readThread(ctx, account, params.id, query), {
      auth: true,
      params: PostId,
      query: ThreadQuery,
      detail: doc({
        summary: 'A thread with its replies, oldest first',
        description:
          '{id} is the root or any live reply (then focus names that reply and its whole thread is answered). Replies are oldest first, limit 1..200 (default 100), ' +
          'paged forward with after=next_after until a page comes back empty (next_after null keeps your position). A deleted or unknown thread is 404. ' +
          'A post an operator removed (with its thread, for a reply) is 404 too, except to its author, who gets 410 POST_REMOVED with details.reason.',
        tags: TAGS,
        auth: true,
        answers: { 200: jsonAnswer(ThreadAnswer, 'The thread root and one page of its replies, oldest first, with your voting state.') },
        errors: ['NOT_FOUND', 'POST_REMOVED', 'INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_REQUEST'],
      }),
    })
    .get('/v1/rules', ({ account }) => readRules(ctx, account), {
      auth: true,
      detail: doc({
        summary: 'The current rules and their discussion',
        description:
          `rules: {id, body, edited_at, edited_by (account name, null before the first edit)}. discussion: the newest ${RULES_DISCUSSION_MAX} live replies, oldest first; ` +
          'discussion_truncated is true when older ones exist (page them with GET /v1/posts/{rules.id}). Reply with POST /v1/posts/{rules.id}/replies.',
        tags: TAGS,
        auth: true,
        answers: { 200: jsonAnswer(RulesAnswer, 'The rules text and the newest part of its discussion, with your voting state.') },
        errors: ['NOT_FOUND'],
      }),
    })
    .get('/v1/activity', ({ account, query }) => activity(ctx, account, query), {
      auth: true,
      query: ActivityQuery,
      detail: doc({
        summary: 'Recent posts and replies, newest first',
        description:
          'Every live post and reply of live threads (the rules root itself is left out, its discussion is not). limit 1..100 (default 25); before/after as on GET /v1/posts, with cursors of this feed only. ' +
          PUBS_OPTION_DOC,
        tags: TAGS,
        auth: true,
        answers: { 200: jsonAnswer(ActivityAnswer, 'One page of posts and replies, newest first, with your voting state.') },
        errors: PAGE_CODES,
      }),
    });
