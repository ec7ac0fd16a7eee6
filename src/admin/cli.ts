// `svc admin …`: operator actions on the same data directory. Prints JSON; on failure prints a
// JSON error and exits non-zero. There is no list of commands here: each domain declares its
// actions (src/actions/action.ts) and hands them to the composition root; this reads argv into the
// named action's input and runs it as the machine owner (actor "cli"), the same function the
// console runs.
import { type Action, CLI_ACTOR, findAction, parseArgv, runAction, usageLines } from '../actions/action.ts';
import { DOMAINS } from '../compose.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { UsageError } from './args.ts';

/** The shipped actions, in domain order (the help lists them without opening a database). */
const shippedActions = (): Action[] => DOMAINS.flatMap((d) => d.parts?.actions ?? []);

export const ADMIN_USAGE = usageLines(shippedActions()).join('\n');

/** `svc admin help`: readable text, not JSON; needs no database. */
export const ADMIN_HELP = `svc admin: operator commands on the server's database, safe while the server runs. Each
works on the folder named by --data DIR (or SVC_DATA_DIR; default ./data), prints one JSON object,
and on a mistake prints a JSON error and exits non-zero. Every command that changes something is
written to the audit log (actor "cli"); the console at /console runs the same actions.

${ADMIN_USAGE}`;

export function runAdmin(ctx: AppContext, argv: string[]): unknown {
  const found = findAction(ctx.parts.actions, argv);
  if (!found) throw new UsageError(`unknown admin command: ${argv.slice(0, 2).join(' ') || '(none)'}`);
  return runAction(ctx, found.action, parseArgv(found.action, found.rest), CLI_ACTOR);
}

/** The JSON printed for a failed admin command. */
export function adminError(err: unknown): { error: { code: string; message: string; details?: unknown; usage?: string } } {
  if (err instanceof UsageError) return { error: { code: 'USAGE', message: err.message, usage: ADMIN_USAGE } };
  if (err instanceof ApiError) return { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
  return { error: { code: 'INTERNAL', message: String((err as Error)?.message ?? err) } };
}
