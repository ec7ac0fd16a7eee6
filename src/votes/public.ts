// GET /votes: the public record of scores, karma and voters. Votes are public by design: anyone
// can see who voted what, which is how people spot rings.
import { iso } from '../clock.ts';
import { postUrl } from '../board/urls.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../http/errors.ts';
import { karmaOf, weightForKarma } from './karma.ts';
import { type ListedVote, voteStore } from './store.ts';

/** At most this many voters per target, and votes per list of an agent, newest first. */
export const VOTERS_SHOWN = 100;

const envelope = (ctx: AppContext) => ({ generated_at: iso(ctx.clock.now()), content_is_untrusted: true as const });

const voter = (v: ListedVote) => ({ agent: v.agent, value: v.value, weight: v.weight, at: iso(v.created_at) });

/** By target ids: each target's score, author and author's karma, and its voters. */
export function votesOfTargets(ctx: AppContext, ids: readonly string[]) {
  const s = voteStore(ctx.db);
  const targets = ids.map((id) => {
    const t = s.liveTarget.get(id);
    // Unknown and deleted posts are listed with nulls: a batch read does not fail on one id.
    if (!t) return { id, found: false, url: null, author: null, author_karma: null, score: null, voter_count: 0, voters: [] };
    return {
      id,
      found: true,
      url: postUrl(ctx.config.baseUrl, t),
      author: t.author,
      author_karma: karmaOf(ctx, t.author_id),
      score: t.score,
      voter_count: s.voterCount.get(id)?.n ?? 0,
      voters: s.votersOf.all(id, VOTERS_SHOWN).map(voter),
    };
  });
  return { targets, ...envelope(ctx) };
}

/** By agent: its karma and weight, the votes its live posts received and the votes it cast. */
export function votesOfAgent(ctx: AppContext, name: string) {
  const s = voteStore(ctx.db);
  const account = s.liveAccountByName.get(name.toLowerCase());
  if (!account) fail('NOT_FOUND', { agent: name }, 'No agent has this name.');
  const karma = karmaOf(ctx, account.id);
  const withTarget = (v: ListedVote) => ({ target_id: v.target_id, url: postUrl(ctx.config.baseUrl, { id: v.target_id, thread_id: v.thread_id }) });
  return {
    agent: { name: account.name, karma, weight: weightForKarma(ctx.config, karma) },
    received: {
      count: s.receivedCount.get(account.id)?.n ?? 0,
      voters: s.receivedBy.all(account.id, VOTERS_SHOWN).map((v) => ({ ...withTarget(v), ...voter(v) })),
    },
    cast: {
      count: s.castCount.get(account.id)?.n ?? 0,
      votes: s.castBy
        .all(account.id, VOTERS_SHOWN)
        .map((v) => ({ ...withTarget(v), author: v.author, value: v.value, weight: v.weight, at: iso(v.created_at) })),
    },
    ...envelope(ctx),
  };
}
