// Upload sessions for envelopes too large for one request (valibot schemas and wiring; the rules
// are in uploads.ts).
import { Elysia } from 'elysia';
import * as v from 'valibot';
import { CommentCreatedAnswer } from '../comments/schemas.ts';
import { type AppContext, seedOf } from '../context.ts';
import { authPlugin } from '../http/auth.ts';
import { jsonAnswer, PRIVATE_HEADERS } from '../http/contract.ts';
import type { ErrorCode } from '../http/errors.ts';
import { doc } from '../http/openapi-detail.ts';
import { coded, ifThen, uuidField } from '../http/schema.ts';
import { ENVELOPE_CODES } from '../pubs/envelope.ts';
import { SubmittedAnswer } from '../pubs/schemas.ts';
import { addPart, BASE64_PATTERN, commitUpload, startUpload, uploadPartRequestBytes } from './uploads.ts';

const TAGS = ['pubs'];
const UploadParam = v.object({ upload_id: v.pipe(v.string(), v.maxLength(64), v.description('The upload session (uuid).')) });
const SESSION_CODES: ErrorCode[] = ['UPLOAD_NOT_FOUND', 'UPLOAD_NOT_YOURS', 'UPLOAD_EXPIRED', 'RESIDENCY_STOPPED'];

const SessionAnswer = v.object({
  upload_id: v.string(),
  kind: v.picklist(['post', 'revision', 'comment']),
  parts_url: v.pipe(v.string(), v.description('POST each part here: {part_number, data}.')),
  commit_url: v.pipe(v.string(), v.description('POST {} here once every byte is sent.')),
  expected_bytes: v.number(),
  received_bytes: v.number(),
  parts_received: v.number(),
  next_part: v.pipe(
    v.number(),
    v.description('The part_number to send next (parts are taken strictly in sequence from 1, or from 0 when the first part was 0).'),
  ),
  part_max_bytes: v.pipe(v.number(), v.description('Decoded bytes per part at most.')),
  expires_at: v.string(),
  committed: v.boolean(),
});

const kindIs = (kind: string) => ({ properties: { kind: { const: kind } }, required: ['kind'] });

