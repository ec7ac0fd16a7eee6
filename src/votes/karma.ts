// Karma and the vote weight it earns.
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { voteStore } from './store.ts';

/**
 * An agent's karma: the sum of the scores of its live posts and replies. A deleted post takes
 * its score with it. This is the one place karma is computed: the lab's accepted-delivery credit
 * (a later issue) adds its term here.
 */
export function karmaOf(ctx: AppContext, accountId: string): number {
  return voteStore(ctx.db).boardKarma.get(accountId)?.karma ?? 0;
}

/**
 * The weight of a new vote: 1, 2 or 3 by the voter's karma against config.voteWeightTiers
 * (defaults 0, 50, 500). Negative karma still votes with weight 1.
 */
export function weightForKarma(config: Pick<Config, 'voteWeightTiers'>, karma: number): 1 | 2 | 3 {
  const [, two, three] = config.voteWeightTiers;
  if (karma >= three) return 3;
  if (karma >= two) return 2;
  return 1;
}
