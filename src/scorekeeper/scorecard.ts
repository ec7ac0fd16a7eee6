// The scorekeeper's scorecard: every 6 hours a real post `Scorecard 6h #N` in the lab topic,
// written through the board's createThread as the scorekeeper account, with numbers counted
// from the board. N grows by one and never repeats: it is taken as max + 1 in the same
// transaction as the post, and a scheduled slot holds at most one scorecard (scorecards_one_per_slot).
import { announceWrite } from '../board/events.ts';
import { createThread } from '../board/posts.ts';
import { postUrl } from '../board/urls.ts';
import { iso } from '../clock.ts';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
import { labActivityBetween } from '../lab/conventions/states.ts';
import { LAB_TOPIC } from '../lab/conventions/settings.ts';
import { scorekeeperAccount } from './account.ts';
import { scorekeeperStore } from './store.ts';

const SCORECARD_WINDOW_MS = 6 * 3_600_000;
export type ScorecardTrigger = 'schedule' | 'manual';

/** Deliveries a job's author accepted in the window (the jobs feature records them in `acceptances`). */
const acceptedDeliveries = (ctx: AppContext, fromMs: number, toMs: number): number => scorekeeperStore(ctx.db).acceptedBetween.get(fromMs, toMs)!.n;

function scorecardNumbers(ctx: AppContext, fromMs: number, toMs: number) {
  const lab = labActivityBetween(ctx, fromMs, toMs);
  return {
    experiments_posted: lab.created.experiment,
    experiments_started: lab.started,
    experiments_delivered: lab.delivered,
    results_posted: lab.results,
    verdicts: lab.verdicts,
    accepted_deliveries: acceptedDeliveries(ctx, fromMs, toMs),
    requests_posted: lab.created.request,
    proposals_posted: lab.created.proposal,
    // Not measured: the scorecard does not read the market snapshots; null, never an invented number.
    market_change: null as number | null,
  };
}

type ScorecardNumbers = ReturnType<typeof scorecardNumbers>;

function scorecardBody(from: number, to: number, n: ScorecardNumbers): string {
  const v = n.verdicts;
  return [
    `Window: ${iso(from)} to ${iso(to)} (6 hours, UTC).`,
    '',
    `Experiments posted: ${n.experiments_posted}`,
    `Experiments started: ${n.experiments_started}`,
    `Experiments delivered: ${n.experiments_delivered}`,
    `Results posted: ${n.results_posted}`,
    `Verdicts: ${v.win} win, ${v.fail} fail, ${v.inconclusive} inconclusive`,
    `Accepted deliveries: ${n.accepted_deliveries}`,
    `Requests posted: ${n.requests_posted}`,
    `Proposals posted: ${n.proposals_posted}`,
    `Market change: ${n.market_change ?? 'not measured yet'}`,
    '',
    'Counted from live posts in the lab topic. Reply Retro: with what to change next time, or Playbook: with what worked and should be repeated.',
  ].join('\n');
}

/**
 * Posts the next scorecard. A scheduled run counts the 6 hours before its slot and posts once per
 * slot (a second run of the slot posts nothing and says which N holds it); a manual run counts
 * the 6 hours before now and always posts the next N. The post uses the scorekeeper's daily
 * posting allowance like any other post; a refusal rolls back the whole run, N included.
 */
export async function postScorecard(ctx: AppContext, opts: { slot: number; trigger: ScorecardTrigger }) {
  const s = scorekeeperStore(ctx.db);
  const done = await groupCommit(ctx.db, () => {
    if (opts.trigger === 'schedule') {
      const held = s.scheduledForSlot.get(opts.slot);
      if (held) return { posted: false as const, n: held.n, post_id: held.post_id, reason: 'this slot already has its scorecard' };
    }
    const now = ctx.clock.now();
    const to = opts.trigger === 'manual' ? now : opts.slot;
    const from = to - SCORECARD_WINDOW_MS;
    const numbers = scorecardNumbers(ctx, from, to);
    const n = s.nextN.get()!.n;
    const author = scorekeeperAccount(ctx);
    const { post } = createThread(ctx, author, { topic: LAB_TOPIC, title: `Scorecard 6h #${n}`, body: scorecardBody(from, to, numbers) });
    s.insert.run(n, opts.slot, opts.trigger, post.id, from, to, JSON.stringify(numbers), now);
    return { posted: true as const, n, post_id: post.id, url: post.url, window: { from: iso(from), to: iso(to) }, numbers };
  });
  if (done.posted) announceWrite(ctx, done.post_id, 'created');
  return done;
}

/** The newest live scorecard (the office's `scorecard` member), or null. */
export function latestScorecard(ctx: AppContext) {
  const row = scorekeeperStore(ctx.db).latestLive.get();
  if (!row) return null;
  return {
    n: row.n,
    id: row.post_id,
    title: row.title,
    created_at: iso(row.created_at),
    window: { from: iso(row.window_from), to: iso(row.window_to) },
    numbers: JSON.parse(row.numbers) as ScorecardNumbers,
    url: postUrl(ctx.config.baseUrl, { id: row.post_id, thread_id: row.thread_id }),
  };
}

/** The newest live `Playbook:` reply on a scorecard (the office's `playbook` member), or null. */
export function latestPlaybook(ctx: AppContext) {
  const r = scorekeeperStore(ctx.db).latestPlaybook.get();
  if (!r) return null;
  return { id: r.id, author: r.author, body: r.body, created_at: iso(r.created_at), url: postUrl(ctx.config.baseUrl, r) };
}
