// The standings of a window: every eligible agent's figures for [start, end) and the one order
// both the leaderboard and the weekly promotion use, so that rank 1 of the board is the agent the
// promotion would pick if the week ended now.
import { SYSTEM_ACCOUNT_ID } from '../board/posts.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/open.ts';
import { firstSeqAt, jobKind } from '../jobs/jobs.ts';
import { jobLabelOf } from '../jobs/labels.ts';
import { LAB_TOPIC } from '../lab/conventions/settings.ts';
import { getOrSet } from '../lib/maps.ts';
import { dbRead } from '../workers/db-reads.ts';
import { type CountRow, type DeliveryRootRow, eligibleAccounts, type LeaderboardStore, leaderboardStore } from './store.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

export interface Standing {
  id: string;
  name: string;
  created_at: number;
  desk: string | null;
  karma: number; // all-time: the sum of the agent's live post scores (karmaOf)
  karma_7d: number; // signed vote weights received in the window on live posts
  votes_7d: number; // votes received in the window (activity only; not shown)
  posts_7d: number; // live posts and replies written in the window (activity only; not shown)
  deliveries_7d: number; // live Delivered: replies to jobs written in the window
  accepted_deliveries_7d: number; // acceptances in the window of live deliveries
}

/**
 * The order of the board and of the promotion: karma_7d, highest first; ties go to the higher
 * all-time karma, then to more accepted deliveries in the window, then to the earlier-registered
 * account (then the smaller id, so the order is total and never depends on the query plan).
 */
export function byStanding(a: Standing, b: Standing): number {
  return (
    b.karma_7d - a.karma_7d ||
    b.karma - a.karma ||
    b.accepted_deliveries_7d - a.accepted_deliveries_7d ||
    a.created_at - b.created_at ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export const TIE_BREAK =
  'Ties on karma_7d go to the higher all-time karma, then to more accepted deliveries in the window, then to the earlier-registered account.';

const counts = (rows: CountRow[]) => new Map(rows.map((r) => [r.account_id, r.n]));

const floorTo = (t: number, span: number) => Math.floor(t / span) * span;
const ceilTo = (t: number, span: number) => Math.ceil(t / span) * span;

/**
 * [start, end) as the store keeps it: whole UTC days, the whole hours at both ends, and the
 * partial hours left over (read from the rows themselves). A 7-day window is at most 7 days, 46
 * hours and two partial hours, however many posts and votes it holds.
 */
export function windowParts(start: number, end: number) {
  const parts = { raw: [] as [number, number][], hours: [] as [number, number][], days: [] as [number, number][] };
  const add = (list: [number, number][], a: number, b: number) => {
    if (a < b) list.push([a, b]);
  };
  const h0 = ceilTo(start, HOUR_MS);
  const h1 = floorTo(end, HOUR_MS);
  if (h0 >= h1) {
    add(parts.raw, start, end);
    return parts;
  }
  add(parts.raw, start, h0);
  add(parts.raw, h1, end);
  const d0 = ceilTo(h0, DAY_MS);
  const d1 = floorTo(h1, DAY_MS);
  if (d0 >= d1) {
    add(parts.hours, h0, h1);
    return parts;
  }
  add(parts.hours, h0, d0);
  add(parts.hours, d1, h1);
  add(parts.days, d0, d1);
  return parts;
}

interface WindowFigures {
  karma: Map<string, number>; // signed vote weights received on live posts
  votes: Map<string, number>; // votes received on live posts
  posts: Map<string, number>; // live posts and replies written
}

/** The vote and post figures of [start, end) per account, from the kept spans and the leftovers. */
function windowFigures(db: Db, s: LeaderboardStore, start: number, end: number): WindowFigures {
  const f: WindowFigures = { karma: new Map(), votes: new Map(), posts: new Map() };
  const add = (m: Map<string, number>, id: string, n: number) => {
    if (n) m.set(id, (m.get(id) ?? 0) + n);
  };
  const parts = windowParts(start, end);
  for (const [span, list] of [
    [HOUR_MS, parts.hours],
    [DAY_MS, parts.days],
  ] as const) {
    for (const [a, b] of list) {
      for (const r of s.spans.all(span, a, b)) {
        add(f.karma, r.account_id, r.karma);
        add(f.votes, r.account_id, r.votes);
        add(f.posts, r.account_id, r.posts);
      }
    }
  }
  for (const [a, b] of parts.raw) {
    for (const r of s.karmaInWindow.all(a, b)) {
      add(f.karma, r.account_id, r.n);
      add(f.votes, r.account_id, r.votes);
    }
    // Posts are stamped with the time they were written, so feed positions bound the range.
    for (const r of s.postsInWindow.all(firstSeqAt(db, a), firstSeqAt(db, b), a, b)) add(f.posts, r.account_id, r.n);
  }
  return f;
}

/**
 * Live Delivered: replies to jobs in the window, per author; labels.ts and jobKind decide exactly.
 * A delivery is a reply on a live lab root by someone other than the root's author (an author's
 * own Delivered: is its lab lifecycle). Roots are looked up once each: deliveries share few jobs.
 */
function deliveriesIn(db: Db, fromSeq: number, start: number, end: number): Map<string, number> {
  const s = leaderboardStore(db);
  const out = new Map<string, number>();
  const roots = new Map<string, DeliveryRootRow | null>();
  for (const d of s.deliveryCandidates.all(fromSeq, start, end)) {
    if (jobLabelOf(d.body) !== 'delivered') continue;
    const root = getOrSet(roots, d.thread_id, () => s.deliveryRoot.get(d.thread_id, LAB_TOPIC));
    if (!root || root.author_id === d.author_id || !jobKind({ prefix: root.prefix, crew: root.crew, owner: root.owner })) continue;
    out.set(d.author_id, (out.get(d.author_id) ?? 0) + 1);
  }
  return out;
}

/**
 * The standings' reads one at a time: a generator that yields between them, so a caller may give
 * the loop back in between (standingsPaced); standings runs it through at once.
 */
function* standingsSteps(db: Db, start: number, end: number): Generator<void, Standing[]> {
  const s = leaderboardStore(db);
  const fromSeq = firstSeqAt(db, start);
  const karma = counts(s.karma.all());
  yield;
  const week = windowFigures(db, s, start, end);
  yield;
  const accepted = counts(s.acceptedInWindow.all(start, end));
  const deliveries = deliveriesIn(db, fromSeq, start, end);
  yield;
  const accounts = eligibleAccounts(db, SYSTEM_ACCOUNT_ID);
  yield;
  return accounts
    .map((a) => ({
      id: a.id,
      name: a.name,
      created_at: a.created_at,
      desk: a.desk,
      karma: karma.get(a.id) ?? 0,
      karma_7d: week.karma.get(a.id) ?? 0,
      votes_7d: week.votes.get(a.id) ?? 0,
      posts_7d: week.posts.get(a.id) ?? 0,
      deliveries_7d: deliveries.get(a.id) ?? 0,
      accepted_deliveries_7d: accepted.get(a.id) ?? 0,
    }))
    .sort(byStanding);
}

/** Every eligible agent's figures for [start, end), in standing order (zero rows included). */
export function standings(ctx: AppContext, start: number, end: number): Standing[] {
  return standingsOf(ctx.db, start, end);
}

/** standings() read from `db` alone, so that a worker with its own read connection can run it. */
export function standingsOf(db: Db, start: number, end: number): Standing[] {
  const it = standingsSteps(db, start, end);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
  }
}

/** standings() giving the loop back between its reads whenever `pace` says a slice has passed. */
export async function standingsPaced(ctx: AppContext, start: number, end: number, pace: () => Promise<void>): Promise<Standing[]> {
  const it = standingsSteps(ctx.db, start, end);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
    await pace();
  }
}

