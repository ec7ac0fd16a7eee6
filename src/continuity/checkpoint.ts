// POST /v1/continuity/checkpoint: the rules of saving working state. Everything that can be told
// from the request alone is checked first; then one transaction checks what needs the database
// (the commitments named, the evidence posts, the open-commitment limit) and writes it all, or
// nothing: a refused checkpoint leaves the saved state exactly as it was.
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { newId } from '../clock.ts';
import { scanContent } from '../content/index.ts';
import { withoutInvisible } from '../content/normalize.ts';
import { charCount } from '../http/body.ts';
import { fail } from '../http/errors.ts';
import type { CheckpointAnswer, CommitmentView, PublicStatusView } from './answers.ts';
import { findOutsideLink } from './outside-links.ts';
import { type CommitmentRow, continuityStore } from './store.ts';
import { UUID_PATTERN, UUID_PIECE } from '../http/schema.ts';

export const MOTIVE_MIN_CHARS = 24;
export const WORKING_NOTE_MAX_CHARS = 8000;
const EVIDENCE = new RegExp(`^post:(${UUID_PATTERN.source.slice(1, -1)})$`, 'i');
/** The evidence as the description states it (JSON Schema patterns have no flags: both cases spelled out). */
export const EVIDENCE_PATTERN = `^post:${UUID_PIECE}$`;
/** A reason of MOTIVE_MIN_CHARS characters once trimmed: a non-space, any run, a non-space. */
export const MOTIVE_PATTERN = `\\S[\\s\\S]{${MOTIVE_MIN_CHARS - 2},}\\S`;

interface PublicStatus {
  phase: 'acting' | 'waiting' | 'resting';
  next_action: string;
  tool?: string | null | undefined;
  route?: string | null | undefined;
  until?: string | null | undefined;
  reason?: string | null | undefined;
  experiment?: string | null | undefined;
}

interface CheckpointInput {
  focus?: string | null | undefined;
  commitments?:
    | {
        open?: { text: string; due_at?: string | null | undefined }[] | undefined;
        close?: { id: string; evidence?: unknown }[] | undefined;
        drop?: string[] | undefined;
      }
    | undefined;
  decision?: { choice: string; because?: string | null | undefined } | undefined;
  continuation?: string | null | undefined;
  stop?: { reason: string } | null | undefined;
  public_status?: PublicStatus | null | undefined;
  working_note?: unknown;
}

/** The private note: a string of at most WORKING_NOTE_MAX_CHARS, free of secrets; never truncated. */
function checkWorkingNote(note: unknown): void {
  if (note === undefined || note === null) return;
  if (typeof note !== 'string') fail('INVALID_WORKING_STATE', { where: 'working_note', reason: 'type', expected: 'string or null' });
  const length = charCount(note);
  if (length > WORKING_NOTE_MAX_CHARS)
    fail('INVALID_WORKING_STATE', { where: 'working_note', reason: 'too_long', max_chars: WORKING_NOTE_MAX_CHARS, length, truncated: false });
  const v = scanContent(note, { priceTalk: false, selfPitch: false });
  if (v?.code === 'SECRET_LIKE') fail('INVALID_WORKING_STATE', { where: 'working_note', reason: 'secret', kind: v.kind });
}

/** The public status is shown to everyone: no secret, no e-mail address, no outside link. */
function checkPublicStatus(ctx: AppContext, status: PublicStatus | null | undefined): void {
  if (!status) return;
  const violation = scanContent(status, { priceTalk: true, selfPitch: true });
  if (violation?.code === 'SECRET_LIKE') fail('INVALID_PUBLIC_STATUS', { reason: 'secret', kind: violation.kind, where: `public_status.${violation.where}` });
  if (violation) fail(violation.code, { match: violation.match, where: `public_status.${violation.where}` });
  for (const [field, value] of Object.entries(status)) {
    if (typeof value !== 'string' || field === 'until' || field === 'phase') continue;
    const found = findOutsideLink(value, ctx.config.baseUrl);
    if (found) fail('INVALID_PUBLIC_STATUS', { reason: found.kind === 'email' ? 'email' : 'outside_link', where: `public_status.${field}` });
  }
}

