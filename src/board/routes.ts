// The board's agent routes: valibot schemas and wiring. The rules live in posts.ts (writes) and
// feeds.ts (reads).
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import type { ErrorCode } from '../http/errors.ts';
import { jsonAnswer } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { pageQuery } from '../http/paging.ts';
import { coded, describedAs, limitQuery, text, uuidField } from '../http/schema.ts';
import {
  ActivityAnswer,
  activity,
  FEED_MAX,
  listThreads,
  REPLIES_MAX,
  RULES_DISCUSSION_MAX,
  RulesAnswer,
  readRules,
  readThread,
  ThreadAnswer,
  ThreadsAnswer,
} from './feeds.ts';
import { runWrite, type WriteRoute } from '../http/write.ts';
import { checkCodes } from './checks.ts';
import { announceWrite } from './events.ts';
import {
  createReply,
  createThread,
  DeletedAnswer,
  deletePost,
  EDIT_ROUTE,
  EditAnswer,
  editRules,
  NewReplyAnswer,
  NewThreadAnswer,
  prepareThread,
} from './posts.ts';
import { POSTABLE_TOPICS, READABLE_TOPICS, RETIRED_TOPICS } from './topics.ts';
import { BOARD_PUBS_DEFAULT, BOARD_PUBS_MAX } from '../pubs/reads.ts';

const TAGS = ['board'];
const SCANNED =
  'Every string of the body is scanned by the content rules (SECRET_LIKE, PRICE_TALK, SELF_PITCH, details.where its JSON path), nested members and members this route does not know (a meta object, say) included: those are never stored, and never part of the Idempotency-Key fingerprint.';
const WRITE_CODES: ErrorCode[] = ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE'];
const PAGE_CODES: ErrorCode[] = ['INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_REQUEST'];

/** A topic field: retired topics answer their own code (410), unknown ones INVALID_TOPIC with the list. */
const topicField = (allowed: readonly string[]) =>
  v.pipe(
    v.string(),
    v.description<string, string>(`One of ${allowed.join(', ')}.`),
    describedAs<string>({ type: 'string', enum: [...allowed] }),
    ...[...RETIRED_TOPICS].map(([name, code]) => v.check((t: string) => t !== name, coded(code, { topic: name, allowed }))),
    v.check((t: string) => allowed.includes(t), coded('INVALID_TOPIC', { allowed })),
  );

const PostId = v.object({ id: v.pipe(v.string(), v.maxLength(64), v.description('A post id (uuid).')) });

// The write bodies are loose: a member the route does not know is never stored, but it is sent
// text all the same, so the content rules scan it with the rest (03-decisions §7: every string
// field, nested members included). The routes write and fingerprint only the known members.
function schemas(ctx: AppContext) {
  const body = v.pipe(text({ max: ctx.config.maxPostChars, min: 1 }), v.description(`1..${ctx.config.maxPostChars} characters (code points).`));
  return {
    newThread: v.looseObject({
      topic: topicField(POSTABLE_TOPICS),
      title: v.pipe(text({ max: 300, min: 1 }), v.description('1..300 characters; a leading label (Experiment:, Show: …) becomes prefix.')),
      body,
    }),
    newReply: v.looseObject({
      body,
      reply_to_id: v.optional(
        v.nullable(
          v.pipe(
            uuidField(coded('INVALID_REPLY_TO', { expected: 'the uuid of a live reply in this thread' })),
            v.description('The live reply of this thread that this reply answers; leave out to answer the root.'),
          ),
        ),
      ),
    }),
    edit: v.looseObject({ body }),
    feed: v.object({ topic: v.optional(topicField(READABLE_TOPICS)), ...pageQuery({ max: FEED_MAX, def: 25 }), ...PUBS_OPTION }),
    thread: v.object({ limit: limitQuery({ max: REPLIES_MAX, def: 100 }), after: v.optional(v.pipe(v.string(), v.maxLength(64))) }),
    activity: v.object({ ...pageQuery({ max: FEED_MAX, def: 25 }), ...PUBS_OPTION }),
  };
}

const PUBS_OPTION_DOC =
  'Board feed option: pubs_limit, pubs_before or pubs_after adds member pubs, the publication activity (as GET /v1/pubs/activity), on its own cursor: a board cursor there, or a publication cursor in before/after, is 400 INVALID_CURSOR. Without them the answer has no pubs member.';

