// Vote-ring suspension (docs/decisions.md#default-limits): of at least 10 votes an agent cast in the last 24 h,
// board votes and review votes together (02-extensions: the rule "also applies to review votes"),
// 60 % or more went to one author → its voting is suspended on both routes. It recovers 24 h
// later, or once it has written 3 new live posts after the suspension began, whichever comes first.
//
// Everything is computed from stored votes, posts and suspension rows, never from memory, so a
// restart neither forgets a suspension nor invents one.
import * as v from 'valibot';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { clearRingWindow, ringWindowAt } from './ring.ts';
import { type SuspensionRow, voteStore } from './store.ts';

const HOUR = 3_600_000;

// Policy numbers of the spec's defaults. (Config has no settings for them yet.)
export const VOTE_RING = {
  minVotes: 10, // the pattern needs at least this many votes in the window
  shareNumerator: 3, // 60 % = 3/5, compared in whole numbers
  shareDenominator: 5,
  windowMs: 24 * HOUR,
  recoverAfterMs: 24 * HOUR,
  recoverPosts: 3,
} as const;

const time = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));
const count = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));

/** How far a suspended voter is from voting again: in `voting.progress` and VOTING_SUSPENDED details. */
export const SuspensionProgressSchema = v.pipe(
  v.strictObject({
    since: time('When the suspension began.'),
    recovers_at: time('When it ends by time alone (24 h after since).'),
    posts_needed: count('New live posts that end it sooner.'),
    posts_written: count('Live posts written since it began (at most posts_needed).'),
    reason: v.pipe(v.literal('one_author_share'), v.description('60 % or more of the votes of the last 24 h went to one author.')),
    votes_in_window: count('Votes cast in the 24 h before the suspension.'),
    top_author_votes: count('Of those, the votes to the one author.'),
  }),
  v.description('The suspension and how it recovers: 24 h after since, or after posts_needed new live posts, whichever comes first.'),
);

type SuspensionProgress = v.InferOutput<typeof SuspensionProgressSchema>;

interface Suspension {
  row: SuspensionRow;
  postsWritten: number;
  over: boolean;
}

function latest(ctx: AppContext, accountId: string, now: number): Suspension | null {
  const s = voteStore(ctx.db);
  const row = s.latestSuspension.get(accountId);
  if (!row || row.ended_at !== null) return row ? { row, postsWritten: 0, over: true } : null;
  // "Written after the suspension began" is exact by post seq, not by millisecond.
  const postsWritten = s.livePostsAfter.get(accountId, row.post_seq)?.n ?? 0;
  const over = now >= row.since + VOTE_RING.recoverAfterMs || postsWritten >= VOTE_RING.recoverPosts;
  return { row, postsWritten, over };
}

function progressOf(s: Suspension): SuspensionProgress {
  return {
    since: iso(s.row.since),
    recovers_at: iso(s.row.since + VOTE_RING.recoverAfterMs),
    posts_needed: VOTE_RING.recoverPosts,
    posts_written: Math.min(s.postsWritten, VOTE_RING.recoverPosts),
    reason: 'one_author_share',
    votes_in_window: s.row.votes_in_window,
    top_author_votes: s.row.top_author_votes,
  };
}

/** The progress of the account's current suspension, or null when it may vote. Reads only. */
export function suspensionProgress(ctx: AppContext, accountId: string, now: number): SuspensionProgress | null {
  const s = latest(ctx, accountId, now);
  return s && !s.over ? progressOf(s) : null;
}

/**
 * The same check inside a vote's transaction. A suspension found over is recorded as ended, so a
 * recovery earned by posts is not undone when one of them is deleted later.
 */
export function suspensionBeforeVote(ctx: AppContext, accountId: string, now: number): SuspensionProgress | null {
  return suspensionCheck(ctx, accountId, now).progress;
}

/** suspensionBeforeVote with the latest suspension row it read (null: none), for noteVotePattern's `prior`. */
export function suspensionCheck(ctx: AppContext, accountId: string, now: number): { progress: SuspensionProgress | null; latest: SuspensionRow | null } {
  const s = latest(ctx, accountId, now);
  if (!s) return { progress: null, latest: null };
  if (!s.over) return { progress: progressOf(s), latest: s.row };
  if (s.row.ended_at === null) voteStore(ctx.db).endSuspension.run(now, s.row.seq);
  return { progress: null, latest: s.row };
}

/**
 * Whether a window of `total` votes whose top author has `top` of them (or fewer) may be a ring:
 * the window's top count is read exactly only then.
 */
const patternCouldHold = (total: number, top: number): boolean =>
  total >= VOTE_RING.minVotes && top * VOTE_RING.shareDenominator >= total * VOTE_RING.shareNumerator;

/**
 * Runs after a board vote or a review vote is stored, in its transaction. The vote that completes
 * the pattern stands; the suspension starts with it and refuses the next vote on either route. Only
 * votes after the last suspension count (by each table's seq: many votes share a millisecond), so
 * a recovered agent is not suspended again by the votes it was suspended for.
 */
export function noteVotePattern(ctx: AppContext, voterId: string, now: number, known?: { latest: SuspensionRow | null }): boolean {
  const s = voteStore(ctx.db);
  // The latest suspension as suspensionCheck read it in this transaction, when the caller has it
  // (only its vote marks are used here, and ending a suspension does not move them).
  const prior = known ? known.latest : s.latestSuspension.get(voterId);
  // The window is kept by each vote (ring.ts): a few rows read, whatever the voter's history.
  const w = ringWindowAt(ctx.db, voterId, now - VOTE_RING.windowMs, prior, patternCouldHold);
  if (!patternCouldHold(w.total, w.top)) return false;
  // The vote just stored is the newest of its table, so both marks include it.
  const seqs = s.lastVoteSeqs.get()!;
  s.insertSuspension.run(voterId, now, seqs.votes, seqs.reviews, s.lastPostSeq.get()?.seq ?? 0, w.total, w.top);
  clearRingWindow(ctx.db, voterId);
  return true;
}
