// The `scorecard` job: every 6 hours (UTC), and on demand through `svc admin run scorecard`.
import type { AppContext } from '../context.ts';
import type { ScheduledJob } from '../scheduler/scheduler.ts';
import { postScorecard, type ScorecardTrigger } from './scorecard.ts';
import { scorekeeperStore } from './store.ts';

const SCORECARD_JOB_NAME = 'scorecard';

/**
 * A job's run is told only its slot; how it was started is what the scheduler recorded for the
 * run in progress. A manual run posts the next N even in a slot that has its scorecard; a
 * scheduled or catch-up run (or a direct call, with no run recorded) posts once per slot.
 */
function triggerOf(ctx: AppContext, slot: number): ScorecardTrigger {
  return scorekeeperStore(ctx.db).runningTrigger.get(SCORECARD_JOB_NAME, slot)?.trigger === 'manual' ? 'manual' : 'schedule';
}

export const SCORECARD_JOB: ScheduledJob = {
  name: SCORECARD_JOB_NAME,
  pattern: '0 */6 * * *',
  run: (ctx, slot) => postScorecard(ctx, { slot, trigger: triggerOf(ctx, slot) }),
};
