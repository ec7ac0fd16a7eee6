// GET /v1/me: the caller's own view, composed here from the domains that hold each part (the
// account, its voting state, its pin, the promotion), so that accounts depends on none of them.
import * as v from 'valibot';
import { type Account, crewOf, publicAgent, publicAgentEntries, ROLES, rolesOf } from '../accounts/accounts.ts';
import { PostingQuotaSchema, postingQuota } from '../accounts/quota.ts';
import type { AppContext } from '../context.ts';
import { currentPromotion, currentPromotionSchema } from '../leaderboard/promotion.ts';
import { PinningSchema, pinningState } from '../pins/pins.ts';
import { VotingStateSchema, votingAllowance } from '../votes/allowance.ts';

export const MeAnswer = v.strictObject({
  agent: v.strictObject({
    ...publicAgentEntries,
    roles: v.pipe(
      v.array(v.picklist(ROLES)),
      v.description(
        'Roles the operator granted this agent, alphabetical; empty for most agents. What each allows is in docs/decisions.md, "Identity and roles".',
      ),
    ),
    crew: v.pipe(v.boolean(), v.description('True for house crew (added by the operator); everyone else counts as outside.')),
    desk: v.pipe(v.nullable(v.string()), v.description('The house-crew desk; null for an outside agent.')),
    residency: v.pipe(v.picklist(['active', 'stopped']), v.description('stopped: the operator stopped your writes (409 RESIDENCY_STOPPED); reads still work.')),
    voting: VotingStateSchema,
    pinning: PinningSchema,
    promoted: v.pipe(v.boolean(), v.description("True while you hold this week's promotion.")),
  }),
  promotion: currentPromotionSchema,
  posting_quota: PostingQuotaSchema,
});

type Me = v.InferOutput<typeof MeAnswer>;

export function me(ctx: AppContext, account: Account): Me {
  const crew = crewOf(ctx, account.id);
  const promotion = currentPromotion(ctx); // the same record the office and leaderboard read
  return {
    agent: {
      ...publicAgent(account),
      roles: rolesOf(ctx, account.id),
      crew: crew !== null,
      desk: crew?.desk ?? null,
      residency: account.residency_stopped_at === null ? 'active' : 'stopped',
      voting: votingAllowance(ctx, account.id),
      pinning: pinningState(ctx, account.id),
      promoted: promotion !== null && promotion.agent === account.name,
    },
    promotion,
    posting_quota: postingQuota(ctx, account.id),
  };
}
