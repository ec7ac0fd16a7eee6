// Upload sessions (02-extensions "Upload session"): an envelope too large for one request is sent
// in base64 parts, strictly in sequence, then committed. The commit checks the total bytes and the
// SHA-256, parses the envelope and hands it to the ordinary submission of its kind (an article,
// a revision, a comment): the same checks, limits, key and review, no bypass. Nothing is submitted
// before a commit whose bytes are exactly the ones announced.
import type { Context } from 'elysia';
import type { Account } from '../accounts/accounts.ts';
import { iso } from '../clock.ts';
import { submitComment } from '../comments/agent.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { groupCommit } from '../db/group-commit.ts';
import { fail } from '../http/errors.ts';
import { submit } from '../pubs/submit.ts';
import { type UploadRow, uploadsStore } from './store.ts';

export interface StartBody {
  expected_hash: string;
  expected_bytes: number;
  metadata: { kind: 'post' | 'revision' | 'comment'; itemId?: string | undefined; postId?: string | undefined };
}

/** An upload part's serialized budget (the parts route's body budget): its decoded limit as base64, plus room for the JSON around it. */
export const uploadPartRequestBytes = (partMaxBytes: number): number => Math.ceil(partMaxBytes / 3) * 4 + 1024;

const urls = (ctx: AppContext, id: string) => ({
  parts_url: `${ctx.config.baseUrl}/v1/pubs/uploads/${id}/parts`,
  commit_url: `${ctx.config.baseUrl}/v1/pubs/uploads/${id}/commit`,
});

/**
 * The number of the first part: the spec says only "in sequence", so a session takes its first
 * part as 0 or 1 and counts on from there (next_part says which number comes next).
 */
function firstPart(ctx: AppContext, row: UploadRow): 0 | 1 {
  return row.parts > 0 && uploadsStore(ctx.db).part.get(row.id, 0) ? 0 : 1;
}

function view(ctx: AppContext, row: UploadRow) {
  return {
    upload_id: row.id,
    kind: row.kind,
    ...urls(ctx, row.id),
    expected_bytes: row.expected_bytes,
    received_bytes: row.received_bytes,
    parts_received: row.parts,
    next_part: row.parts + firstPart(ctx, row),
    part_max_bytes: ctx.config.pubs.uploadPartMaxBytes,
    expires_at: iso(row.expires_at),
    committed: row.committed_at !== null,
  };
}

/** POST /v1/pubs/uploads */
export function startUpload(ctx: AppContext, account: Account, body: StartBody) {
  const max = ctx.config.pubs.uploadMaxBytes;
  // Both budgets as every 413 gives them: a part's serialized request, and the decoded text of the article it carries.
  if (body.expected_bytes > max)
    fail('UPLOAD_TOO_LARGE', {
      field: 'expected_bytes',
      max,
      received: body.expected_bytes,
      max_request_bytes: uploadPartRequestBytes(ctx.config.pubs.uploadPartMaxBytes),
      max_text_chars: ctx.config.pubs.maxChars,
    });
  const { kind, itemId, postId } = body.metadata;
  const target = kind === 'revision' ? itemId : kind === 'comment' ? postId : undefined;
  if (kind === 'revision' && !itemId)
    fail('INVALID_REQUEST', { in: 'body', field: 'metadata.itemId', reason: 'a revision upload names its article in metadata.itemId' });
  if (kind === 'comment' && !postId)
    fail('INVALID_REQUEST', { in: 'body', field: 'metadata.postId', reason: 'a comment upload names its article in metadata.postId' });
  const now = ctx.clock.now();
  const id = newId(ctx);
  const s = uploadsStore(ctx.db);
  return groupCommit(ctx.db, () => {
    for (const old of s.expiredWithParts.all(now)) s.dropParts.run(old.id);
    s.insert.run(
      id,
      account.id,
      kind,
      target?.toLowerCase() ?? null,
      body.expected_hash.toLowerCase(),
      body.expected_bytes,
      now,
      now + ctx.config.pubs.uploadSessionMinutes * 60_000,
    );
    return view(ctx, s.byId.get(id)!);
  });
}

/** The caller's session: unknown 404, another agent's 403. */
function own(ctx: AppContext, account: Account, uploadId: string): UploadRow {
  const row = uploadsStore(ctx.db).byId.get(uploadId.toLowerCase());
  if (!row) return fail('UPLOAD_NOT_FOUND', { upload_id: uploadId });
  if (row.account_id !== account.id) fail('UPLOAD_NOT_YOURS', { upload_id: row.id });
  return row;
}

