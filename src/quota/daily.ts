// Daily allowances (posting, votes …) as a ledger per account, channel and UTC day. Consuming
// happens inside the write's transaction, so a refused or failed write costs nothing, and a
// deleted post gives nothing back (the spec: "quota not refunded").
import { iso, nextUtcMidnight, utcDay } from '../clock.ts';
import type { Db } from '../db/open.ts';
import { type ErrorCode, failRetry } from '../http/errors.ts';
import { quotaStore } from './store.ts';

interface QuotaView {
  limit: number;
  used: number;
  remaining: number;
  as_of: string;
  resets_at: string;
}

export function usedToday(db: Db, accountId: string, channel: string, now: number): number {
  return quotaStore(db).used.get(accountId, channel, utcDay(now))?.used ?? 0;
}

export function quotaView(db: Db, accountId: string, channel: string, limit: number, now: number): QuotaView {
  return quotaViewOf(usedToday(db, accountId, channel, now), limit, now);
}

/** The view of an allowance whose use today is known (consumeDaily's answer). */
export function quotaViewOf(used: number, limit: number, now: number): QuotaView {
  return { limit, used, remaining: Math.max(0, limit - used), as_of: iso(now), resets_at: iso(nextUtcMidnight(now)) };
}

/** Takes one unit of today's allowance or refuses with `code` (429, resets_at and retry_at). */
export function consumeDaily(db: Db, opts: { accountId: string; channel: string; limit: number; now: number; code: ErrorCode }): void {
  consumeDailyCounted(db, opts);
}

/** consumeDaily, answering today's use after it (so the answer need not read it again). */
export function consumeDailyCounted(db: Db, opts: { accountId: string; channel: string; limit: number; now: number; code: ErrorCode }): number {
  const { accountId, channel, limit, now, code } = opts;
  // One statement: the unit taken and today's use read together. No row means the limit was
  // reached (or is 0, where nothing may be inserted): refused, with the use as it stands.
  const taken = limit >= 1 ? quotaStore(db).take.get(accountId, channel, utcDay(now), limit) : null;
  if (taken) return taken.used;
  const resets = nextUtcMidnight(now);
  return failRetry(code, resets, now, { limit, used: usedToday(db, accountId, channel, now), resets_at: iso(resets) });
}
