// Schedules are croner patterns (UTC) whose runs call the same domain functions as routes do.
// Each run is recorded; a scheduled run first claims its slot, so that a restart, an overlapping
// tick or a second process never runs one slot twice, and a start after downtime catches up the
// latest missed slot once (not every slot it slept through).
import { Cron } from 'croner';
import type { AppContext } from '../context.ts';
import { groupCommit } from '../db/group-commit.ts';
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
  // The claim and the record of the run join the group commit, like the job's own writes: a
  // scheduled run never commits, or syncs, on the thread that answers requests.
  const claimed = await groupCommit(ctx.db, () => claim.get(job.name, slot, trigger, ctx.clock.now()));
  if (!claimed) return { ...base, ran: false };
  try {
    const result = await job.run(ctx, slot);
    await groupCommit(ctx.db, () => finish.run(ctx.clock.now(), 'done', JSON.stringify(result ?? null), claimed.id));
    return { ...base, ran: true, status: 'done', result };
  } catch (err) {
    const error = String((err as Error)?.message ?? err);
    await groupCommit(ctx.db, () => finish.run(ctx.clock.now(), 'failed', JSON.stringify({ error }), claimed.id));
    console.error(JSON.stringify({ event: 'job_failed', job: job.name, slot: base.slot, error }));
    return { ...base, ran: true, status: 'failed', error };
  }
}

export class Scheduler {
  private crons: Cron[] = [];
  /** Runs under way: a stop waits for them (their writes join the group commit, which the close must not cut off). */
  private readonly running = new Set<Promise<RunOutcome>>();
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    readonly jobs: readonly ScheduledJob[],
  ) {}

  /** Catches up each job's current slot if it has not run, then follows the patterns. */
  async start(): Promise<RunOutcome[]> {
    const caught: RunOutcome[] = [];
    this.stopped = false;
    for (const job of this.jobs) {
      if (this.stopped) return caught;
      caught.push(await this.run(job, 'catch_up'));
    }
    if (this.stopped) return caught;
    for (const job of this.jobs) {
      this.crons.push(
        new Cron(job.pattern, { utcOffset: 0, protect: true }, async () => {
          await this.run(job, 'schedule');
        }),
      );
    }
    return caught;
  }

  private run(job: ScheduledJob, trigger: Trigger): Promise<RunOutcome> {
    const p = runJob(this.ctx, job, trigger);
    this.running.add(p);
    const done = () => this.running.delete(p);
    p.then(done, done);
    return p;
  }

  /** No run starts after this; settles once the runs under way have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.crons) c.stop();
    this.crons = [];
    await Promise.allSettled([...this.running]);
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
