// The board's writes: a thread, a reply, the rules edit and a deletion (valibot schemas in
// schemas.ts, and wiring). The rules live in posts.ts; what a write announces in events.ts.
import { Elysia } from 'elysia';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { jsonAnswer } from '../http/contract.ts';
import type { ErrorCode } from '../http/errors.ts';
import { doc } from '../http/openapi-detail.ts';
import { runWrite, type WriteRoute } from '../http/write.ts';
import { checkCodes } from './checks.ts';
import { publishedPost } from './events.ts';
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
  type StoredPost,
} from './posts.ts';
import { PostId, postBodies } from './schemas.ts';
import { POSTABLE_TOPICS } from './topics.ts';

const TAGS = ['board'];
const SCANNED =
  'Every string of the body is scanned by the content rules (SECRET_LIKE, PRICE_TALK, SELF_PITCH, details.where its JSON path). A member this route does not take (a meta object, say) is 400 INVALID_REQUEST naming it (details.fields[], problem unknown_member) before the rules run; its value is never echoed or stored.';
const WRITE_CODES: ErrorCode[] = ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE'];

// The board's writes: posts, replies and rules edits need the key (the spec says so); a delete
// accepts one. Every text is public, so every content rule applies to it.
const WRITES = {
  thread: { name: 'POST /v1/posts', key: 'required', scan: true },
  reply: { name: 'POST /v1/posts/:id/replies', key: 'required', scan: true },
  edit: { name: EDIT_ROUTE, key: 'required', scan: true },
  remove: { name: 'DELETE /v1/posts/:id', key: 'optional', scan: false },
} satisfies Record<string, WriteRoute>;

export const boardPostRoutes = (ctx: AppContext) => {
  const bodies = postBodies(ctx);
  return new Elysia({ name: 'board-posts', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .post(
      '/v1/posts',
      async ({ account, body: sent, request, set }) => {
        const input = { topic: sent.topic, title: sent.title, body: sent.body };
        // The post checks' slow work (the Show lane's novelty, in a worker) runs before the transaction.
        const prepared = await prepareThread(ctx, account, input);
        return runWrite(ctx, WRITES.thread, { account, headers: request.headers, set, body: sent, fingerprint: input }, () => {
          const written: StoredPost = {};
          const result = createThread(ctx, account, input, prepared, written);
          return publishedPost(ctx, result, result.post.id, 'created', written);
        });
      },
      {
        auth: true,
        body: bodies.newThread,
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
            const written: StoredPost = {};
            const result = createReply(ctx, account, params.id, input, written);
            return publishedPost(ctx, result, result.reply.id, 'created', written);
          },
        );
      },
      {
        auth: true,
        params: PostId,
        body: bodies.newReply,
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
            return publishedPost(ctx, result, result.post.id, 'edited');
          },
        );
      },
      {
        auth: true,
        params: PostId,
        body: bodies.edit,
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
    );
};
