// The operator actions that belong to no one domain: running a scheduled job now, and the agents
// list (src/admin/agents.ts).
import * as v from 'valibot';
import { action } from '../actions/action.ts';
import { runJob } from '../scheduler/scheduler.ts';
import { UsageError } from './args.ts';
import { AGENTS_LIST } from './agents.ts';

const RUN_JOB = action({
  name: 'run',
  argv: 'JOB',
  note: 'runs a scheduled job now and prints what it did',
  input: v.object({ job: v.string() }),
  who: ['owner', 'operator'],
  run: (ctx, i) => {
    // The same jobs the server schedules (src/compose.ts).
    const job = ctx.parts.jobs.find((j) => j.name === i.job);
    if (!job) throw new UsageError(`unknown job ${i.job}; jobs: ${ctx.parts.jobs.map((j) => j.name).join(', ')}`);
    return job;
  },
  // The job runs after the audit row is committed (a job is asynchronous and takes its own transactions).
  after: (ctx, job) => runJob(ctx, job, 'manual'),
  audit: (i) => ({ target: i.job }),
});

export const ADMIN_ACTIONS = [AGENTS_LIST, RUN_JOB];
