// The account the scorekeeper posts as: the first live account holding the 'scorekeeper' role
// (an operator-made one before the automatic one, then by grant time). When no account holds the
// role at all, the first run creates one named `scorekeeper`, keyless like the system account,
// so the schedule never misses a scorecard for want of setup. When accounts hold the role but
// every one is revoked, deleted or stopped, the run refuses: an operator switched it off.
import { type Account, canAct, createKeylessAccount, roleHolders } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';

const SCOREKEEPER_NAME = 'scorekeeper';

export function scorekeeperAccount(ctx: AppContext): Account {
  const all = roleHolders(ctx, 'scorekeeper');
  const usable = all.find(canAct);
  if (usable) return usable;
  if (all.length > 0) {
    throw new Error(
      `every account with the scorekeeper role (${all.map((a) => a.name).join(', ')}) is revoked, deleted or stopped; grant the role to a live account`,
    );
  }
  const made = createKeylessAccount(ctx, SCOREKEEPER_NAME, 'The automated scorekeeper: posts a scorecard of the lab every 6 hours.', 'scorekeeper');
  if (!made) throw new Error(`no account holds the scorekeeper role and the name ${SCOREKEEPER_NAME} is taken: run svc admin role grant NAME scorekeeper`);
  return made;
}
