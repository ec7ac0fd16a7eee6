// Review: the quorum rule in force, who qualifies, review votes and what a vote publishes
// (docs/decisions.md#articles). A vote, its count and the publication it causes share one transaction.
import { iso } from '../clock.ts';
import type { Account } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { consumeDaily } from '../quota/daily.ts';
import { VOTES_CHANNEL, votingAllowance } from '../votes/allowance.ts';
import { karmaOf, weightForKarma } from '../votes/karma.ts';
import { noteVotePattern, suspensionBeforeVote, suspensionProgress } from '../votes/suspension.ts';
import { pubsStore, type RevisionRow } from './store.ts';

const HOUR = 3_600_000;

export interface QuorumRule {
  rule: 'grace' | 'standard';
  quorum: number;
  published: number; // articles published now
}

/** The rule in force: the grace quorum while fewer than gracePublished articles are published. */
export function quorumNow(ctx: AppContext): QuorumRule {
  const s = ctx.config.pubs;
  const published = pubsStore(ctx.db).publishedCount.get()?.n ?? 0;
  return published < s.gracePublished ? { rule: 'grace', quorum: s.graceQuorum, published } : { rule: 'standard', quorum: s.quorum, published };
}

export interface Eligibility {
  eligible: boolean;
  reasons: ('account_too_new' | 'voting_suspended' | 'negative_karma')[];
  eligible_from: string | null; // when age alone holds it back
}

/** Review eligibility: the account is old enough, not suspended, and its karma is not negative. */
export function reviewEligibility(ctx: AppContext, accountId: string): Eligibility {
  const now = ctx.clock.now();
  const created = pubsStore(ctx.db).accountCreatedAt.get(accountId)?.created_at ?? now;
  const from = created + ctx.config.pubs.reviewerMinAgeHours * HOUR;
  const reasons: Eligibility['reasons'] = [];
  if (now < from) reasons.push('account_too_new');
  if (suspensionProgress(ctx, accountId, now)) reasons.push('voting_suspended');
  if (karmaOf(ctx, accountId) < 0) reasons.push('negative_karma');
  return { eligible: reasons.length === 0, reasons, eligible_from: now < from ? iso(from) : null };
}

/**
 * Approves a revision that reached its quorum, and publishes it unless the article is withdrawn
 * or hidden; the revision published before it is then superseded. Runs inside the caller's transaction.
 */
export function approveIfDue(ctx: AppContext, rev: RevisionRow, actorId: string): RevisionRow {
  if (rev.status !== 'awaiting_votes' || rev.qualifying < quorumNow(ctx).quorum) return rev;
  const s = pubsStore(ctx.db);
  const now = ctx.clock.now();
  s.approve.run(now, rev.id);
  s.insertActivity.get('approved', rev.item_id, rev.id, actorId, now);
  const item = s.item.get(rev.item_id);
  if (item && item.withdrawn_at === null && item.hidden_at === null) {
    if (item.published_revision_id) s.supersede.run(item.published_revision_id);
    const { seq } = s.insertActivity.get('published', rev.item_id, rev.id, actorId, now)!;
    s.publish.run(rev.id, now, seq, rev.item_id);
  }
  return s.revision.get(rev.id)!;
}

/**
 * After a withdrawal the published count may fall back under the grace threshold: candidates that
 * already hold the grace quorum are approved then, oldest first, as their next vote would have
 * done. Each approval counts again, so the standard rule stops it once it is back in force.
 */
export function approveDueCandidates(ctx: AppContext): void {
  for (const rev of pubsStore(ctx.db).dueCandidates.all(quorumNow(ctx).quorum)) approveIfDue(ctx, rev, rev.actor);
}

export const websiteStatus = (ctx: AppContext, itemId: string): 'published' | 'not_listed' => {
  const item = pubsStore(ctx.db).item.get(itemId);
  return item?.published_revision_id && item.withdrawn_at === null && item.hidden_at === null ? 'published' : 'not_listed';
};

/**
 * POST /v1/pubs/votes, in the board's order: the revision exists (404), is not the caller's own
 * article (403 SELF_VOTE, whichever revision); an existing vote is recognised before anything is
 * charged (same sign: duplicate, nothing stored; other sign: 409 VOTE_IMMUTABLE); only a new vote
 * meets a withdrawal (410), the suspension (403) and the daily allowance it shares with board votes (429).
 */
export function castReviewVote(ctx: AppContext, voter: Account, input: { revision_id: string; value: 1 | -1 }) {
  const s = pubsStore(ctx.db);
  const now = ctx.clock.now();
  const id = input.revision_id.toLowerCase();
  let rev = s.revision.get(id);
  const item = rev ? s.item.get(rev.item_id) : null;
  if (!rev || !item || item.hidden_at !== null) return fail('NOT_FOUND', { revision_id: id }, 'No revision has this id.');
  if (item.author_id === voter.id) fail('SELF_VOTE', { revision_id: id, item_id: item.id });
  const prior = s.voteOf.get(voter.id, id);
  let duplicate = false;
  let qualifying = false;
  let weight: number;
  if (prior) {
    if (prior.value !== input.value)
      fail('VOTE_IMMUTABLE', { revision_id: id, existing: { value: prior.value, weight: prior.weight, at: iso(prior.created_at) } });
    duplicate = true;
    weight = prior.weight;
    qualifying = prior.qualifying === 1;
  } else {
    // A withdrawn article is out of review: a new vote is refused as its reads are (a repeat above
    // is still recognised, nothing charged).
    if (item.withdrawn_at !== null) fail('PUBS_WITHDRAWN', { item_id: item.id, withdrawn_at: iso(item.withdrawn_at) });
    const progress = suspensionBeforeVote(ctx, voter.id, now);
    if (progress) fail('VOTING_SUSPENDED', { progress });
    consumeDaily(ctx.db, { accountId: voter.id, channel: VOTES_CHANNEL, limit: ctx.config.votesPerDay, now, code: 'DAILY_LIMIT' });
    weight = weightForKarma(ctx.config, karmaOf(ctx, voter.id));
    const recent = s.votedOnArticleSince.get(voter.id, item.id, id, now - ctx.config.pubs.sameArticleVoteHours * HOUR)?.n ?? 0;
    qualifying = input.value === 1 && recent === 0 && reviewEligibility(ctx, voter.id).eligible;
    s.insertVote.run(voter.id, id, item.id, input.value, weight, qualifying ? 1 : 0, now);
    // Review votes count toward the vote-ring suspension with board votes (src/votes/suspension.ts).
    noteVotePattern(ctx, voter.id, now);
    rev = s.addScore.get(input.value * weight, qualifying ? 1 : 0, id)!;
    rev = approveIfDue(ctx, rev, voter.id);
  }
  const rule = quorumNow(ctx);
  return {
    vote: { revision_id: id, value: input.value, weight, qualifying },
    duplicate,
    revision: { id, item_id: item.id, status: rev.status, score: rev.score, qualifying_votes: rev.qualifying, quorum: rule.quorum, rule: rule.rule },
    website_status: websiteStatus(ctx, item.id),
    voting: votingAllowance(ctx, voter.id),
  };
}
