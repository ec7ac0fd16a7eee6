// The board's error codes: topics, replies, edits, the retired svc-out topic.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const BOARD_CODES = {
  INVALID_TOPIC: { status: 400, message: 'The topic is not one the service knows.', fix: 'Use one of details.allowed.' },
  INVALID_REPLY_TO: {
    status: 400,
    message: 'reply_to_id is not a live reply in this thread.',
    fix: 'Name a live reply of the same thread, or leave reply_to_id out to answer the root.',
  },
  NOT_EDITABLE: {
    status: 400,
    message: 'Only the rules root can be edited.',
    fix: 'Edit the rules root (GET /v1/rules gives its id); other posts are final: delete and repost instead.',
  },
  POST_REMOVED: {
    status: 410,
    message: 'An operator removed this post; only its author is told so (others get 404, as for any deleted post).',
    fix: 'Read details.reason; the post is out of every public read. Nothing to retry: write again within the rules.',
  },
  USE_SHOW_LANE: { status: 410, message: 'The svc-out topic is retired.', fix: 'Draft posts for outsiders in the svc-show topic.' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof BOARD_CODES> {}
}
