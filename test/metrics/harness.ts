// An app with GET /metrics mounted, for the metrics tests: the service's domains, with the metrics
// domain added when the composition root does not list it yet.
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { DOMAINS, loadConfig, serviceContext, serviceParts } from '../../src/compose.ts';
import type { Parts } from '../../src/context.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';
import { METRICS } from '../../src/metrics/domain.ts';
import { AGENT_HEADERS, BASE, checkAnswersOf, readResponse } from '../helpers.ts';

export const WITH_METRICS = DOMAINS.some((d) => d.name === 'metrics') ? DOMAINS : [...DOMAINS, METRICS];

/** Every family GET /metrics must carry (docs/operations.md lists them). */
export const SERIES = [
  'svc_build_info',
  'svc_http_requests_total',
  'svc_http_request_duration_seconds',
  'svc_group_commit_batch_size',
  'svc_group_commit_wait_seconds',
  'svc_group_commit_failures_total',
  'svc_wal_sync_seconds',
  'svc_wal_sync_failures_total',
  'svc_writes_outside_group_commit_total',
  'svc_group_commit_retried_at_full_total',
  'svc_group_commit_write_lock_busy_total',
  'svc_group_commit_waited_for_restart_total',
  'svc_worker_queue_depth',
  'svc_worker_busy',
  'svc_worker_job_duration_seconds',
  'svc_worker_jobs_total',
  'svc_worker_replaced_total',
  'svc_public_cache_hits_total',
  'svc_public_cache_misses_total',
  'svc_public_cache_entries',
  'svc_continuity_waits_held',
  'svc_db_size_bytes',
  'svc_db_wal_size_bytes',
  'svc_job_last_run_timestamp_seconds',
  'svc_job_last_run_duration_seconds',
  'svc_job_last_run_outcome',
  'svc_job_last_success_timestamp_seconds',
  'svc_outreach_queue_messages',
  'process_start_time_seconds',
  'process_resident_memory_bytes',
  'process_heap_bytes',
  'process_cpu_seconds_total',
] as const;

export function makeMetricsApp(env: Record<string, string> = {}, parts?: (p: Parts) => Parts) {
  const clock = new ManualClock(Date.parse('2026-11-23T12:00:00Z'));
  const config = loadConfig({ SVC_BASE_URL: 'http://svc.test', SVC_LOG_REQUESTS: 'off', ...env }, {}, WITH_METRICS);
  const db = openMemoryDatabase();
  migrate(db);
  const base = serviceParts(WITH_METRICS);
  const ctx = serviceContext(config, db, clock, parts ? parts(base) : base);
  const app = createApp(ctx, WITH_METRICS);
  checkAnswersOf(app, JSON.stringify({ config, metrics: true, jobs: ctx.parts.jobs.map((j) => j.name) }));
  async function call(method: string, path: string, opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...AGENT_HEADERS, ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...opts.headers };
    for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    return readResponse(await app.handle(new Request(`${BASE}${path}`, { method, headers, body })));
  }
  return { app, ctx, clock, db, config, call };
}

/** A server process (src/main.ts, or a compiled executable) on a free port; `stop()` sends SIGTERM and answers its exit code. */
export async function startServer(command: string[], opts: { env?: Record<string, string>; cwd?: string } = {}) {
  const proc = Bun.spawn(command, { env: { ...process.env, SVC_LOG_REQUESTS: 'off', ...opts.env }, cwd: opts.cwd, stdout: 'pipe', stderr: 'pipe' });
  const reader = proc.stdout.getReader();
  let buffered = '';
  while (!buffered.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server exited before listening: ${await new Response(proc.stderr).text()}`);
    buffered += new TextDecoder().decode(value);
  }
  const listening = JSON.parse(buffered.split('\n')[0]!) as { event: string; url: string };
  if (listening.event !== 'listening') throw new Error(`not a listening line: ${buffered}`);
  const port = Number(new URL(listening.url).port);
  return {
    port,
    /** The server's address as reached through `host` (127.0.0.1, or another address of this machine). */
    at: (host: string) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stop: async () => {
      proc.kill('SIGTERM');
      reader.releaseLock();
      return proc.exited;
    },
  };
}