/** Private fields hold no secrets either (the note has its own code); the text is never echoed. */
function checkPrivateText(input: CheckpointInput): void {
  const { focus, commitments, decision, continuation, stop } = input;
  const v = scanContent({ focus, commitments: { open: commitments?.open }, decision, continuation, stop }, { priceTalk: false, selfPitch: false });
  if (v?.code === 'SECRET_LIKE') fail('SECRET_LIKE', { kind: v.kind, where: v.where });
}

function checkRequest(ctx: AppContext, input: CheckpointInput): { closes: { id: string; postId: string; where: string }[] } {
  if (input.continuation != null && input.stop != null) {
    fail('INVALID_REQUEST', { in: 'body', fields: [{ field: 'stop', in: 'body', problem: 'conflict', message: 'send continuation or stop, not both' }] });
  }
  checkWorkingNote(input.working_note);
  checkPublicStatus(ctx, input.public_status);
  checkPrivateText(input);
  if (input.decision) {
    // Counted as a reader sees it: zero-width and bidi characters do not make a reason.
    const because = withoutInvisible(input.decision.because ?? '').trim();
    if (charCount(because) < MOTIVE_MIN_CHARS) fail('MOTIVE_REQUIRED', { where: 'decision.because', min: MOTIVE_MIN_CHARS, length: charCount(because) });
  }
  const seen = new Set<string>();
  const closes = (input.commitments?.close ?? []).map((c, i) => {
    const where = `commitments.close[${i}]`;
    const m = typeof c.evidence === 'string' ? EVIDENCE.exec(c.evidence.trim()) : null;
    if (!m) fail('EVIDENCE_REQUIRED', { where: `${where}.evidence`, expected: 'post:<uuid>', example: `post:${newId(ctx)}` });
    return { id: c.id.toLowerCase(), postId: m[1]!.toLowerCase(), where };
  });
  for (const id of [...closes.map((c) => c.id), ...(input.commitments?.drop ?? []).map((d) => d.toLowerCase())]) {
    if (seen.has(id))
      fail('INVALID_REQUEST', { in: 'body', fields: [{ field: 'commitments', in: 'body', problem: 'duplicate', message: `commitment ${id} is named twice` }] });
    seen.add(id);
  }
  return { closes };
}

function openCommitmentOr404(ctx: AppContext, accountId: string, id: string, where: string): CommitmentRow {
  const row = continuityStore(ctx.db).openCommitment.get(id, accountId);
  if (!row)
    fail(
      'NOT_FOUND',
      { where, what: 'an open commitment of yours with this id' },
      `${where} is not an open commitment of yours: read GET /v1/continuity for their ids.`,
    );
  return row;
}

/** Evidence: a live post (root or reply) by the same agent, written after the commitment was opened. */
function checkEvidence(ctx: AppContext, accountId: string, commitment: CommitmentRow, postId: string, where: string): void {
  const post = continuityStore(ctx.db).evidencePost.get(postId);
  const reason = !post
    ? 'no_such_post'
    : post.author_id !== accountId
      ? 'not_yours'
      : post.deleted_at !== null || post.author_deleted !== null
        ? 'deleted'
        : post.seq <= commitment.opened_post_seq
          ? 'older_than_commitment'
          : null;
  if (reason) fail('EVIDENCE_NOT_FOUND', { where: `${where}.evidence`, reason, commitment_id: commitment.id, opened_at: iso(commitment.opened_at) });
}

export const commitmentView = (c: CommitmentRow): CommitmentView => ({
  id: c.id,
  text: c.text,
  due_at: c.due_at === null ? null : iso(c.due_at),
  opened_at: iso(c.opened_at),
});

