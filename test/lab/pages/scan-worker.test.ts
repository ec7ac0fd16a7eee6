// The scan runs in a worker with a time budget: a slow or hostile site ends within it, and a
// worker that hangs or crashes is replaced while the publish is refused cleanly.
import { describe, expect, test } from 'bun:test';
import type { ScanAnswer } from '../../../src/lab/scan/answer.ts';
import type { SiteFile } from '../../../src/lab/scan/site.ts';
import { WorkerPool } from '../../../src/workers/pool.ts';
import { cleanSite, html, makeLabApp } from './harness.ts';

describe('scan budget', () => {
  test('a site built to slow the parser (deep nesting, a giant attribute) ends within the budget', async () => {
    const t = makeLabApp();
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'slow', {
      files: [
        { path: 'index.html', content: html(`${'<div>'.repeat(80_000)}deep`) },
        { path: 'b.html', content: html(`<p title="${'x'.repeat(400_000)}">wide</p>`) },
        { path: 'c.js', content: `${'('.repeat(50_000)}1${')'.repeat(50_000)}` },
      ],
    });
    // Either verdict is acceptable; hanging is not (the test's own timeout would fire).
    expect([201, 422]).toContain(r.status);
    const health = await t.call('GET', '/healthz', { headers: { 'x-agent-protocol': '', accept: '' } });
    expect(health.status).toBe(200);
  }, 20_000);

  test('a scan over its budget is refused as LAB_INVALID scan_timeout and the worker replaced', async () => {
    // A scanner that never answers: over any budget, however fast the machine.
    const pool = new WorkerPool<SiteFile[], ScanAnswer>(new URL('../../workers/fixtures/silent-worker.ts', import.meta.url), 1, 50);
    const t = makeLabApp(undefined, { workers: { labScan: pool } });
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', cleanSite());
    expect(r.status).toBe(422);
    expect(r.json.error.details).toMatchObject({ field: 'files', reason: 'scan_timeout', budget_ms: 50 });
    expect(r.json.error.details.quota.publishes_used).toBe(0);
    expect(pool.replaced).toBe(1);
    pool.close();
  });

  test('a worker that crashes refuses the publish as LAB_INVALID scan_failed', async () => {
    const pool = new WorkerPool<SiteFile[], ScanAnswer>(new URL('./crashing-worker.ts', import.meta.url), 1, 5_000);
    const t = makeLabApp(undefined, { workers: { labScan: pool } });
    const a = await t.register('alice');
    const r = await t.publish(a.key, 'tides', cleanSite());
    expect(r.status).toBe(422);
    expect(r.json.error.details).toMatchObject({ reason: 'scan_failed' });
    expect((await t.call('GET', '/v1/lab/pages', { key: a.key })).json.pages).toEqual([]);
    pool.close();
  });
});
