// Schedules are croner patterns (UTC) whose runs call the same domain functions as routes do.
// Each run is recorded; a scheduled run first claims its slot, so that a restart, an overlapping
// tick or a second process never runs one slot twice, and a start after downtime catches up the
// latest missed slot once (not every slot it slept through).
import { Cron } from 'croner';
import type { AppContext } from '../context.ts';
import { schedulerStore } from './store.ts';

export interface ScheduledJob {
  name: string;
  pattern: string; // croner pattern, evaluated in UTC
  run(ctx: AppContext, slot: number): unknown | Promise<unknown>;
}

type Trigger = 'schedule' | 'catch_up' | 'manual';

interface RunOutcome {
  job: string;
  slot: string;
  trigger: Trigger;
  ran: boolean;
  status?: 'done' | 'failed';
  result?: unknown;
  error?: string;
}

/** The latest schedule time at or before `now`: the slot a run at `now` belongs to. */
export function slotOf(pattern: string, now: number): number {
  // utcOffset 0, not timezone 'Etc/UTC': the same times, without croner's Intl path, whose time-zone
  // data stayed resident (2.4 MB of idle memory, issue 27).
  const cron = new Cron(pattern, { utcOffset: 0, paused: true });
  // previousRuns looks strictly before its reference; 1 ms later includes `now` itself.
  const prev = cron.previousRuns(1, new Date(now + 1))[0];
  if (!prev) throw new Error(`pattern ${pattern} has no run before ${new Date(now).toISOString()}`);
  return prev.getTime();
}

export async function runJob(ctx: AppContext, job: ScheduledJob, trigger: Trigger, slot = slotOf(job.pattern, ctx.clock.now())): Promise<RunOutcome> {
  const base = { job: job.name, slot: new Date(slot).toISOString(), trigger };
  const { claim, finish } = schedulerStore(ctx.db);
  const claimed = claim.get(job.name, slot, trigger, ctx.clock.now());
  if (!claimed) return { ...base, ran: false };
  try {
    const result = await job.run(ctx, slot);
    finish.run(ctx.clock.now(), 'done', JSON.stringify(result ?? null), claimed.id);
    return { ...base, ran: true, status: 'done', result };
  } catch (err) {
    const error = String((err as Error)?.message ?? err);
    finish.run(ctx.clock.now(), 'failed', JSON.stringify({ error }), claimed.id);
    console.error(JSON.stringify({ event: 'job_failed', job: job.name, slot: base.slot, error }));
    return { ...base, ran: true, status: 'failed', error };
  }
}

export class Scheduler {
  private crons: Cron[] = [];

  constructor(
    private readonly ctx: AppContext,
    readonly jobs: readonly ScheduledJob[],
  ) {}

  /** Catches up each job's current slot if it has not run, then follows the patterns. */
  async start(): Promise<RunOutcome[]> {
    const caught: RunOutcome[] = [];
    for (const job of this.jobs) caught.push(await runJob(this.ctx, job, 'catch_up'));
    for (const job of this.jobs) {
      this.crons.push(
        new Cron(job.pattern, { utcOffset: 0, protect: true }, async () => {
          await runJob(this.ctx, job, 'schedule');
        }),
      );
    }
    return caught;
  }

  stop(): void {
    for (const c of this.crons) c.stop();
    this.crons = [];
  }

  find(name: string): ScheduledJob | undefined {
    return this.jobs.find((j) => j.name === name);
  }
}

declare module '../context.ts' {
  interface Parts {
    /** The scheduled jobs, each run once per slot of its pattern (src/compose.ts lists them). */
    jobs: readonly ScheduledJob[];
  }
}
