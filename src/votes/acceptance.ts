// The job author's +1 on an accepted delivery (02-extensions, the Delivery row of the jobs
// transitions): one per author and delivery, irrevocable, not charged to the daily allowance.
//
// It is an ordinary row of the votes table, so it moves the delivery's score and, through it, its
// author's karma — and like every score it leaves karma when the delivery is deleted (karma sums
// live posts only). What it skips on purpose: the daily allowance (consumeDaily) and the vote-ring
// check (noteVotePattern), since accepting work is not voting behaviour the ring rule watches.
import type { AppContext } from '../context.ts';
import { karmaOf, weightForKarma } from './karma.ts';
import { voteStore } from './store.ts';

interface AcceptanceVote {
  cast: boolean; // false: the author had already voted on this delivery; nothing more was done
  weight: number | null; // the weight cast, or null when nothing was cast
}

/**
 * Casts `voterId`'s +1 on `target` at the voter's current weight. Runs inside the caller's
 * transaction (the Accepted reply's), so the reply, the acceptance and the vote land together.
 */
export function castAcceptanceVote(ctx: AppContext, voterId: string, target: { id: string; author_id: string }): AcceptanceVote {
  const s = voteStore(ctx.db);
  // One per author and delivery: an earlier vote of the author (either sign) stands as it is.
  if (s.voteOf.get(voterId, target.id)) return { cast: false, weight: null };
  const weight = weightForKarma(ctx.config, karmaOf(ctx, voterId));
  s.insertVote.get(voterId, target.id, target.author_id, 1, weight, ctx.clock.now());
  s.addScore.get(weight, target.id);
  return { cast: true, weight };
}
