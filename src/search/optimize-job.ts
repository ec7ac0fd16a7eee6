// The hourly `PRAGMA optimize` (src/db/optimize.ts): keeps the planner statistics of every
// per-request read current as the board grows. It lives with search, the domain whose reads
// (full-text matches joined to posts) depend most on the planner knowing the tables' sizes.
import { groupCommit } from '../db/group-commit.ts';
import { optimizeDatabase } from '../db/optimize.ts';
import type { ScheduledJob } from '../scheduler/scheduler.ts';

export const OPTIMIZE_JOB_NAME = 'db_optimize';

export const OPTIMIZE_JOB: ScheduledJob = {
  name: OPTIMIZE_JOB_NAME,
  pattern: '17 * * * *',
  // In the group commit: the statistics it writes are synced off the request thread.
  run: (ctx) => groupCommit(ctx.db, () => optimizeDatabase(ctx.db)),
};