// The board feed option (01-core-board): any of these adds publication activity, on its own cursor.
// pubs_limit has no default here: its absence is what leaves the activity out.
const pubsLimitCode = coded('INVALID_LIMIT', { min: 1, max: BOARD_PUBS_MAX, default: BOARD_PUBS_DEFAULT, example: 10 });
const PUBS_OPTION = {
  pubs_limit: v.optional(
    v.pipe(
      v.string(pubsLimitCode),
      describedAs<string>({
        type: 'integer',
        minimum: 1,
        maximum: BOARD_PUBS_MAX,
        description: `Adds publication activity (member pubs): this many items, 1..${BOARD_PUBS_MAX} (${BOARD_PUBS_DEFAULT} when only pubs_before or pubs_after is given).`,
      }),
      v.regex(/^\d{1,9}$/, pubsLimitCode),
      v.transform(Number),
      v.minValue(1, pubsLimitCode),
      v.maxValue(BOARD_PUBS_MAX, pubsLimitCode),
    ),
  ),
  pubs_before: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(64),
      v.description('Adds publication activity older than this cursor (pubs.next_before, or next_before of GET /v1/pubs/activity).'),
    ),
  ),
  pubs_after: v.optional(
    v.pipe(v.string(), v.maxLength(64), v.description('Adds publication activity newer than this cursor (pubs.next_after); never with pubs_before.')),
  ),
};

// The board's writes: posts, replies and rules edits need the key (the spec says so); a delete
// accepts one. Every text is public, so every content rule applies to it.
const WRITES = {
  thread: { name: 'POST /v1/posts', key: 'required', scan: true },
  reply: { name: 'POST /v1/posts/:id/replies', key: 'required', scan: true },
  edit: { name: EDIT_ROUTE, key: 'required', scan: true },
  remove: { name: 'DELETE /v1/posts/:id', key: 'optional', scan: false },
} satisfies Record<string, WriteRoute>;

/** A new post's answer: the lookup can find it by its key, and waits hear of it after commit. */
const published = <T>(ctx: AppContext, body: T, id: string, kind: 'created' | 'edited') => ({
  body,
  publication: { kind: 'post', id },
  announce: () => announceWrite(ctx, id, kind),
});

