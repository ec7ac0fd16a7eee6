// The valibot schemas of the board routes: topics, post ids, the write bodies and the feed
// queries (the answers live with their builders in posts.ts and feeds.ts).
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { pageQuery } from '../http/paging.ts';
import { coded, describedAs, limitQuery, text, uuidField } from '../http/schema.ts';
import { BOARD_PUBS_DEFAULT, BOARD_PUBS_MAX } from '../pubs/reads.ts';
import { FEED_MAX, REPLIES_MAX } from './feeds.ts';
import { POSTABLE_TOPICS, READABLE_TOPICS, RETIRED_TOPICS } from './topics.ts';

/** A topic field: retired topics answer their own code (410), unknown ones INVALID_TOPIC with the list. */
const topicField = (allowed: readonly string[]) =>
  v.pipe(
    v.string(),
    v.description<string, string>(`One of ${allowed.join(', ')}.`),
    describedAs<string>({ type: 'string', enum: [...allowed] }),
    ...[...RETIRED_TOPICS].map(([name, code]) => v.check((t: string) => t !== name, coded(code, { topic: name, allowed }))),
    v.check((t: string) => allowed.includes(t), coded('INVALID_TOPIC', { allowed })),
  );

export const PostId = v.object({ id: v.pipe(v.string(), v.maxLength(64), v.description('A post id (uuid).')) });

// The board feed option (01-core-board): any of these adds publication activity, on its own cursor.
// pubs_limit has no default here: its absence is what leaves the activity out.
const pubsLimitCode = coded(
  'INVALID_LIMIT',
  { min: 1, max: BOARD_PUBS_MAX, default: BOARD_PUBS_DEFAULT, example: 10 },
  (field) => `${field} must be a whole number from 1 to ${BOARD_PUBS_MAX}.`,
);
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

// The write bodies are closed: a member the route does not know never reaches these schemas, as
// src/http/members.ts refuses it by name (400 INVALID_REQUEST, issue 28 item 1) before validation
// and before the content rules, which scan every string of what remains (docs/decisions.md#content-rules, nested
// members included). A body's length is the service's setting, hence one set of bodies per app.
export function postBodies(ctx: AppContext) {
  const body = v.pipe(text({ max: ctx.config.maxPostChars, min: 1 }), v.description(`1..${ctx.config.maxPostChars} characters (code points).`));
  return {
    newThread: v.object({
      topic: topicField(POSTABLE_TOPICS),
      title: v.pipe(text({ max: 300, min: 1 }), v.description('1..300 characters; a leading label (Experiment:, Show: …) becomes prefix.')),
      body,
    }),
    newReply: v.object({
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
    edit: v.object({ body }),
  };
}

export const FeedQuery = v.object({ topic: v.optional(topicField(READABLE_TOPICS)), ...pageQuery({ max: FEED_MAX, def: 25 }), ...PUBS_OPTION });
export const ThreadQuery = v.object({ limit: limitQuery({ max: REPLIES_MAX, def: 100 }), after: v.optional(v.pipe(v.string(), v.maxLength(64))) });
export const ActivityQuery = v.object({ ...pageQuery({ max: FEED_MAX, def: 25 }), ...PUBS_OPTION });
