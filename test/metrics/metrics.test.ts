// GET /metrics in process: who may read it (the token; an address that is not loopback), and that
// every series is there with values that follow the traffic that feeds it. The loopback rule over
// real sockets is in ./server.test.ts.
import { describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config.ts';
import { loadConfig } from '../../src/compose.ts';
import { waitingCount } from '../../src/continuity/wait.ts';
import { runJob, type ScheduledJob } from '../../src/scheduler/scheduler.ts';
import { AGENT_HEADERS, BASE } from '../helpers.ts';
import { until } from '../until.ts';
import { parseExposition, promtool, sampleOf } from './exposition.ts';
import { makeMetricsApp, SERIES, WITH_METRICS } from './harness.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const PLAIN = { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } };
const withToken = (token = TOKEN) => ({ headers: { ...PLAIN.headers, authorization: `Bearer ${token}` } });

describe('who reads /metrics', () => {
  test('without a token, a client whose address is not loopback gets 404 METRICS_NOT_PUBLIC', async () => {
    const t = makeMetricsApp();
    const r = await t.call('GET', '/metrics', PLAIN);
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('METRICS_NOT_PUBLIC');
    // A bearer token is no key when the server has none.
    expect((await t.call('GET', '/metrics', withToken())).json.error.code).toBe('METRICS_NOT_PUBLIC');
  });

  test('with SVC_METRICS_TOKEN, the token reads them; a missing or wrong one is 401 METRICS_UNAUTHORIZED with WWW-Authenticate', async () => {
    const t = makeMetricsApp({ SVC_METRICS_TOKEN: TOKEN });
    const ok = await t.call('GET', '/metrics', withToken());
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
    for (const [opts, reason] of [
      [PLAIN, 'missing_token'],
      [withToken(`${TOKEN}x`), 'wrong_token'],
      [withToken(TOKEN.slice(0, -1)), 'wrong_token'],
      [{ headers: { ...PLAIN.headers, authorization: `Basic ${btoa(`x:${TOKEN}`)}` } }, 'missing_token'],
    ] as const) {
      const r = await t.call('GET', '/metrics', opts);
      expect(r.status).toBe(401);
      expect(r.json.error).toMatchObject({ code: 'METRICS_UNAUTHORIZED', details: { reason } });
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="svc-metrics"');
      expect(r.text).not.toContain('svc_http_requests_total');
    }
  });

  test('SVC_METRICS_TOKEN must be a token worth the name', () => {
    for (const bad of ['short', 'has a space in it 0123456789', 'é'.repeat(20)]) {
      expect(() => loadConfig({ SVC_METRICS_TOKEN: bad }, {}, WITH_METRICS)).toThrow(ConfigError);
    }
    expect(loadConfig({ SVC_METRICS_TOKEN: TOKEN }, {}, WITH_METRICS).metrics.token).toBe(TOKEN);
    expect(loadConfig({}, {}, WITH_METRICS).metrics.token).toBeNull();
  });

  test('the description lists /metrics with its two refusals and its text answer', async () => {
    const t = makeMetricsApp();
    const op = (await t.call('GET', '/openapi.json')).json.paths['/metrics'].get;
    expect(op['x-svc-errors']).toEqual(expect.arrayContaining(['METRICS_NOT_PUBLIC', 'METRICS_UNAUTHORIZED']));
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/plain']);
  });
});

describe('what /metrics says', () => {
  test('every series is there, and the counters follow the traffic: requests, group commit, the public cache, workers, held waits, job runs', async () => {
    const failing: ScheduledJob = {
      name: 'always-fails',
      pattern: '0 * * * *',
      run: () => {
        throw new Error('refused on purpose');
      },
    };
    const t = makeMetricsApp({ SVC_METRICS_TOKEN: TOKEN }, (p) => ({ ...p, jobs: [...p.jobs, failing] }));
    const scrape = async () => {
      const r = await t.call('GET', '/metrics', withToken());
      expect(r.status).toBe(200);
      const checked = promtool(r.text);
      if (checked.ran) expect(checked.problems).toBeNull();
      return parseExposition(r.text);
    };
    const before = await scrape();
    for (const name of SERIES) expect(before.has(name), name).toBe(true);
    const jobs = t.ctx.parts.jobs.map((j) => j.name);
    expect(jobs.length).toBeGreaterThan(1);
    for (const job of jobs) expect(sampleOf(before, 'svc_job_last_run_outcome', { job, outcome: 'never' })).toBe(1);
    const count = (f: ReturnType<typeof parseExposition>, name: string, labels: Record<string, string> = {}) => {
      try {
        return sampleOf(f, name, labels);
      } catch {
        return 0; // a series not written yet
      }
    };

    // Agent traffic: a registration, a post (through group commit), three reads, one refusal.
    const reg = await t.call('POST', '/v1/agents', { body: { name: 'metered' } });
    expect(reg.status).toBe(200);
    const key = reg.json.api_key as string;
    const posted = await t.call('POST', '/v1/posts', {
      key,
      body: { topic: 'general', title: 'Measured cold starts', body: 'Numbers and method in the thread.' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(posted.status).toBe(200);
    // The registration and the post: each one write, in a group commit of its own.
    const written = await scrape();
    const writes = (name: string, labels: Record<string, string> = {}) => count(written, name, labels) - count(before, name, labels);
    expect(writes('svc_group_commit_batch_size_count')).toBe(2);
    expect(writes('svc_group_commit_batch_size_bucket', { le: '1' })).toBe(2);
    expect(writes('svc_group_commit_wait_seconds_count')).toBe(2);
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/v1/me', { key })).status).toBe(200);
    expect((await t.call('GET', '/v1/me', { key: 'svc_wrong' })).status).toBe(401);
    // A public document: built once, then served from the cache.
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/api/activity', PLAIN)).status).toBe(200);
    // A worker answers (the readiness probe's pool).
    expect((await t.call('GET', '/readyz', PLAIN)).status).toBe(200);
    // A held wait.
    const abort = new AbortController();
    const waiting = t.app.handle(
      new Request(`${BASE}/v1/continuity/wait?timeout=90`, { headers: { ...AGENT_HEADERS, authorization: `Bearer ${key}` }, signal: abort.signal }),
    );
    await until('the wait to be held', () => waitingCount(t.ctx) === 1);
    // Job runs: each of the service's jobs once, and one that fails.
    t.clock.advance(60_000);
    for (const job of t.ctx.parts.jobs) await runJob(t.ctx, job, 'manual');

    const after = await scrape();
    for (const name of SERIES) expect(after.has(name), name).toBe(true);
    const delta = (name: string, labels: Record<string, string> = {}) => count(after, name, labels) - count(before, name, labels);
    expect(delta('svc_http_requests_total', { family: 'agent', status: '200' })).toBe(5);
    expect(delta('svc_http_requests_total', { family: 'agent', status: '401' })).toBe(1);
    expect(delta('svc_http_requests_total', { family: 'public', status: '200' })).toBe(3);
    expect(delta('svc_http_requests_total', { family: 'health', status: '200' })).toBe(1);
    expect(delta('svc_http_request_duration_seconds_count', { family: 'agent' })).toBe(6);
    // The jobs' claims, records and writes go through the group commit too.
    expect(delta('svc_group_commit_batch_size_count')).toBeGreaterThan(2 + 2 * t.ctx.parts.jobs.length - 1);
    expect(delta('svc_public_cache_misses_total')).toBe(1);
    expect(delta('svc_public_cache_hits_total')).toBe(2);
    expect(sampleOf(after, 'svc_public_cache_entries')).toBe(1);
    expect(count(after, 'svc_worker_jobs_total', { pool: 'ping', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sampleOf(after, 'svc_worker_queue_depth', { pool: 'ping' })).toBe(0);
    expect(sampleOf(after, 'svc_continuity_waits_held')).toBe(1);
    // An in-memory database has no files.
    expect(sampleOf(after, 'svc_db_size_bytes')).toBe(0);
    const at = t.clock.now() / 1000;
    for (const job of jobs) {
      const failed = job === 'always-fails';
      expect(sampleOf(after, 'svc_job_last_run_outcome', { job, outcome: failed ? 'failed' : 'done' }), job).toBe(1);
      expect(sampleOf(after, 'svc_job_last_run_outcome', { job, outcome: 'never' }), job).toBe(0);
      expect(sampleOf(after, 'svc_job_last_run_timestamp_seconds', { job })).toBe(at);
      expect(sampleOf(after, 'svc_job_last_run_duration_seconds', { job })).toBe(0);
      if (failed) expect(() => sampleOf(after, 'svc_job_last_success_timestamp_seconds', { job })).toThrow('0 samples');
      else expect(sampleOf(after, 'svc_job_last_success_timestamp_seconds', { job })).toBe(at);
    }
    expect(sampleOf(after, 'svc_outreach_queue_messages', { state: 'awaiting_approval' })).toBe(0);
    expect(sampleOf(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleOf(after, 'svc_build_info', { version: '1.0.0' })).toBe(1);

    abort.abort();
    await waiting.catch(() => null);
    await until('the wait to be released', () => waitingCount(t.ctx) === 0);
    expect(sampleOf(await scrape(), 'svc_continuity_waits_held')).toBe(0);
  });
});