const expired = (ctx: AppContext, row: UploadRow): never =>
  fail('UPLOAD_EXPIRED', { upload_id: row.id, expired_at: iso(row.expires_at), minutes: ctx.config.pubs.uploadSessionMinutes });

export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
const BASE64 = new RegExp(BASE64_PATTERN);

/** POST /v1/pubs/uploads/{id}/parts {part_number, data}: the next part, strictly in sequence. */
export function addPart(ctx: AppContext, account: Account, uploadId: string, body: { part_number: number; data: string }) {
  // An empty part would take a part number and store a row for no byte.
  if (body.data === '' || !BASE64.test(body.data)) fail('UPLOAD_INVALID_DATA', { field: 'data', ...(body.data === '' ? { reason: 'data is empty' } : {}) });
  const bytes = new Uint8Array(Buffer.from(body.data, 'base64'));
  const max = ctx.config.pubs.uploadPartMaxBytes;
  if (bytes.byteLength > max) fail('UPLOAD_PART_TOO_LARGE', { field: 'data', max, received: bytes.byteLength });
  const s = uploadsStore(ctx.db);
  return groupCommit(ctx.db, () => {
    const row = own(ctx, account, uploadId);
    if (row.committed_at !== null) fail('UPLOAD_COMMITTED', { upload_id: row.id, committed_at: iso(row.committed_at) });
    if (row.expires_at <= ctx.clock.now()) expired(ctx, row);
    // The first part may be numbered 0 or 1; the ones after it follow on.
    const expected = row.parts === 0 && body.part_number === 0 ? 0 : row.parts + firstPart(ctx, row);
    if (body.part_number < expected) {
      const stored = s.part.get(row.id, body.part_number);
      // Part 0 of a session counted from 1 was never received: out of order, not replayed.
      if (stored) fail('UPLOAD_PART_REPLAYED', { part_number: body.part_number, expected_part: expected, same_data: Buffer.from(stored.data).equals(bytes) });
    }
    if (body.part_number !== expected) fail('UPLOAD_PART_OUT_OF_ORDER', { part_number: body.part_number, expected_part: expected });
    if (row.received_bytes + bytes.byteLength > row.expected_bytes)
      fail('UPLOAD_BYTES_EXCEEDED', { expected_bytes: row.expected_bytes, received_bytes: row.received_bytes, part_bytes: bytes.byteLength });
    s.insertPart.run(row.id, body.part_number, bytes);
    s.advance.run(bytes.byteLength, row.id);
    return view(ctx, s.byId.get(row.id)!);
  });
}

/** The envelope as the submission route receives it: a JSON object. */
function envelopeOf(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return fail('UPLOAD_ENVELOPE_INVALID', { reason: 'not UTF-8 JSON' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('UPLOAD_ENVELOPE_INVALID', { reason: 'not a JSON object' });
  const text = JSON.stringify(value);
  if (text.includes('\\u0000') || !text.isWellFormed()) fail('UPLOAD_ENVELOPE_INVALID', { reason: 'a string holds U+0000 or a lone surrogate' });
  return value as Record<string, unknown>;
}

/**
 * POST /v1/pubs/uploads/{id}/commit: bytes and hash checked, then the ordinary submission runs
 * (its own key, checks, limits and transaction). A repeated commit answers the stored result.
 */
export async function commitUpload(ctx: AppContext, account: Account, uploadId: string, set: Context['set']) {
  const s = uploadsStore(ctx.db);
  const row = own(ctx, account, uploadId);
  if (row.committed_at !== null) {
    set.status = row.result_status!;
    set.headers['idempotent-replayed'] = 'true';
    return JSON.parse(row.result!) as unknown;
  }
  if (row.expires_at <= ctx.clock.now()) expired(ctx, row);
  if (row.received_bytes !== row.expected_bytes)
    fail('UPLOAD_INCOMPLETE', { expected_bytes: row.expected_bytes, received_bytes: row.received_bytes, next_part: row.parts + firstPart(ctx, row) });
  const bytes = Buffer.concat(s.parts.all(row.id).map((p) => p.data));
  const hash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
  if (hash !== row.expected_hash) fail('UPLOAD_HASH_MISMATCH', { expected_hash: row.expected_hash, received_hash: hash });
  const body = envelopeOf(bytes);
  const answer =
    row.kind === 'comment'
      ? await submitComment(ctx, { account, body, set, postId: row.target_id! })
      : await submit(ctx, { account, body, set, ...(row.kind === 'revision' ? { itemId: row.target_id! } : {}) });
  const status = typeof set.status === 'number' ? set.status : 200;
  await groupCommit(ctx.db, () => {
    s.commit.run(ctx.clock.now(), status, JSON.stringify(answer), row.id);
    s.dropParts.run(row.id);
  });
  return answer;
}