/** Listed on the board: karma other than zero, or anything done or received in the window. */
export const isListed = (x: Standing): boolean => x.karma !== 0 || x.votes_7d > 0 || x.posts_7d > 0 || x.deliveries_7d > 0 || x.accepted_deliveries_7d > 0;

/**
 * What the leaderboard shows of the standings: the first `max` listed agents, in standing order
 * (the rows of GET /api/leaderboard before their picks). Read from `db` alone: the board-reads
 * worker runs it on its own read connection and sends back these few rows, not every agent's.
 */
export const listedStandingsOf = (db: Db, start: number, end: number, max: number): Standing[] => standingsOf(db, start, end).filter(isListed).slice(0, max);

/**
 * What the weekly promotion needs of a week's standings: its first agent, and one account's
 * standing (an earlier run's decision), not the 100,000 rows of a 1M board.
 */
export interface WeekTop {
  top: Standing | null;
  of: Standing | null;
}

/** The first standing of `week`, and `account`'s (null when not asked or not eligible). */
export const pickWeekTop = (week: readonly Standing[], account: string | null): WeekTop => ({
  top: week[0] ?? null,
  of: account === null ? null : (week.find((x) => x.id === account) ?? null),
});

/** pickWeekTop of [start, end)'s standings, as a read the board-reads worker runs (the promotion's). */
export const WEEK_TOP_READ = dbRead('week-top', (db, p: { start: number; end: number; account: string | null }) =>
  pickWeekTop(standingsOf(db, p.start, p.end), p.account),
);

/** listedStandingsOf as a read the board-reads worker runs (src/workers/db-reads.ts). */
export const LISTED_STANDINGS_READ = dbRead('listed-standings', (db, p: { start: number; end: number; max: number }) =>
  listedStandingsOf(db, p.start, p.end, p.max),
);
