// The one-time answers of console actions (Post/Redirect/Get, docs/operations.md "The console"):
// an action's POST answers 303 to its page, and its result waits here for the next page the
// session opens, which shows it once and takes it out. So a refresh or Back shows the page again
// and never runs the action twice. Kept only in this process's memory, under the hash of the
// session's cookie token, for FLASH_MS at most: a reissued key in a result is written nowhere,
// read only by whoever holds that cookie, and forgotten on a restart or after two minutes.
import type { AppContext } from '../../context.ts';

/** What a console action answered, shown on the next page (pages.ts). */
export interface Notice {
  action: string;
  result?: unknown;
  error?: string;
}

export const FLASH_MS = 2 * 60_000;
// Results of actions a session ran without opening a page in between (two tabs): the newest few.
const PER_SESSION = 10;

interface Kept {
  notices: Notice[];
  until: number;
}

const kept = new WeakMap<AppContext, Map<string, Kept>>();
const storeOf = (ctx: AppContext) => {
  const m = kept.get(ctx) ?? new Map<string, Kept>();
  kept.set(ctx, m);
  return m;
};

/** Keeps an action's answer for the session's next page; every expired one goes (one entry per session at most). */
export function keepNotice(ctx: AppContext, tokenHash: string, notice: Notice): void {
  const m = storeOf(ctx);
  const now = ctx.clock.now();
  for (const [k, v] of m) if (v.until <= now) m.delete(k);
  const before = m.get(tokenHash)?.notices ?? [];
  m.set(tokenHash, { notices: [...before, notice].slice(-PER_SESSION), until: now + FLASH_MS });
}

/** The answers waiting for this session, taken out: a second look finds none. */
export function takeNotices(ctx: AppContext, tokenHash: string | null): Notice[] {
  if (tokenHash === null) return [];
  const m = storeOf(ctx);
  const k = m.get(tokenHash);
  if (!k) return [];
  m.delete(tokenHash);
  return k.until > ctx.clock.now() ? k.notices : [];
}

/** Forgets a session's answers (it signed out). */
export function dropNotices(ctx: AppContext, tokenHash: string | null): void {
  if (tokenHash !== null) storeOf(ctx).delete(tokenHash);
}
