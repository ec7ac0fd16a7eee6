// dist/svc as `npm run build` makes it (scripts/build.ts, written to a temporary file here): the
// commit baked in at build time, help without a database, and a running executable's /readyz
// (its workers are compiled in) and /metrics, started from an empty folder with nothing on its path.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseExposition, sampleOf } from './exposition.ts';
import { SERIES, startServer } from './harness.ts';

// A build and a cold start on a loaded machine: the timeout guards a hang, it is no speed target.
setDefaultTimeout(300_000);

const ROOT = join(import.meta.dir, '../..');
const COMMIT = 'c0ffee0123456789abcdef0123456789abcdef01';
const dir = mkdtempSync(join(tmpdir(), 'svc-compiled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(dir, 'svc');
const bare = { PATH: '/usr/bin:/bin', HOME: dir };

describe('the compiled executable', () => {
  test('builds with the commit it is given, prints it for --version, and helps without a database', () => {
    const built = Bun.spawnSync([process.execPath, 'scripts/build.ts', bin], {
      cwd: ROOT,
      env: { ...process.env, SVC_COMMIT: COMMIT },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(built.exitCode, built.stderr.toString()).toBe(0);
    expect(JSON.parse(built.stdout.toString().trim())).toMatchObject({ built: bin, commit: COMMIT });
    for (const args of [['--version'], ['version']]) {
      const v = Bun.spawnSync([bin, ...args], { cwd: dir, env: bare, stdout: 'pipe', stderr: 'pipe' });
      expect(v.exitCode).toBe(0);
      expect(JSON.parse(v.stdout.toString())).toEqual({ version: '1.0.0', commit: COMMIT });
    }
    const help = Bun.spawnSync([bin, 'admin', 'help'], { cwd: dir, env: bare, stdout: 'pipe', stderr: 'pipe' });
    expect(help.exitCode).toBe(0);
    expect(help.stdout.toString()).toContain('svc admin agent create NAME');
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  test('serves /readyz (a compiled-in worker answers), /healthz with its commit, and /metrics with every series', async () => {
    expect(existsSync(bin)).toBe(true);
    const server = await startServer([bin, 'serve', '--port', '0', '--data', join(dir, 'data')], { cwd: dir, env: bare });
    try {
      const url = server.at('127.0.0.1');
      const ready = await fetch(`${url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { migrations: 'ok', database: 'ok', workers: 'ok' } }]);
      expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ version: '1.0.0', commit: COMMIT });
      const scrape = await fetch(`${url}/metrics`);
      expect(scrape.status).toBe(200);
      const families = parseExposition(await scrape.text());
      for (const name of SERIES) expect(families.has(name), name).toBe(true);
      expect(sampleOf(families, 'svc_build_info', { commit: COMMIT })).toBe(1);
      expect(sampleOf(families, 'svc_worker_jobs_total', { pool: 'ping', outcome: 'ok' })).toBe(1);
      expect(sampleOf(families, 'svc_http_requests_total', { family: 'health', status: '200' })).toBe(2);
      // The passkey library is loaded at its first ceremony, not at start (src/admin/console/passkeys.ts): compiled in all the same.
      const options = await fetch(`${url}/console/passkey/options`, { method: 'POST' });
      expect(options.status).toBe(200);
      expect(await options.json()).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required', challenge: expect.stringMatching(/^[\w-]{43}$/) });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
