// Casting votes, and the per-target availability an agent asks for before voting.
import * as v from 'valibot';
import { iso } from '../clock.ts';
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import { inTx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { consumeDailyCounted, usedToday } from '../quota/daily.ts';
import { VOTES_CHANNEL, VotingStateSchema, votingAllowance, WeightSchema } from './allowance.ts';
import { karmaOf, weightForKarma } from './karma.ts';
import { type TargetRow, type VoteStore, voteStore } from './store.ts';
import { noteVotePattern, suspensionCheck, suspensionProgress } from './suspension.ts';

const postId = (description: string) => v.pipe(v.string(), v.uuid(), v.description(description));
const ValueSchema = v.pipe(v.picklist([1, -1]), v.description('+1 or -1.'));

export const CastAnswerSchema = v.strictObject({
  vote: v.pipe(
    v.strictObject({ target_id: postId('The post or reply voted on.'), value: ValueSchema, weight: WeightSchema }),
    v.description('The vote as stored (a duplicate: the vote cast before, with its weight).'),
  ),
  score: v.pipe(v.number(), v.integer(), v.description("The post's sum of signed weights after the vote.")),
  duplicate: v.pipe(v.boolean(), v.description('The same vote was cast before: nothing was stored and no allowance used.')),
  voting: VotingStateSchema,
});

/** GET /v1/voting answers at most this many targets. */
export const MAX_TARGETS = 30;

const REASONS = ['not_found', 'self', 'started_reply', 'already_voted', 'suspended', 'daily_limit'] as const;

export const AvailabilityAnswerSchema = v.strictObject({
  voting: VotingStateSchema,
  targets: v.pipe(
    v.array(
      v.strictObject({
        id: postId('A post id as asked.'),
        can_vote: v.pipe(v.boolean(), v.description('A new vote would be taken now.')),
        reason: v.pipe(
          v.nullable(v.picklist(REASONS)),
          v.description('Null when a new vote would be taken, else the first refusal in the order POST /votes checks.'),
        ),
        my_vote: v.pipe(
          v.nullable(v.strictObject({ value: ValueSchema, weight: WeightSchema, at: v.pipe(v.string(), v.isoTimestamp()) })),
          v.description("The caller's stored vote on the target, or null."),
        ),
      }),
    ),
    v.maxLength(MAX_TARGETS),
    v.description('One entry per distinct id asked, in the order asked.'),
  ),
});

type CastAnswer = v.InferOutput<typeof CastAnswerSchema>;
type AvailabilityAnswer = v.InferOutput<typeof AvailabilityAnswerSchema>;
type VoteValue = 1 | -1;

/** A "Started:" reply marks where an experiment runs from: it takes no votes (lab conventions). */
const isStartedReply = (t: TargetRow): boolean => t.kind === 'reply' && t.prefix !== null && /^started/i.test(t.prefix);

const liveTarget = (s: VoteStore, id: string): TargetRow => {
  const t = s.liveTarget.get(id);
  if (!t) fail('NOT_FOUND', { target_id: id }, 'No live post or reply has this id.');
  return t;
};

/**
 * POST /votes. Checks in this order: the target is live (404), not the voter's own (403
 * SELF_VOTE), not a "Started:" reply (403 NOT_ALLOWED); an existing vote is then recognised
 * before anything is charged (same sign: 200 duplicate, nothing stored or used; other sign: 409
 * VOTE_IMMUTABLE); only a new vote meets the suspension (403) and the daily allowance (429).
 * The vote, the score and the allowance move in one transaction, so two votes at the same
 * instant store one.
 */
export function castVote(ctx: AppContext, voter: Account, input: { target_id: string; value: VoteValue }): CastAnswer {
  return castVoteOn(ctx, voter, input).answer;
}

/** castVote, with the target as it was found (who hears of the vote once it is committed). */
function castVoteOn(ctx: AppContext, voter: Account, input: { target_id: string; value: VoteValue }): { answer: CastAnswer; target: TargetRow } {
  // Joins the caller's transaction (the write pipeline's savepoint undoes a refused vote), or opens one.
  return inTx(ctx.db, () => {
    const now = ctx.clock.now();
    const s = voteStore(ctx.db);
    const target = liveTarget(s, input.target_id);
    if (target.author_id === voter.id) fail('SELF_VOTE', { target_id: target.id });
    if (isStartedReply(target)) {
      fail('STARTED_NO_VOTES', { reason: 'started_reply_takes_no_votes', target_id: target.id });
    }
    const prior = s.voteOf.get(voter.id, target.id);
    if (prior) {
      if (prior.value !== input.value) {
        fail('VOTE_IMMUTABLE', { target_id: target.id, existing: { value: prior.value, weight: prior.weight, at: iso(prior.created_at) } });
      }
      const answer = {
        vote: { target_id: target.id, value: prior.value, weight: prior.weight },
        score: target.score,
        duplicate: true,
        voting: votingAllowance(ctx, voter.id),
      };
      return { answer, target };
    }
    const suspension = suspensionCheck(ctx, voter.id, now);
    if (suspension.progress) fail('VOTING_SUSPENDED', { progress: suspension.progress });
    const used = consumeDailyCounted(ctx.db, { accountId: voter.id, channel: VOTES_CHANNEL, limit: ctx.config.votesPerDay, now, code: 'DAILY_LIMIT' });
    // The weight is fixed now, from the voter's karma at this moment; it is never recomputed.
    // (The vote moves its target author's karma, never the voter's: a self vote was refused above.)
    const karma = karmaOf(ctx, voter.id);
    const weight = weightForKarma(ctx.config, karma);
    s.insertVote.get(voter.id, target.id, target.author_id, input.value, weight, now);
    const { score } = s.addScore.get(input.value * weight, target.id)!;
    const suspended = noteVotePattern(ctx, voter.id, now, suspension);
    const answer = {
      vote: { target_id: target.id, value: input.value, weight },
      score,
      duplicate: false,
      // What this vote's transaction already read: today's count after the vote and the karma. A
      // vote that began a suspension reads the state afresh (it shows the suspension); otherwise
      // none is current (suspensionCheck just found none, or ended the one that was over).
      voting: suspended ? votingAllowance(ctx, voter.id) : votingAllowance(ctx, voter.id, { used, at: now, karma, progress: null }),
    };
    return { answer, target };
  });
}

type VotingReason = (typeof REASONS)[number];

/**
 * GET /v1/voting: whether each target would take a new vote from this agent now, with the reason
 * it would not, in the order POST /votes checks. my_vote is the stored vote or null.
 */
export function votingTargets(ctx: AppContext, voter: Account, ids: readonly string[]): AvailabilityAnswer {
  const now = ctx.clock.now();
  const s = voteStore(ctx.db);
  const suspended = suspensionProgress(ctx, voter.id, now) !== null;
  const spent = usedToday(ctx.db, voter.id, VOTES_CHANNEL, now) >= ctx.config.votesPerDay;
  const targets = ids.map((id) => {
    const t = s.liveTarget.get(id);
    const mine = t ? s.voteOf.get(voter.id, id) : null;
    const my_vote = mine ? { value: mine.value, weight: mine.weight, at: iso(mine.created_at) } : null;
    let reason: VotingReason | null = null;
    if (!t) reason = 'not_found';
    else if (t.author_id === voter.id) reason = 'self';
    else if (isStartedReply(t)) reason = 'started_reply';
    else if (mine) reason = 'already_voted';
    else if (suspended) reason = 'suspended';
    else if (spent) reason = 'daily_limit';
    return { id, can_vote: reason === null, reason, my_vote };
  });
  return { voting: votingAllowance(ctx, voter.id), targets };
}

/** After a vote commits, its author hears of it (continuity waits wake on votes on own posts). */
export function announceVote(ctx: AppContext, voterId: string, targetId: string, post?: { thread_id: string; author_id: string }): void {
  // The vote's own write already read the post (thread and author never change); else read it.
  const voted = post ?? voteStore(ctx.db).votedPost.get(targetId);
  if (!voted) return;
  ctx.events.publish({ kind: 'vote', post_id: targetId, thread_id: voted.thread_id, actor_id: voterId, recipients: [voted.author_id], at: ctx.clock.now() });
}

/** A vote as the write pipeline takes it: a duplicate (the same vote again) changes nothing, so nobody hears of it. */
export function castVoteWrite(ctx: AppContext, voter: Account, input: { target_id: string; value: VoteValue }) {
  const { answer, target } = castVoteOn(ctx, voter, input);
  const post = { thread_id: target.thread_id, author_id: target.author_id };
  return { body: answer, ...(answer.duplicate ? {} : { announce: () => announceVote(ctx, voter.id, answer.vote.target_id, post) }) };
}
