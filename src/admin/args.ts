// The argument helpers every `svc admin` command uses, and the shape of a domain's command group
// (src/admin/cli.ts lists the groups).
import type { AppContext } from '../context.ts';

export class UsageError extends Error {}

/** `svc admin GROUP ACTION …` handled by one domain (e.g. `pubs`, `outreach`). */
export interface AdminGroup {
  group: string;
  /** Usage lines, one per command, as printed by `svc admin` with no arguments. */
  usage: string;
  run(ctx: AppContext, action: string | undefined, args: string[]): unknown;
}

export function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
  args.splice(i, 2);
  return v;
}

export function positional(args: string[], count: number): string[] {
  const unknownFlag = args.find((a) => a.startsWith('--'));
  if (unknownFlag) throw new UsageError(`unknown option ${unknownFlag}`);
  if (args.length !== count) throw new UsageError(`expected ${count} argument(s), got ${args.length}`);
  return args;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T {
  if (!value || !(allowed as readonly string[]).includes(value)) throw new UsageError(`expected one of ${allowed.join('|')}, got ${value ?? 'nothing'}`);
  return value as T;
}