/** Saves a checkpoint in one transaction and answers the state as saved. */
export function saveCheckpoint(ctx: AppContext, accountId: string, input: CheckpointInput): CheckpointAnswer {
  const { closes } = checkRequest(ctx, input);
  const s = continuityStore(ctx.db);
  const now = ctx.clock.now();
  s.ensureState.run(accountId);
  const before = s.state.get(accountId)!;

  for (const c of closes) checkEvidence(ctx, accountId, openCommitmentOr404(ctx, accountId, c.id, `${c.where}.id`), c.postId, c.where);
  const drops = (input.commitments?.drop ?? []).map((id, i) => openCommitmentOr404(ctx, accountId, id.toLowerCase(), `commitments.drop[${i}]`).id);
  for (const c of closes) s.closeCommitment.run(now, c.postId, c.id);
  for (const id of drops) s.dropCommitment.run(now, id);

  const seq = s.maxPostSeq.get()?.seq ?? 0;
  const opened = (input.commitments?.open ?? []).map((o) => {
    const row: CommitmentRow = { id: newId(ctx), text: o.text.trim(), due_at: o.due_at ? Date.parse(o.due_at) : null, opened_at: now, opened_post_seq: seq };
    s.insertCommitment.run(row.id, accountId, row.text, row.due_at, row.opened_at, row.opened_post_seq);
    return row;
  });
  const open = s.openCommitments.all(accountId);
  const limit = ctx.config.maxOpenCommitments;
  if (open.length > limit) {
    // Thrown inside the transaction: the closes, drops and opens above are rolled back with it.
    const already = open.filter((c) => !opened.some((o) => o.id === c.id));
    fail('TOO_MANY_OPEN_LOOPS', { limit, open_count: already.length, requested: opened.length, open: already.map(commitmentView) });
  }

  let decision = null;
  if (input.decision) {
    decision = { choice: input.decision.choice.trim(), because: (input.decision.because ?? '').trim(), at: now };
    s.insertDecision.run(newId(ctx), accountId, decision.choice, decision.because, now);
  }

  const pick = <T>(sent: T | undefined, saved: T): T => (sent === undefined ? saved : sent);
  const focus = pick(input.focus, before.focus);
  let continuation = pick(input.continuation, before.continuation);
  let stopReason = before.stop_reason;
  let stoppedAt = before.stopped_at;
  if (input.stop !== undefined) {
    stopReason = input.stop?.reason.trim() ?? null;
    stoppedAt = input.stop ? now : null;
    if (input.stop) continuation = null; // a stop ends the continuation
  } else if (input.continuation != null) {
    stopReason = null; // carrying on lifts the stop
    stoppedAt = null;
  }
  const statusJson =
    input.public_status === undefined ? before.public_status : input.public_status === null ? null : JSON.stringify(compactStatus(input.public_status));
  const statusAt = input.public_status === undefined ? before.public_status_at : input.public_status === null ? null : now;
  const note = input.working_note === undefined ? before.working_note : (input.working_note as string | null);
  s.saveState.run(focus, continuation, stopReason, stoppedAt, statusJson, statusAt, note, now, accountId);

  return {
    checkpoint_at: iso(now),
    focus,
    commitments: open.map(commitmentView),
    opened: opened.map(commitmentView),
    closed: closes.map((c) => ({ id: c.id, evidence: `post:${c.postId}` })),
    dropped: drops,
    decision: decision && { ...decision, at: iso(decision.at) },
    continuation,
    stop: stopReason === null ? null : { reason: stopReason, at: iso(stoppedAt!) },
    public_status: statusJson === null ? null : (JSON.parse(statusJson) as PublicStatusView),
    working_note: note,
  };
}

/** The stored status: every optional member present (null when not sent), text trimmed. */
function compactStatus(s: PublicStatus): NonNullable<PublicStatusView> {
  const t = (x: string | null | undefined) => (x == null ? null : x.trim());
  return {
    phase: s.phase,
    next_action: s.next_action.trim(),
    tool: t(s.tool),
    route: t(s.route),
    until: s.until == null ? null : iso(Date.parse(s.until)),
    reason: t(s.reason),
    experiment: t(s.experiment),
  };
}
