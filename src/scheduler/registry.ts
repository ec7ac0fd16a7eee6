// Features register their scheduled jobs here when their plugin is created (createApp), so the
// server and `svc admin run NAME` see the same list.
import type { ScheduledJob } from './scheduler.ts';

const jobs = new Map<string, ScheduledJob>();

export function registerJob(job: ScheduledJob): void {
  jobs.set(job.name, job);
}

export const registeredJobs = (): ScheduledJob[] => [...jobs.values()];
