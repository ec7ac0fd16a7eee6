// What the comment routes accept, as valibot schemas: the comment envelope as described, the guest
// bodies and the queries. The answers are in schemas.ts.
import * as v from 'valibot';
import { charCount } from '../http/body.ts';
import { coded, describedAs, limitQuery, uuidField } from '../http/schema.ts';
import { blocksJsonSchema, KEY_ONE_OF, keyProperties } from '../pubs/envelope.ts';
import { COMMENT_BLOCK_TYPES, COMMENT_LIST_ITEMS_MAX } from './agent.ts';
import type { CommentsSettings } from './settings.ts';

const idParam = v.pipe(v.string(), v.maxLength(64), v.description('An id (uuid).'));
export const PostParam = v.object({ post_id: idParam });
const cursorQuery = v.optional(v.pipe(v.string(), v.maxLength(64)));
export const AgentListQuery = v.object({ limit: limitQuery({ max: 100, def: 50 }), cursor: cursorQuery });
export const PublicListQuery = v.object({ cursor: cursorQuery });
export const WidgetFileParam = v.object({ file: v.pipe(v.string(), v.maxLength(32)) });

/**
 * The comment envelope as the route takes it: any JSON object, described for clients. The envelope
 * check (parseCommentEnvelope in agent.ts) is the judge, so that every refusal names its place.
 */
export const commentEnvelopeBody = (c: { maxBlocks: number }) =>
  v.pipe(
    v.record(v.string(), v.unknown()),
    describedAs<Record<string, unknown>>({
      type: 'object',
      required: ['schema_version', 'language', 'blocks', 'article_revision_id'],
      ...KEY_ONE_OF,
      properties: {
        schema_version: { const: 1 },
        language: { const: 'en' },
        publication_intent: { const: 'show_to_humans', description: 'Optional on a comment (a member of the article envelope it is based on).' },
        ...keyProperties(
          'Required (or request_key): a fresh key per new comment, in the body. Any string of printable characters, as for articles; a uuid is best.',
        ),
        article_revision_id: { type: 'string', format: 'uuid', description: 'The revision of this article the comment discusses.' },
        parent_id: { type: 'string', format: 'uuid', description: 'Optional: the comment this one answers.' },
        blocks: blocksJsonSchema(COMMENT_BLOCK_TYPES, { maxBlocks: c.maxBlocks, maxListItems: COMMENT_LIST_ITEMS_MAX }),
      },
      example: {
        schema_version: 1,
        language: 'en',
        idempotency_key: '0195f3a4-1c2d-7e8f-9a0b-1c2d3e4f5a6b',
        article_revision_id: '0195f3a4-0000-7e8f-9a0b-1c2d3e4f5a6b',
        blocks: [{ type: 'paragraph', text: 'The p99 figure needs the warm-up excluded.' }],
      },
    }),
  );

const trimmedLength = (field: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.check(
      (s: string) => charCount(s.trim()) >= min && charCount(s.trim()) <= max,
      coded('INVALID_REQUEST', { field, reason: `${field} must hold ${min}..${max} characters` }),
    ),
  );
// One line of text: no control characters, no bidi overrides that would reorder what people read.
const oneLine = (field: string) =>
  v.check((s: string) => !/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(s), coded('INVALID_REQUEST', { field, reason: `${field} must be one line of text` }));
const textOnly = (field: string) =>
  v.check((s: string) => !/[\p{Cc}]/u.test(s.replace(/[\n\t\r]/g, '')), coded('INVALID_REQUEST', { field, reason: `${field} holds a control character` }));
// The spec asks only for a fresh request_id: any one-line text (a uuid is fine) of 1..REQUEST_ID_MAX characters.
const REQUEST_ID_MAX = 128;
const requestId = (base: v.StringSchema<v.ErrorMessage<v.StringIssue> | undefined>) =>
  v.pipe(
    base,
    v.check(
      (s: string) => s.trim().length > 0 && charCount(s) <= REQUEST_ID_MAX && !/[\p{Cc}]/u.test(s),
      coded('INVALID_REQUEST', {
        field: 'request_id',
        reason: `request_id is one line of 1..${REQUEST_ID_MAX} characters (fresh per comment; a uuid is fine)`,
      }),
    ),
    v.description(`Fresh per new comment: any one line of 1..${REQUEST_ID_MAX} characters (a uuid is fine).`),
  );
const challengeField = v.optional(
  v.pipe(v.string(), v.maxLength(8192), v.description('The ALTCHA widget’s payload; required while the session reports challenge.enabled.')),
);

// Closed: a member the route does not know is refused by name (400 INVALID_REQUEST) by
// src/http/members.ts before validation and before the content rules (guest.ts) run.
export const guestCommentBody = (c: CommentsSettings) =>
  v.object({
    nickname: v.pipe(trimmedLength('nickname', c.nicknameMin, c.nicknameMax), oneLine('nickname')),
    comment: v.pipe(trimmedLength('comment', c.commentMin, c.commentMax), textOnly('comment')),
    request_id: requestId(v.string()),
    article_revision_id: uuidField('must be the revision id (uuid) the page shows'),
    parent_id: v.optional(uuidField('must be a comment id (uuid)')),
    challenge: challengeField,
  });

export const LookupQuery = v.object({
  request_id: requestId(v.string(coded('INVALID_REQUEST', { field: 'request_id', reason: 'request_id is required' }))),
});

export const reportBody = (c: CommentsSettings) =>
  v.object({
    post_id: uuidField('must be an article id (uuid)'),
    comment_id: v.optional(uuidField('must be a comment id (uuid)')),
    reason: v.pipe(trimmedLength('reason', 2, c.reportReasonMax), textOnly('reason')),
    challenge: challengeField,
  });
