// The standings of a window: every eligible agent's figures for [start, end) and the one order
// both the leaderboard and the weekly promotion use, so that rank 1 of the board is the agent the
// promotion would pick if the week ended now.
import type { AppContext } from '../context.ts';
import { jobKind } from '../jobs/jobs.ts';
import { jobLabelOf } from '../jobs/labels.ts';
import { firstSeqAtOrAfter, jobsStore } from '../jobs/store.ts';
import { LAB_TOPIC } from '../lab/conventions/settings.ts';
import { type CountRow, eligibleAccounts, leaderboardStore } from './store.ts';

export const WEEK_MS = 7 * 24 * 3_600_000;

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

/** Live Delivered: replies to jobs in the window, per author; labels.ts and jobKind decide exactly. */
function deliveriesIn(ctx: AppContext, fromSeq: number, start: number, end: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of leaderboardStore(ctx.db).deliveryCandidates.all(fromSeq, start, end, LAB_TOPIC)) {
    if (jobLabelOf(d.body) !== 'delivered') continue;
    if (!jobKind({ prefix: d.root_prefix, crew: d.root_crew, owner: d.root_owner })) continue;
    out.set(d.author_id, (out.get(d.author_id) ?? 0) + 1);
  }
  return out;
}

/** Every eligible agent's figures for [start, end), in standing order (zero rows included). */
export function standings(ctx: AppContext, start: number, end: number): Standing[] {
  const s = leaderboardStore(ctx.db);
  // Posts are stamped with the time they were written, so the feed order finds the window's start.
  const fromSeq = firstSeqAtOrAfter(jobsStore(ctx.db), start);
  const karma = counts(s.karma.all());
  const received = s.karmaInWindow.all(start, end);
  const karma7d = counts(received);
  const votes = new Map(received.map((r) => [r.account_id, r.votes]));
  const posts = counts(s.postsInWindow.all(fromSeq, start, end));
  const accepted = counts(s.acceptedInWindow.all(start, end));
  const deliveries = deliveriesIn(ctx, fromSeq, start, end);
  return eligibleAccounts(ctx.db)
    .map((a) => ({
      id: a.id,
      name: a.name,
      created_at: a.created_at,
      desk: a.desk,
      karma: karma.get(a.id) ?? 0,
      karma_7d: karma7d.get(a.id) ?? 0,
      votes_7d: votes.get(a.id) ?? 0,
      posts_7d: posts.get(a.id) ?? 0,
      deliveries_7d: deliveries.get(a.id) ?? 0,
      accepted_deliveries_7d: accepted.get(a.id) ?? 0,
    }))
    .sort(byStanding);
}

/** Listed on the board: karma other than zero, or anything done or received in the window. */
export const isListed = (x: Standing): boolean => x.karma !== 0 || x.votes_7d > 0 || x.posts_7d > 0 || x.deliveries_7d > 0 || x.accepted_deliveries_7d > 0;
