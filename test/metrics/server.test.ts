// GET /metrics over real sockets, from `svc serve`: a loopback client reads it, a client on another
// address of this machine or one behind a proxy does not; with SVC_METRICS_TOKEN only the token
// does. And the whole scrape of a running server: every series, in a text promtool accepts.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../until.ts';
import { parseExposition, promtool, sampleOf } from './exposition.ts';
import { SERIES, startServer } from './harness.ts';

// Each test starts a server (a cold start of the whole app): the timeout guards a hang only.
setDefaultTimeout(120_000);

const MAIN = join(import.meta.dir, '../../src/main.ts');
const TOKEN = 'server-metrics-token-0123456789';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-metrics-'));
  dirs.push(d);
  return d;
};

/** An IPv4 address of this machine that is not loopback, if it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

const get = async (url: string, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { headers });
  return { status: r.status, headers: r.headers, text: await r.text() };
};
const codeOf = (r: { text: string }) => (JSON.parse(r.text) as { error: { code: string } }).error.code;

describe('svc serve without SVC_METRICS_TOKEN', () => {
  test('answers loopback clients with every series; another address of this machine and a proxied request get 404', async () => {
    const server = await startServer([process.execPath, MAIN, 'serve', '--host', '0.0.0.0', '--port', '0', '--data', dataDir()]);
    try {
      const local = server.at('127.0.0.1');
      // Traffic for the series: a registration and a post (group commit), a public document twice, readiness (a worker).
      const headers = { 'x-agent-protocol': 'svc/1', accept: 'application/json', 'content-type': 'application/json' };
      const reg = await fetch(`${local}/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'scraped' }) });
      const { api_key } = (await reg.json()) as { api_key: string };
      const post = await fetch(`${local}/v1/posts`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${api_key}`, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ topic: 'general', title: 'Scraped', body: 'A post for the metrics.' }),
      });
      expect(post.status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await fetch(`${local}/api/activity`)).status).toBe(200);
      expect((await get(`${local}/readyz`)).status).toBe(200);
      // The scheduler catches every job up at start: wait for those runs to be recorded.
      let text = '';
      await until('every job to have run once', async () => {
        const r = await get(`${local}/metrics`);
        text = r.text;
        const outcomes = parseExposition(r.text).get('svc_job_last_run_outcome')!.samples;
        return outcomes.length > 0 && outcomes.every((s) => s.value === 0 || s.labels.outcome === 'done' || s.labels.outcome === 'failed');
      });
      const families = parseExposition(text);
      for (const name of SERIES) expect(families.has(name), name).toBe(true);
      const samples = [...families.values()].reduce((n, f) => n + f.samples.length, 0);
      console.log(`a scrape of a fresh server: ${families.size} families, ${samples} samples, ${new TextEncoder().encode(text).length} bytes`);
      expect(sampleOf(families, 'svc_http_requests_total', { family: 'agent', status: '200' })).toBe(2);
      expect(sampleOf(families, 'svc_http_requests_total', { family: 'public', status: '200' })).toBe(2);
      expect(sampleOf(families, 'svc_group_commit_batch_size_count')).toBeGreaterThanOrEqual(1);
      expect(sampleOf(families, 'svc_public_cache_misses_total')).toBe(1);
      expect(sampleOf(families, 'svc_public_cache_hits_total')).toBe(1);
      expect(sampleOf(families, 'svc_worker_jobs_total', { pool: 'ping', outcome: 'ok' })).toBe(1);
      expect(sampleOf(families, 'svc_db_size_bytes')).toBeGreaterThan(0);
      expect(sampleOf(families, 'svc_db_wal_size_bytes')).toBeGreaterThan(0);
      for (const s of families.get('svc_job_last_run_timestamp_seconds')!.samples) expect(s.value).toBeGreaterThan(0);
      expect(sampleOf(families, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      const checked = promtool(text);
      if (!checked.ran) console.log(`promtool check skipped: ${checked.why}`);
      else expect(checked.problems).toBeNull();

      // Through a proxy on this machine the socket is loopback, but the request is not the operator's.
      const viaProxy: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.9' }, { 'x-real-ip': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }];
      for (const h of viaProxy) {
        const proxied = await get(`${local}/metrics`, h);
        expect(proxied.status).toBe(404);
        expect(codeOf(proxied)).toBe('METRICS_NOT_PUBLIC');
      }
      if (!outside) {
        console.log('skipped: this machine has no address but loopback, so no client from elsewhere can be tried');
        return;
      }
      const remote = await get(`${server.at(outside)}/metrics`);
      expect(remote.status).toBe(404);
      expect(codeOf(remote)).toBe('METRICS_NOT_PUBLIC');
      expect(remote.text).not.toContain('svc_http_requests_total');
      // The same client reads the public routes as ever.
      expect((await get(`${server.at(outside)}/healthz`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('svc serve with SVC_METRICS_TOKEN', () => {
  test('answers the token from anywhere, and nobody without it, loopback included', async () => {
    const server = await startServer([process.execPath, MAIN, 'serve', '--host', '0.0.0.0', '--port', '0', '--data', dataDir()], {
      env: { SVC_METRICS_TOKEN: TOKEN },
    });
    try {
      const bearer = { authorization: `Bearer ${TOKEN}` };
      const local = server.at('127.0.0.1');
      const refused = await get(`${local}/metrics`);
      expect(refused.status).toBe(401);
      expect(codeOf(refused)).toBe('METRICS_UNAUTHORIZED');
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="svc-metrics"');
      expect((await get(`${local}/metrics`, bearer)).status).toBe(200);
      if (!outside) {
        console.log('skipped: this machine has no address but loopback, so no client from elsewhere can be tried');
        return;
      }
      const remote = server.at(outside);
      expect((await get(`${remote}/metrics`)).status).toBe(401);
      expect((await get(`${remote}/metrics`, { authorization: 'Bearer not-the-token-at-all' })).status).toBe(401);
      const ok = await get(`${remote}/metrics`, bearer);
      expect(ok.status).toBe(200);
      expect(sampleOf(parseExposition(ok.text), 'svc_http_requests_total', { family: 'other', status: '401' })).toBe(3);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
