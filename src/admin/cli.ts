// `svc admin …`: operator commands on the same data directory. Prints JSON; on failure prints a
// JSON error and exits non-zero. Each command calls the same domain functions as the routes.
import { addCrew, createAgentWithRole, removeCrew, setLabAllowed, setResidency, setResident, setRole, setShift } from '../accounts/admin.ts';
import type { AppContext } from '../context.ts';
import { takedownLabPage } from '../lab/pages/pages.ts';
import { addBuyback } from '../market/admin.ts';
import { runJob } from '../scheduler/scheduler.ts';
import { createFetcherCredential } from '../ext/credential.ts';
import { ApiError } from '../http/errors.ts';
import { type AdminGroup, oneOf, option, positional, UsageError } from './args.ts';
import { PUBS_ADMIN } from '../pubs/admin.ts';
import { OUTREACH_ADMIN } from '../outreach/admin.ts';

/** Commands that belong to one domain, listed here like routes in app.ts. */
const GROUPS: readonly AdminGroup[] = [PUBS_ADMIN, OUTREACH_ADMIN];

export const ADMIN_USAGE = `svc admin agent create NAME [--role owner|operator|editor|reporter|scorekeeper]
svc admin role grant|revoke NAME ROLE
svc admin crew add NAME --desk DESK
svc admin crew remove NAME
svc admin shift set NAME on|off [--next-on ISO]
svc admin resident add|remove NAME
svc admin residency stop|resume NAME
svc admin lab allow|deny NAME
svc admin lab takedown NAME SLUG
svc admin buyback add --usd AMOUNT [--at ISO] [--note TEXT]
svc admin fetcher create          (prints the outside mirror's fetcher credential, once)
svc admin run JOB                 (runs a scheduled job now and prints what it did)
${GROUPS.map((g) => g.usage)
  .filter(Boolean)
  .join('\n')}`.trimEnd();

/** `svc admin help`: readable text, not JSON; needs no database. */
export const ADMIN_HELP = `svc admin: operator commands on the server's database, safe while the server runs. Each
works on the folder named by --data DIR (or SVC_DATA_DIR; default ./data), prints one JSON object,
and on a mistake prints a JSON error and exits non-zero.

${ADMIN_USAGE}`;

function runScheduled(ctx: AppContext, name: string | undefined, args: string[]) {
  positional(args, 0);
  // The same jobs the server schedules (src/compose.ts).
  const job = ctx.parts.jobs.find((j) => j.name === name);
  if (!job) throw new UsageError(`unknown job ${name ?? '(none)'}; jobs: ${ctx.parts.jobs.map((j) => j.name).join(', ')}`);
  return runJob(ctx, job, 'manual');
}

export function runAdmin(ctx: AppContext, argv: string[]): unknown {
  const [group, action, ...rest] = argv;
  const args = [...rest];
  if (group === 'run') return runScheduled(ctx, action, args);
  const owned = GROUPS.find((g) => g.group === group);
  if (owned) return owned.run(ctx, action, args);
  switch (`${group} ${action}`) {
    case 'agent create': {
      const role = option(args, '--role');
      const [name] = positional(args, 1);
      return createAgentWithRole(ctx, name!, role);
    }
    case 'role grant':
    case 'role revoke': {
      const [name, role] = positional(args, 2);
      return setRole(ctx, action as 'grant' | 'revoke', name!, role!);
    }
    case 'crew add': {
      const desk = option(args, '--desk');
      if (!desk) throw new UsageError('crew add needs --desk DESK');
      const [name] = positional(args, 1);
      return addCrew(ctx, name!, desk);
    }
    case 'crew remove':
      return removeCrew(ctx, positional(args, 1)[0]!);
    case 'shift set': {
      const nextOn = option(args, '--next-on');
      const [name, shift] = positional(args, 2);
      return setShift(ctx, name!, oneOf(shift, ['on', 'off'] as const), nextOn);
    }
    case 'resident add':
    case 'resident remove':
      return setResident(ctx, action as 'add' | 'remove', positional(args, 1)[0]!);
    case 'residency stop':
    case 'residency resume':
      return setResidency(ctx, action as 'stop' | 'resume', positional(args, 1)[0]!);
    case 'lab takedown': {
      const [name, slug] = positional(args, 2);
      return takedownLabPage(ctx, name!, slug!);
    }
    case 'lab allow':
    case 'lab deny':
      return setLabAllowed(ctx, action as 'allow' | 'deny', positional(args, 1)[0]!);
    case 'fetcher create':
      positional(args, 0);
      return createFetcherCredential(ctx);
    case 'buyback add': {
      const usd = option(args, '--usd');
      const at = option(args, '--at');
      const note = option(args, '--note');
      positional(args, 0);
      if (usd === undefined) throw new UsageError('buyback add needs --usd AMOUNT');
      return addBuyback(ctx, { usd, ...(at !== undefined ? { at } : {}), ...(note !== undefined ? { note } : {}) });
    }
    default:
      throw new UsageError(`unknown admin command: ${[group, action].filter(Boolean).join(' ') || '(none)'}`);
  }
}

/** The JSON printed for a failed admin command. */
export function adminError(err: unknown): { error: { code: string; message: string; details?: unknown; usage?: string } } {
  if (err instanceof UsageError) return { error: { code: 'USAGE', message: err.message, usage: ADMIN_USAGE } };
  if (err instanceof ApiError) return { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
  return { error: { code: 'INTERNAL', message: String((err as Error)?.message ?? err) } };
}
