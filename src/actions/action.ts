// Operator actions, declared once (docs/operations.md, "Operator actions"). Each domain hands the
// composition root its actions as a part, like its routes: a name (the CLI path), the argv it
// takes (one short synopsis that both parses `svc admin` arguments and prints the help), an input
// schema, the roles that may run it, the effect, and what the audit log records. The CLI
// (src/admin/cli.ts) and the console (src/admin/console/) run an action only through runAction,
// so both do exactly the same thing and write the same audit row.
import * as v from 'valibot';
import type { Role } from '../accounts/accounts.ts';
import { UsageError } from '../admin/args.ts';
import { enforceContentRules } from '../content/index.ts';
import type { AppContext } from '../context.ts';
import { groupCommit, logSyncedOffThread } from '../db/group-commit.ts';
import { tx } from '../db/open.ts';
import { fail } from '../http/errors.ts';
import { auditStore } from './store.ts';

/** Who ran an action: the server's shell (the machine's owner) or a signed-in account. */
export type Actor = { kind: 'cli' } | { kind: 'account'; id: string; name: string; roles: readonly Role[] };
export const CLI_ACTOR: Actor = { kind: 'cli' };

/** What the moderation log calls an operator action on public content (GET /api/modlog). */
export const MODLOG_KINDS = [
  'post_removed',
  'post_restored',
  'article_hidden',
  'article_restored',
  'comment_hidden',
  'lab_page_taken_down',
  'mirror_post_withdrawn',
  'key_revoked',
  'role_granted',
  'role_revoked',
] as const;
export type ModlogKind = (typeof MODLOG_KINDS)[number];

/** The audit row of one run: what it acted on, the operator's reason, and its modlog kind if public. */
export interface AuditEntry {
  target: string;
  reason?: string | null;
  modlog?: ModlogKind;
}

export type ArgvInput = Record<string, string | boolean | undefined>;

export interface Action<I = unknown, R = unknown> {
  /** The CLI path, e.g. `agent create`. */
  name: string;
  /**
   * The arguments after the name, as the help prints them: `NAME` is a positional (input key
   * `name`; `key:LABEL` names the key), `--flag VALUE` a required option (key `flag`, dashes as
   * underscores), `[--flag VALUE]` an optional one, `[--flag]` a switch (true when given).
   */
  argv?: string;
  /** Shown after the synopsis in the help. */
  note?: string;
  /** Checks (and may transform) the input the argv or a form gave. */
  input: v.GenericSchema<unknown, I>;
  /** The roles that may run it from the console (the CLI is the machine owner and may run all). */
  who: readonly Role[];
  /** Input members the public will read (a reason): they pass the same content rules as an agent's text. */
  publicText?: readonly string[];
  /**
   * What an account must send as `confirm` to run it (the target's name, compared ignoring case),
   * or null when this input needs no confirmation: the console asks twice before a step that is
   * hard to take back. The CLI's command line is its own confirmation.
   */
  confirm?(input: I, actor: Actor): string | null;
  /** The effect, inside the same transaction as its audit row. */
  run(ctx: AppContext, input: I, actor: Actor): R;
  /** What happens after the commit (e-mail delivery); the action's answer is what this resolves to. */
  after?(ctx: AppContext, result: R): Promise<unknown>;
  /** The audit row; reads leave this out and write none. */
  audit?(input: I, result: R): AuditEntry | null;
}

/** Declares an action with its input's type inferred from its schema. */
export const action = <S extends v.GenericSchema<unknown, unknown>, R>(a: Action<v.InferOutput<S>, R> & { input: S }): Action => a as Action;

interface Token {
  kind: 'positional' | 'option' | 'switch';
  key: string;
  label: string;
  required: boolean;
  flag?: string;
}

const keyOf = (label: string) => label.toLowerCase().replace(/-/g, '_');

/** The synopsis read into tokens (see Action.argv). */
export function synopsis(argv: string | undefined): Token[] {
  const tokens: Token[] = [];
  const parts = (argv ?? '').match(/\[[^\]]+\]|\S+/g) ?? [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const optional = p.startsWith('[');
    const inner = optional ? p.slice(1, -1).trim().split(/\s+/) : [p];
    const word = inner[0]!;
    if (word.startsWith('--')) {
      const flag = word;
      const value = optional ? inner[1] : parts[i + 1];
      if (!optional && value !== undefined) i++;
      tokens.push({ kind: value ? 'option' : 'switch', key: keyOf(flag.slice(2)), label: value ?? '', required: !optional, flag });
    } else {
      const [key, label] = word.includes(':') ? (word.split(':') as [string, string]) : [keyOf(word), word];
      tokens.push({ kind: 'positional', key, label, required: true });
    }
  }
  return tokens;
}

/** The help's line for an action, or for sibling actions that take the same arguments (`lab allow|deny NAME`). */
export function usageLine(a: Action, verbs: readonly string[] = [a.name.split(' ').at(-1)!]): string {
  const shown = (a.argv ?? '').replace(/\b[a-z_]+:/g, '');
  const line = `svc admin ${[...a.name.split(' ').slice(0, -1), verbs.join('|')].join(' ')}${shown ? ` ${shown}` : ''}`;
  return a.note ? `${line.padEnd(48)} (${a.note})` : line;
}

