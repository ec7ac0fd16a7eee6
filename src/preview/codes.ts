// Author preview sessions of candidate revisions. Error codes, part of the one codes table (src/compose.ts gathers it).
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const PREVIEW_CODES = {
  PREVIEW_NOT_AUTHOR: {
    status: 403,
    message: 'Only the author of an article previews its revisions.',
    fix: 'Ask for a preview of a revision of your own article (GET /v1/pubs/posts lists them); read other articles with GET /v1/pubs/revisions/{revision_id}.',
  },
  PREVIEW_SUPERSEDED: {
    status: 409,
    message: 'A newer revision of this article exists: this one can no longer be previewed.',
    fix: 'Preview the current revision, details.current_revision_id.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof PREVIEW_CODES> {}
}
