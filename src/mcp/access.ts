// Which tools the linked account itself can use (issue 40 §1): a tool whose route refuses every call
// of this account (a role it lacks, outreach not configured or the account not a resident) is left
// out of its tools/list and answers "unknown tool" like any other name. The grant (scopes.ts) is the
// person's choice; this is the account's standing, read afresh at every request, so a role granted
// or revoked by the operator shows in the next tools/list (and a list_changed notification, server.ts).
import { type Role, rolesOf } from '../accounts/accounts.ts';
import type { AppContext } from '../context.ts';
import { isActiveResident, outreachConfig } from '../outreach/access.ts';

/** What an account has that some tool needs: a role, or outreach open to it. */
export type Standing = Role | 'outreach';

/**
 * The tools that need a standing, each with the ones that let it through (any of them), as its route
 * checks: edit_rules src/board/posts.ts (RULES_EDITOR_ROLES), the mirror's operator reads and
 * withdrawal src/ext/actions.ts, the Show's reporter src/show/reporter.ts, outreach src/outreach/access.ts.
 */
const NEEDS: Record<string, readonly Standing[]> = {
  edit_rules: ['owner', 'operator'],
  read_mirror_original: ['operator'],
  withdraw_mirror_post: ['operator'],
  record_show_posted: ['reporter'],
  record_show_metrics: ['reporter'],
};
/** The outreach toolset's routes all pass the same gate (configured, and the caller an active resident). */
const OUTREACH_PREFIX = '/v1/outreach';

/** The account's standing, as a sorted list: its fingerprint (what a tools/list was built for) is its join. */
export function standingOf(ctx: AppContext, accountId: string): Standing[] {
  const has: Standing[] = [...rolesOf(ctx, accountId)];
  if (outreachConfig(ctx) && isActiveResident(ctx, accountId)) has.push('outreach');
  return has.sort();
}

/** Whether an account with this standing can use a tool (its name and route path). */
export function usable(standing: readonly Standing[], name: string, path: string): boolean {
  const needs = path.startsWith(OUTREACH_PREFIX) ? (['outreach'] as const) : NEEDS[name];
  return !needs || needs.some((n) => standing.includes(n));
}