/** The help's lines: one per action, siblings next to each other with the same arguments on one line. */
export function usageLines(actions: readonly Action[]): string[] {
  const groups: Action[][] = [];
  const stem = (a: Action) => a.name.split(' ').slice(0, -1).join(' ');
  for (const a of actions) {
    const last = groups.at(-1)?.[0];
    if (last && stem(last) !== '' && stem(last) === stem(a) && last.argv === a.argv && last.note === a.note) groups.at(-1)!.push(a);
    else groups.push([a]);
  }
  return groups.map((g) =>
    usageLine(
      g[0]!,
      g.map((a) => a.name.split(' ').at(-1)!),
    ),
  );
}

/** `svc admin` arguments after the name, read into the action's input object (strings and switches). */
export function parseArgv(a: Action, args: readonly string[]): ArgvInput {
  const tokens = synopsis(a.argv);
  const input: ArgvInput = {};
  const rest = [...args];
  for (const t of tokens.filter((t) => t.kind !== 'positional')) {
    const i = rest.indexOf(t.flag!);
    if (i < 0) {
      if (t.required) throw new UsageError(`${a.name} needs ${t.flag} ${t.label}`);
      continue;
    }
    if (t.kind === 'switch') {
      input[t.key] = true;
      rest.splice(i, 1);
      continue;
    }
    const value = rest[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${t.flag} needs a value`);
    input[t.key] = value;
    rest.splice(i, 2);
  }
  const unknownFlag = rest.find((x) => x.startsWith('--'));
  if (unknownFlag) throw new UsageError(`unknown option ${unknownFlag}`);
  const positionals = tokens.filter((t) => t.kind === 'positional');
  if (rest.length !== positionals.length) throw new UsageError(`expected ${positionals.length} argument(s), got ${rest.length}`);
  positionals.forEach((t, i) => {
    input[t.key] = rest[i];
  });
  return input;
}

/** The input checked by the action's schema; a mistake is a usage error naming the field. */
export function checkInput<I>(a: Action<I>, raw: unknown): I {
  const r = v.safeParse(a.input, raw);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const field = issue.path?.map((p) => String(p.key)).join('.');
  throw new UsageError(`${field ? `${field}: ` : ''}${issue.message}`);
}

export const actorName = (actor: Actor) => (actor.kind === 'cli' ? 'cli' : actor.name);

/** Whether the raw input's `confirm` names what the action asked for (ignoring case and outer spaces). */
const confirmed = (raw: unknown, asked: string): boolean => {
  const sent = (raw as Record<string, unknown> | null)?.confirm;
  return typeof sent === 'string' && sent.trim().toLowerCase() === asked.toLowerCase();
};

/** Whether the actor may run the action: the cli always; an account with one of its roles. */
export const mayRun = (a: Action, actor: Actor) => actor.kind === 'cli' || actor.roles.some((r) => a.who.includes(r));

/**
 * Runs an action: the input checked, the actor's roles checked, public text through the content
 * rules, then the effect and its audit row in one transaction. An action with an `after` step, and
 * in the server one that writes, answers a promise (a refusal is then a rejection, never a throw).
 */
export function runAction(ctx: AppContext, a: Action, raw: unknown, actor: Actor): unknown {
  const once = () => {
    const input = checkInput(a, raw);
    if (!mayRun(a, actor)) fail('NOT_ALLOWED', { action: a.name, roles: [...a.who] }, `Only ${a.who.join(', ')} may ${a.name}.`);
    const asked = actor.kind === 'account' ? (a.confirm?.(input, actor) ?? null) : null;
    if (asked !== null && !confirmed(raw, asked))
      fail(
        'INVALID_REQUEST',
        { field: 'confirm', expected: asked },
        `${a.name} needs a confirmation: tick or type “${asked}” in the confirm field and send again.`,
      );
    for (const key of a.publicText ?? []) {
      const text = (input as Record<string, unknown>)[key];
      if (typeof text === 'string') enforceContentRules({ [key]: text });
    }
    const effect = () => {
      const result = a.run(ctx, input, actor);
      const entry = a.audit?.(input, result);
      if (entry) {
        const id = actor.kind === 'cli' ? null : actor.id;
        auditStore(ctx.db).insert.run(ctx.clock.now(), actorName(actor), id, a.name, entry.target, entry.reason ?? null, entry.modlog ?? null);
      }
      return result;
    };
    // In the server (the console), a write joins the group commit: its sync runs off the request
    // thread, and the answer (a promise) waits until the write is durable. `svc admin` runs in a
    // process of its own, not on a thread that answers requests: there, and for every read, one
    // transaction answers at once.
    return a.audit && logSyncedOffThread(ctx.db) ? groupCommit(ctx.db, effect) : tx(ctx.db, effect);
  };
  if (!a.after) return once();
  const after = a.after;
  return new Promise((resolve) => resolve(once())).then((result) => after(ctx, result));
}

/** The action named by the longest leading words of argv, and the words after it. */
export function findAction(actions: readonly Action[], argv: readonly string[]): { action: Action; rest: string[] } | null {
  let best: Action | null = null;
  for (const a of actions) {
    const words = a.name.split(' ');
    if (words.every((w, i) => argv[i] === w) && (!best || words.length > best.name.split(' ').length)) best = a;
  }
  return best ? { action: best, rest: argv.slice(best.name.split(' ').length) } : null;
}

declare module '../context.ts' {
  interface Parts {
    /** Every domain's operator actions (src/actions/action.ts), run by `svc admin` and the console. */
    actions: readonly Action[];
  }
}
