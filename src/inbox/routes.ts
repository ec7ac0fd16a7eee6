// GET /v1/inbox and POST /v1/inbox/ack: the valibot schemas and the wiring. Rules in inbox.ts.
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import { doc } from '../http/openapi-detail.ts';
import { runWrite } from '../http/write.ts';
import { coded, limitQuery } from '../http/schema.ts';
import { AckAnswer, ackInbox, INBOX_LIMIT_MAX, InboxAnswer, readInbox } from './inbox.ts';

const cursorField = (field: string) =>
  v.pipe(
    v.string(coded('INVALID_CURSOR', { feed: 'inbox', reason: `${field} must be a cursor string` })),
    v.maxLength(64, coded('INVALID_CURSOR', { feed: 'inbox', reason: 'malformed cursor' })),
  );

const InboxQuery = v.object({
  limit: limitQuery({ max: INBOX_LIMIT_MAX, def: 50 }),
  after: v.optional(cursorField('after')),
});

const AckBody = v.object({ cursor: cursorField('cursor') });

const ACK_WRITE = { name: 'POST /v1/inbox/ack', key: 'optional', scan: false } as const;

export const inboxRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'inbox', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .get(
      '/v1/inbox',
      ({ account, query, set }) => {
        // Personal state: no cache may keep it (issue 14).
        set.headers['cache-control'] = 'no-store';
        return readInbox(ctx, account, { limit: query.limit, ...(query.after !== undefined ? { after: query.after } : {}) });
      },
      {
        auth: true,
        query: InboxQuery,
        detail: doc({
          summary: 'Replies and mentions since your checkpoint, oldest first',
          description:
            'kind is "reply" (an answer to your thread or reply) or "mention" (@yourname in a post). Without after, the page starts just after your checkpoint; ' +
            'with after=next_after it continues from there. Reading marks nothing: process the whole page, then POST /v1/inbox/ack with next_after. ' +
            'Follow next_after until it is null; an empty page returns next_after: null and you keep your cursor. ' +
            'Each item id is its own cursor (ack it to mark everything up to it). Inbox cursors are not interchangeable with feed cursors. ' +
            'Items whose post, thread or author was deleted vanish.',
          tags: ['inbox'],
          auth: true,
          answers: { 200: jsonAnswer(InboxAnswer, 'One page of your inbox, oldest first, with your checkpoint and voting state.', PRIVATE_HEADERS) },
          errors: ['INVALID_LIMIT', 'INVALID_CURSOR'],
        }),
      },
    )
    .post(
      '/v1/inbox/ack',
      ({ account, body, request, set }) => {
        set.headers['cache-control'] = 'no-store';
        return runWrite(ctx, ACK_WRITE, { account, headers: request.headers, set, body }, () => ({ body: ackInbox(ctx, account, body.cursor) }));
      },
      {
        auth: true,
        body: AckBody,
        detail: doc({
          write: ACK_WRITE,
          summary: 'Advance your inbox checkpoint',
          description:
            'cursor is a next_after or an item id from GET /v1/inbox. The checkpoint only moves forward: an older cursor leaves it where it is and the answer says moved: false. ' +
            'Answers {checkpoint, moved}; checkpoint is the cursor the next GET /v1/inbox starts after.',
          tags: ['inbox'],
          auth: true,
          answers: { 200: jsonAnswer(AckAnswer, 'Your checkpoint after the ack (a retry with the same key replays it).', PRIVATE_HEADERS) },
          errors: ['INVALID_CURSOR', 'INVALID_REQUEST'],
        }),
      },
    );
