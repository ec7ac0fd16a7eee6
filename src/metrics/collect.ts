// What only the running service knows, read when /metrics is asked: the build, the held waits, the
// database's files, the public cache's size, each scheduled job's latest run and the outreach queue.
// The floors' own series (requests, group commit, workers, cache hits) are in PROCESS_METRICS already.
import { statSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import { logSizeOf } from '../db/wal-index.ts';
import { waitingCount } from '../continuity/wait.ts';
import { publicCache } from '../http/public-cache.ts';
import { PROCESS_METRICS, Registry } from '../lib/metrics.ts';
import { versionInfo } from '../lib/version.ts';
import { metricsStore } from './store.ts';

const OUTCOMES = ['running', 'done', 'failed', 'never'] as const;

/** A file's size in bytes; 0 when it does not exist (an in-memory database, a WAL checkpointed away). */
function fileSize(path: string): number {
  if (!path || path === ':memory:') return 0;
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

/** The log's size from its WAL-index header; the -wal file's size when that cannot be read (no -shm file yet). */
function logBytes(file: string): number {
  try {
    return logSizeOf(file).bytes;
  } catch {
    return fileSize(`${file}-wal`);
  }
}

/** The service's own series, read now from `ctx`. */
export function serviceMetrics(ctx: AppContext): Registry {
  const r = new Registry();
  const { version, commit } = versionInfo();
  r.gauge('svc_build_info', 'The running build: 1, labelled with its version and commit.', ['version', 'commit']).set({ version, commit }, 1);
  r.gauge('svc_continuity_waits_held', 'GET /v1/continuity/wait requests held open right now.').set(undefined, waitingCount(ctx));
  const file = ctx.db.filename;
  r.gauge('svc_db_size_bytes', 'Size of the database file, in bytes.').set(undefined, fileSize(file));
  r.gauge(
    'svc_db_wal_size_bytes',
    'Size of the database’s write-ahead log, in bytes: its frames, as the WAL-index header says (the -wal file itself keeps its size, laid out ahead of the log). It falls back at each checkpoint’s restart.',
  ).set(undefined, file && file !== ':memory:' ? logBytes(file) : 0);
  const cache = publicCache(ctx);
  r.gauge('svc_public_cache_entries', 'Public documents held in the cache.').set(undefined, cache.size);

  const s = metricsStore(ctx.db);
  const lastRun = r.gauge('svc_job_last_run_timestamp_seconds', 'When the latest run of a scheduled job started (seconds since the Unix epoch), any trigger.', [
    'job',
  ]);
  const lastDuration = r.gauge('svc_job_last_run_duration_seconds', 'How long the latest finished run of a scheduled job took, in seconds.', ['job']);
  const outcome = r.gauge(
    'svc_job_last_run_outcome',
    'The outcome of the latest run of a scheduled job: 1 for its outcome (running, done, failed, or never run), 0 for the others.',
    ['job', 'outcome'],
  );
  const lastSuccess = r.gauge(
    'svc_job_last_success_timestamp_seconds',
    'When the latest successful run of a scheduled job finished (seconds since the Unix epoch).',
    ['job'],
  );
  for (const job of ctx.parts.jobs) {
    const run = s.latestRun.get(job.name);
    const now = run ? run.status : 'never';
    for (const o of OUTCOMES) outcome.set({ job: job.name, outcome: o }, o === now ? 1 : 0);
    if (!run) continue;
    lastRun.set({ job: job.name }, run.started_at / 1000);
    if (run.finished_at !== null) lastDuration.set({ job: job.name }, Math.max(0, run.finished_at - run.started_at) / 1000);
    const ok = s.lastSuccess.get(job.name);
    if (ok?.finished_at != null) lastSuccess.set({ job: job.name }, ok.finished_at / 1000);
  }

  const queue = r.gauge(
    'svc_outreach_queue_messages',
    'Outreach e-mails not yet out: awaiting_approval (queued for an operator), sending (with the relay, retries included).',
    ['state'],
  );
  queue.set({ state: 'awaiting_approval' }, s.outreachQueued.get()?.n ?? 0);
  queue.set({ state: 'sending' }, s.outreachSending.get()?.n ?? 0);
  return r;
}

/** The whole answer of GET /metrics: the floors' series, then the service's. */
export const renderMetrics = (ctx: AppContext): string => PROCESS_METRICS.render() + serviceMetrics(ctx).render();
