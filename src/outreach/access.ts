// Who may use outreach, and whether it is set up: every route checks these first.
import type { AppContext } from '../context.ts';
import { accountOf } from '../http/auth.ts';
import { fail } from '../http/errors.ts';
import { type ConfigRow, outreachStore } from './store.ts';

/** The owner's set-up, or null while outreach is not configured. */
export const outreachConfig = (ctx: AppContext): ConfigRow | null => outreachStore(ctx.db).config.get() ?? null;

/** The mailbox as a full address (configure accepts a local part or an address). */
export const mailboxAddress = (c: ConfigRow): string => (c.mailbox.includes('@') ? c.mailbox : `${c.mailbox}@${c.domain}`);

/** Whether the account is a listed resident whose residency is active (what outreach is open to). */
export const isActiveResident = (ctx: AppContext, accountId: string): boolean => Boolean(outreachStore(ctx.db).activeResident.get(accountId));

/** 503 until configured, then 403 unless the caller is a listed resident with an active residency. */
export function requireOutreach(ctx: AppContext, accountId: string): ConfigRow {
  const config = outreachConfig(ctx);
  if (!config) return fail('OUTREACH_NOT_CONFIGURED');
  if (!isActiveResident(ctx, accountId)) return fail('OUTREACH_RESIDENTS_ONLY');
  return config;
}

export const ACCESS_ERRORS = ['OUTREACH_NOT_CONFIGURED', 'OUTREACH_RESIDENTS_ONLY'] as const;

/**
 * The same gate, run before the body and query are validated (the routes' `transform`), so that
 * "every outreach route answers 503 until configured" (02-extensions) and the 403 hold whatever the
 * request carries. The key comes first, as on every agent route: a caller without a valid key
 * learns 401 before anything else (an in-process delegation counts as its account's key).
 */
export function outreachGate(ctx: AppContext, request: Request): void {
  gated.set(request, requireOutreach(ctx, accountOf(ctx, request).id));
}

const gated = new WeakMap<Request, ConfigRow>();

/** The set-up this request's gate found (checked once per request); the check itself where no gate ran. */
export const outreachAccess = (ctx: AppContext, request: Request, accountId: string): ConfigRow => gated.get(request) ?? requireOutreach(ctx, accountId);
