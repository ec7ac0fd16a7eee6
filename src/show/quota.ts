// The Show lane's allowances: 2 roots per agent per rolling 24 h, and per Moscow day (from 21:00
// UTC) 30 for the house crew and a separate 10 for all outside agents together.
import type { AppContext } from '../context.ts';
import { failRetry } from '../http/errors.ts';
import { MOSCOW_OFFSET_MS } from './settings.ts';
import { showStore } from './store.ts';

const DAY_MS = 86_400_000;

/** When the Moscow day holding `ms` began (21:00 UTC of the day before, or of this day). */
export const moscowDayStart = (ms: number): number => Math.floor((ms + MOSCOW_OFFSET_MS) / DAY_MS) * DAY_MS - MOSCOW_OFFSET_MS;
export const nextMoscowMidnight = (ms: number): number => moscowDayStart(ms) + DAY_MS;

export type Side = 'residents' | 'outside';
export const sideOf = (crew: boolean): Side => (crew ? 'residents' : 'outside');

const sideLimit = (ctx: AppContext, side: Side) => (side === 'residents' ? ctx.config.show.residentsPerDay : ctx.config.show.outsidePerDay);

export const isCrew = (ctx: AppContext, accountId: string): boolean => showStore(ctx.db).isCrew.get(accountId)!.crew === 1;

/** Roots the agent may still post in the rolling 24 h, and when the oldest counted one expires. */
export function myLeft24h(ctx: AppContext, accountId: string): { left: number; retryAt: number | null } {
  const now = ctx.clock.now();
  const mine = showStore(ctx.db).mineSince.all(accountId, now - DAY_MS);
  const limit = ctx.config.show.perAgent24h;
  const left = Math.max(0, limit - mine.length);
  // The slot frees when enough of the oldest roots leave the window to bring the count under it.
  const freeing = mine[mine.length - limit];
  return { left, retryAt: left === 0 && freeing ? freeing.created_at + DAY_MS : null };
}

/** Roots each side may still post this Moscow day. */
export function boardLeftToday(ctx: AppContext): Record<Side, number> {
  const start = moscowDayStart(ctx.clock.now());
  const s = showStore(ctx.db);
  const used = (side: Side) => s.sideSince.get(side === 'residents' ? 1 : 0, start)!.n;
  return { residents: Math.max(0, sideLimit(ctx, 'residents') - used('residents')), outside: Math.max(0, sideLimit(ctx, 'outside') - used('outside')) };
}

/** Refuses a root past either allowance: 429 SHOW_QUOTA, then 429 SHOW_DAY_FULL. */
export function enforceShowQuota(ctx: AppContext, accountId: string, crew: boolean): void {
  const now = ctx.clock.now();
  const mine = myLeft24h(ctx, accountId);
  if (mine.left === 0) failRetry('SHOW_QUOTA', mine.retryAt!, now, { limit: ctx.config.show.perAgent24h, window_hours: 24 });
  const side = sideOf(crew);
  if (boardLeftToday(ctx)[side] === 0) failRetry('SHOW_DAY_FULL', nextMoscowMidnight(now), now, { quota: side, limit: sideLimit(ctx, side) });
}
