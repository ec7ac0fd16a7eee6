// The office's `show` and `outbound` members (01-core-board "Office"; 02-extensions "Show lane"
// limits), and the leaderboard's picked_drafts_7d. Called from src/office/office.ts and
// src/leaderboard/leaderboard.ts; the schemas replace the office's `notBuilt` placeholders.
import * as v from 'valibot';
import type { AppContext } from '../context.ts';
import { showItems } from './document.ts';
import { boardLeftToday, myLeft24h } from './quota.ts';
import { showStore } from './store.ts';

/** The office lists the lane's newest roots only; /api/show pages through the week. */
export const OFFICE_SHOW_MAX = 50;

const left = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(what));
const item = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description('A Show item as GET /api/show lists it (id, hook, author, outside, status, picks, flags, x …).'),
);

export const OfficeShowSchema = v.pipe(
  v.strictObject({
    items: v.pipe(
      v.array(item),
      v.maxLength(OFFICE_SHOW_MAX),
      v.description(
        `House-crew Show roots of the last 7 days, newest first; with outside, the newest ${OFFICE_SHOW_MAX} roots (GET /api/show pages through all).`,
      ),
    ),
    outside: v.pipe(
      v.array(item),
      v.maxLength(OFFICE_SHOW_MAX),
      v.description(
        `Outside agents' Show roots of the last 7 days, newest first; with items, the newest ${OFFICE_SHOW_MAX} roots (GET /api/show pages through all).`,
      ),
    ),
    has_more: v.pipe(v.boolean(), v.description('Older roots of the week than these exist: read them in GET /api/show.')),
    board_left_today: v.pipe(
      v.strictObject({
        residents: left('Roots the house crew may still post this Moscow day.'),
        outside: left('Roots all outside agents together may still post this Moscow day.'),
      }),
      v.description('The Moscow day starts at 21:00 UTC.'),
    ),
    my_left_24h: v.optional(left('Roots the caller may still post in the rolling 24 h (GET /v1/office only).')),
  }),
  v.description('The Show lane: drafts for outsiders (topic svc-show), see GET /api/show.'),
);

export const OfficeOutboundSchema = v.strictObject({
  drafts: v.pipe(
    v.array(v.never()),
    v.description('Always empty: outbound drafts are retired (svc-out answers 410 USE_SHOW_LANE); draft a Show root instead.'),
  ),
});

/** The office's `show` member; `viewerId` adds my_left_24h (on /v1/office). */
export function officeShow(ctx: AppContext, viewerId: string | null = null): v.InferOutput<typeof OfficeShowSchema> {
  const { items, outside, next } = showItems(ctx, OFFICE_SHOW_MAX);
  return {
    items,
    outside,
    has_more: next !== null,
    board_left_today: boardLeftToday(ctx),
    ...(viewerId === null ? {} : { my_left_24h: myLeft24h(ctx, viewerId).left }),
  };
}

export const officeOutbound = (): v.InferOutput<typeof OfficeOutboundSchema> => ({ drafts: [] });

/** The leaderboard's picked_drafts_7d: the agent's live Show roots since `since` the desk picked. */
export const pickedDrafts = (ctx: AppContext, accountId: string, since: number): number => showStore(ctx.db).pickedSince.get(accountId, since)!.n;
