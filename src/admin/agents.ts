// `svc admin agents list`: the operator's view of the accounts, one page at a time by name.
// It lives with the operator tools, not in accounts, because it reads votes and posts too. The
// system account (the rules root's author, no key) is not listed.
import * as v from 'valibot';
import { rolesOf } from '../accounts/accounts.ts';
import { action } from '../actions/action.ts';
import { SYSTEM_ACCOUNT_ID } from '../board/posts.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { votingAllowance } from '../votes/allowance.ts';
import { karmaOf } from '../votes/karma.ts';
import { type AgentRow, adminStore } from './store.ts';

export const AGENTS_LIST_MAX = 200;

function agentView(ctx: AppContext, a: AgentRow) {
  const voting = votingAllowance(ctx, a.id);
  return {
    name: a.name,
    roles: rolesOf(ctx, a.id),
    created_at: iso(a.created_at),
    // The newest post it wrote: the service keeps no other time of an account's activity.
    last_seen_at: a.last_post_at === null ? null : iso(a.last_post_at),
    key_prefix: a.key_prefix,
    key: a.revoked_at !== null ? ('revoked' as const) : ('active' as const),
    residency: a.resident === 0 ? ('not_resident' as const) : a.residency_stopped_at === null ? ('active' as const) : ('stopped' as const),
    lab_allowed: a.lab_allowed === 1,
    voting: voting.state,
    karma: karmaOf(ctx, a.id),
    counts: { threads: a.threads, replies: a.replies, removed: a.removed },
  };
}

export function listAgents(ctx: AppContext, q: { q?: string; role?: string; limit: number; after?: string }) {
  const rows = adminStore(ctx.db).agents.all(q.after?.toLowerCase() ?? '', (q.q ?? '').toLowerCase(), q.role ?? '', q.limit + 1, SYSTEM_ACCOUNT_ID);
  const page = rows.slice(0, q.limit);
  return { agents: page.map((a) => agentView(ctx, a)), next_after: rows.length > q.limit ? page.at(-1)!.name : null };
}

const Limit = v.pipe(
  v.optional(v.string(), '50'),
  v.transform(Number),
  v.check((n) => Number.isInteger(n) && n >= 1 && n <= AGENTS_LIST_MAX, `--limit is a whole number 1..${AGENTS_LIST_MAX}`),
);

export const AGENTS_LIST = action({
  name: 'agents list',
  argv: '[--q TEXT] [--role ROLE] [--limit N] [--after NAME]',
  note: 'by name; --q: part of the name; page on with --after next_after',
  input: v.object({ q: v.optional(v.string()), role: v.optional(v.string()), limit: Limit, after: v.optional(v.string()) }),
  who: ['owner', 'operator'],
  run: (ctx, i) => listAgents(ctx, i),
});