export const uploadsRoutes = (ctx: AppContext) => {
  const p = ctx.config.pubs;
  const s = {
    start: v.object({
      expected_hash: v.pipe(
        v.string(),
        v.regex(
          /^[0-9a-fA-F]{64}$/,
          coded('INVALID_REQUEST', { field: 'expected_hash', reason: 'expected_hash is the SHA-256 of the envelope’s bytes, 64 hex digits' }),
        ),
      ),
      expected_bytes: v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description(`The envelope’s size in bytes, at most ${p.uploadMaxBytes} (more is 413 UPLOAD_TOO_LARGE).`),
        v.metadata({ maximum: p.uploadMaxBytes }),
      ),
      metadata: v.pipe(
        v.object({
          kind: v.picklist(
            ['post', 'revision', 'comment'],
            coded('INVALID_REQUEST', { field: 'metadata.kind', reason: 'metadata.kind is post, revision or comment' }),
          ),
          itemId: v.optional(uuidField('must be the article id (uuid) of the revision')),
          postId: v.optional(uuidField('must be the article id (uuid) the comment is on')),
        }),
        // startUpload refuses a revision without itemId and a comment without postId (400 INVALID_REQUEST).
        v.metadata(ifThen(kindIs('revision'), { required: ['itemId'] }, ifThen(kindIs('comment'), { required: ['postId'] }))),
      ),
    }),
    part: v.object({
      part_number: v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(100_000),
        v.description('In sequence: the first part is 1 (or 0), each next one the number after it (next_part).'),
      ),
      data: v.pipe(
        v.string(),
        v.description(`Base64 of the part’s bytes (standard alphabet, padded, not empty); at most ${p.uploadPartMaxBytes} decoded bytes.`),
        // addPart's check (400 UPLOAD_INVALID_DATA, 413 UPLOAD_PART_TOO_LARGE), stated for clients:
        // the longest base64 whose every form decodes within the part budget.
        v.metadata({ minLength: 4, maxLength: 4 * Math.floor(p.uploadPartMaxBytes / 3), pattern: BASE64_PATTERN }),
      ),
    }),
  };
  return new Elysia({ name: 'uploads', seed: seedOf(ctx) })
    .use(authPlugin(ctx))
    .post(
      '/v1/pubs/uploads',
      ({ account, body, set }) => {
        set.status = 201;
        return startUpload(ctx, account, body);
      },
      {
        auth: true,
        body: s.start,
        detail: doc({
          summary: 'Start an upload of an envelope too large for one request',
          description:
            `Body {expected_hash (SHA-256 hex of the envelope’s bytes), expected_bytes (at most ${p.uploadMaxBytes}), metadata: {kind: post|revision|comment, itemId (revision: its article), postId (comment: its article)}}. ` +
            `Then POST each part to parts_url as {part_number, data (base64, at most ${p.uploadPartMaxBytes} decoded bytes)}, strictly in sequence from 1 (a first part numbered 0 starts the count at 0), and POST {} to commit_url. The session expires after ${p.uploadSessionMinutes} minutes. ` +
            'The commit checks the byte count and the hash, then runs the ordinary submission of that kind (key in the envelope, every check, limit and review): nothing is submitted before it.',
          tags: TAGS,
          auth: true,
          errors: ['UPLOAD_TOO_LARGE', 'RESIDENCY_STOPPED'],
          answers: { 201: jsonAnswer(SessionAnswer, 'The session and its URLs.', PRIVATE_HEADERS) },
        }),
      },
    )
    .post('/v1/pubs/uploads/:upload_id/parts', ({ account, body, params }) => addPart(ctx, account, params.upload_id, body), {
      auth: true,
      params: UploadParam,
      bodyBudget: { bytes: uploadPartRequestBytes(ctx.config.pubs.uploadPartMaxBytes) },
      body: s.part,
      detail: doc({
        summary: 'Send the next part of an upload',
        description:
          'Parts are taken strictly in sequence: a number already received is 409 UPLOAD_PART_REPLAYED (details.same_data says whether yours matches the stored one), a skipped number 409 UPLOAD_PART_OUT_OF_ORDER; both name details.expected_part. Bytes beyond expected_bytes are 413 UPLOAD_BYTES_EXCEEDED; a part after the commit 409 UPLOAD_COMMITTED.',
        tags: TAGS,
        auth: true,
        errors: [
          ...SESSION_CODES,
          'UPLOAD_COMMITTED',
          'UPLOAD_PART_REPLAYED',
          'UPLOAD_PART_OUT_OF_ORDER',
          'UPLOAD_PART_TOO_LARGE',
          'UPLOAD_BYTES_EXCEEDED',
          'UPLOAD_INVALID_DATA',
        ],
        answers: { 200: jsonAnswer(SessionAnswer, 'The part is stored; the session’s state.', PRIVATE_HEADERS) },
      }),
    })
    .post('/v1/pubs/uploads/:upload_id/commit', ({ account, params, set }) => commitUpload(ctx, account, params.upload_id, set), {
      auth: true,
      params: UploadParam,
      detail: doc({
        summary: 'Commit an upload: submit the envelope it holds',
        description:
          'Body {} or none. Checks that the parts hold exactly expected_bytes (409 UPLOAD_INCOMPLETE) with the expected SHA-256 (422 UPLOAD_HASH_MISMATCH), then answers exactly as the submission route of its kind would (POST /v1/pubs/posts, …/revisions: 202; …/comments: 201), with that route’s errors. A repeated commit replays the stored answer.',
        tags: TAGS,
        auth: true,
        errors: [
          ...SESSION_CODES,
          'UPLOAD_INCOMPLETE',
          'UPLOAD_HASH_MISMATCH',
          'UPLOAD_ENVELOPE_INVALID',
          ...ENVELOPE_CODES,
          'PUBS_SVG_REFUSED',
          'PUBS_SUBMISSION_QUOTA',
          'PUBS_RESUME_REQUIRED',
          'SECRET_LIKE',
          'PRICE_TALK',
          'SELF_PITCH',
          'NOT_FOUND',
          'NOT_OWNER',
          'PUBS_WITHDRAWN',
          'COMMENT_QUOTA',
          'COMMENT_REVISION_MISMATCH',
          'COMMENT_PARENT_NOT_FOUND',
        ],
        answers: {
          202: jsonAnswer(SubmittedAnswer, 'An article or revision accepted for review.', PRIVATE_HEADERS),
          201: jsonAnswer(CommentCreatedAnswer, 'A comment stored.', PRIVATE_HEADERS),
        },
      }),
    });
};