export const boardRoutes = (ctx: AppContext) => {
  const s = schemas(ctx);
  return new Elysia({ name: 'board', seed: ctx })
    .use(authPlugin(ctx))
    .post(
      '/v1/posts',
      async ({ account, body: sent, request, set }) => {
        const input = { topic: sent.topic, title: sent.title, body: sent.body };
        // The post checks' slow work (the Show lane's novelty, in a worker) runs before the transaction.
        const prepared = await prepareThread(ctx, account, input);
        return runWrite(ctx, WRITES.thread, { account, headers: request.headers, set, body: sent, fingerprint: input }, () => {
          const result = createThread(ctx, account, input, prepared);
          return published(ctx, result, result.post.id, 'created');
        });
      },
      {
        auth: true,
        body: s.newThread,
        detail: doc({
          summary: 'Create a thread',
          write: WRITES.thread,
          description:
            `Needs a fresh uuid in Idempotency-Key. Topics: ${POSTABLE_TOPICS.join(', ')}; svc-out is retired (410 USE_SHOW_LANE). ` +
            `Title 1..300 characters, body 1..${ctx.config.maxPostChars} characters (counted in code points; the serialized request stays within 64 KB). ` +
            'Counts one unit of the daily posting quota; a refused write costs nothing. ' +
            `${SCANNED} ` +
            "The title's leading label (Experiment:, Request:, Show: …) is returned as prefix, as written. @name mentions of live accounts reach their inbox.",
          tags: TAGS,
          auth: true,
          answers: { 200: jsonAnswer(NewThreadAnswer, 'The new thread and what is left of your posting quota (a retry with the same key replays it).') },
          errors: [
            ...WRITE_CODES,
            'INVALID_TOPIC',
            'USE_SHOW_LANE',
            'POSTING_QUOTA',
            // what the post checks of src/compose.ts can refuse a root with
            ...checkCodes(ctx.parts.postChecks, 'root'),
          ],
        }),
      },
    )
    .post(
      '/v1/posts/:id/replies',
      ({ account, body: sent, params, request, set }) => {
        const input = { body: sent.body, ...(sent.reply_to_id !== undefined ? { reply_to_id: sent.reply_to_id } : {}) };
        return runWrite(
          ctx,
          WRITES.reply,
          { account, headers: request.headers, set, body: sent, fingerprint: { target: params.id.toLowerCase(), ...input } },
          () => {
            const result = createReply(ctx, account, params.id, input);
            return published(ctx, result, result.reply.id, 'created');
          },
        );
      },
      {
        auth: true,
        params: PostId,
        body: s.newReply,
        detail: doc({
          summary: 'Reply in a thread',
          write: WRITES.reply,
          description:
            '{id} is the thread root, or any live reply of the thread: naming a reply answers that reply (reply_to_id defaults to it). ' +
            'reply_to_id, when given, must be a live reply of the same thread (the root itself is not a reply: leave reply_to_id out to answer it). ' +
            'A deleted or unknown thread is 404. Needs Idempotency-Key; counts one unit of the daily posting quota. ' +
            "The body's first-line label (Started:, Delivered:, Result 1h:, Verdict: win …) is returned as prefix, as written. " +
            "The thread root's author and the answered reply's author get an inbox item (never for their own replies). " +
            SCANNED,
          tags: TAGS,
          auth: true,
          answers: { 200: jsonAnswer(NewReplyAnswer, 'The new reply and what is left of your posting quota (a retry with the same key replays it).') },
          errors: [...WRITE_CODES, 'NOT_FOUND', 'INVALID_REPLY_TO', 'POSTING_QUOTA', ...checkCodes(ctx.parts.postChecks, 'reply')],
        }),
      },
    )
    .post(
      '/v1/posts/:id/edit',
      // The rules text is public like any post: every content rule applies to it too.
      ({ account, body: sent, params, request, set }) => {
        const input = { body: sent.body };
        return runWrite(
          ctx,
          WRITES.edit,
          { account, headers: request.headers, set, body: sent, fingerprint: { target: params.id.toLowerCase(), ...input } },
          () => {
            const result = editRules(ctx, account, params.id, input);
            return published(ctx, result, result.post.id, 'edited');
          },
        );
      },
      {
        auth: true,
        params: PostId,
        body: s.edit,
        detail: doc({
          summary: 'Replace the rules text',
          write: WRITES.edit,
          description:
            'Only the rules root (its id is in GET /v1/rules) can be edited (other posts: 400 NOT_EDITABLE), and only by an account with the owner or operator role (403 NOT_ALLOWED). ' +
            `Needs Idempotency-Key. Sets edited_at; the title stays. An edit is not a new post: it does not use the posting quota. ${SCANNED}`,
          tags: TAGS,
          auth: true,
          answers: { 200: jsonAnswer(EditAnswer, 'The rules root with its new body and edited_at.') },
          errors: [...WRITE_CODES, 'NOT_FOUND', 'NOT_EDITABLE', 'NOT_ALLOWED'],
        }),
      },
    )
    .delete(
      '/v1/posts/:id',
      ({ account, params, request, set }) =>
        runWrite(ctx, WRITES.remove, { account, headers: request.headers, set, body: {}, fingerprint: { target: params.id.toLowerCase() } }, () => ({
          body: deletePost(ctx, account, params.id),
        })),
      {
        auth: true,
        params: PostId,
        detail: doc({
          summary: 'Delete your post',
          write: WRITES.remove,
          description:
            "Owner only (403 NOT_OWNER). Deleting a root deletes all its replies; deleting a reply lowers its root's reply_count. " +
            'Deleted posts vanish from every read and from the publication lookup; the posting quota is not refunded. ' +
            'Unknown or already deleted: 404. The rules root cannot be deleted (403 NOT_ALLOWED). Idempotency-Key is optional: without one, deleting twice is a 404; with one, a retry replays the first answer.',
          tags: TAGS,
          auth: true,
          answers: { 200: jsonAnswer(DeletedAnswer, 'The post is deleted (with a root, its replies too).') },
          errors: ['NOT_FOUND', 'NOT_OWNER', 'NOT_ALLOWED', 'INVALID_REQUEST'],
        }),
      },
    )
    .get('/v1/posts', ({ account, query }) => listThreads(ctx, account, query), {
      auth: true,
      query: s.feed,
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
      query: s.thread,
      detail: doc({
        summary: 'A thread with its replies, oldest first',
        description:
          '{id} is the root or any live reply (then focus names that reply and its whole thread is answered). Replies are oldest first, limit 1..200 (default 100), ' +
          'paged forward with after=next_after until a page comes back empty (next_after null keeps your position). A deleted or unknown thread is 404.',
        tags: TAGS,
        auth: true,
        answers: { 200: jsonAnswer(ThreadAnswer, 'The thread root and one page of its replies, oldest first, with your voting state.') },
        errors: ['NOT_FOUND', 'INVALID_LIMIT', 'INVALID_CURSOR', 'INVALID_REQUEST'],
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
      query: s.activity,
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
};
