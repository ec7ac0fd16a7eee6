// GET /healthz: a liveness answer with no message data, described by a closed schema (issue 13 §4),
// carrying the build (issue 26). GET /readyz: 503 NOT_READY until the migrations ran, the database
// takes a write and a worker answers; 200 after.
import { Database } from 'bun:sqlite';
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { ManualClock } from '../src/clock.ts';
import { loadConfig, serviceContext } from '../src/compose.ts';
import { migrate } from '../src/db/migrate.ts';
import { MIGRATIONS } from '../src/db/migrations.ts';
import { DB_FILE, openDatabase, openMemoryDatabase } from '../src/db/open.ts';
import { readiness } from '../src/metrics/readiness.ts';
import { altered, expectDeclared200, refusal, servedSpec } from './board/described.ts';
import { checkAnswersOf, makeApp, readResponse } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** What `git rev-parse HEAD` says in this checkout, or "unknown" where there is none. */
function headCommit(): string {
  try {
    const git = Bun.spawnSync(['git', 'rev-parse', 'HEAD'], { cwd: import.meta.dir, stdout: 'pipe', stderr: 'ignore' });
    return git.exitCode === 0 ? git.stdout.toString().trim() : 'unknown';
  } catch {
    return 'unknown';
  }
}

describe('GET /healthz', () => {
  test('answers status ok, the service, the protocol, the held waits and the build, without the agent headers', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/healthz', { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'ok', service: 'svc', protocol: 'svc/1', waiting: 0, policy: 'svc-policy/1', version: '1.0.0', commit: headCommit() });
  });

  // 01 lists 200, 400, 403, 429 for /healthz; the description says why 400 and 403 never happen:
  // nothing the route is sent is read. Each input that gives 400 or 403 on another route is tried.
  const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const inputs: [string, string, Record<string, string>][] = [
    [
      'a browser navigation (Sec-Fetch-*, HTML Accept, browser user agent)',
      '',
      { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html', 'user-agent': CHROME },
    ],
    ['a cross-site fetch with an Origin', '', { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' }],
    ['an unknown query parameter', '?verbose=1', {}],
    ['a malformed limit', '?limit=-5&since=yesterday', {}],
    ['a wrong protocol header', '', { 'x-agent-protocol': 'svc/9' }],
    ['a non-JSON Accept', '', { accept: 'text/plain' }],
    ['a declared JSON body on the GET', '', { 'content-type': 'application/json', 'content-length': '0' }],
  ];
  test.each(inputs)('%s is answered 200 (never 400 or 403), without CORS', async (_name, query, headers) => {
    const t = makeApp();
    const r = await t.call('GET', `/healthz${query}`, { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '', ...headers } });
    expect(r.status).toBe(200);
    expect(r.json.status).toBe('ok');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('the description says which inputs would give 400 and 403 and why none does', async () => {
    const t = makeApp();
    const op = (await t.call('GET', '/openapi.json')).json.paths['/healthz'].get;
    expect(op.description).toContain('never answers 400 or 403');
    expect(op.description).toContain('browser-shaped');
    expect(Object.keys(op.responses)).not.toContain('400');
    expect(Object.keys(op.responses)).not.toContain('403');
  });

  test('a method other than GET is 405 with Allow', async () => {
    const t = makeApp();
    const r = await t.call('POST', '/healthz', { body: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('GET');
  });

  test('declares a closed 200 schema and x-svc-contract', async () => {
    expectDeclared200(await servedSpec(makeApp()), 'GET', '/healthz');
  });

  const nearMisses: [string, (b: any) => void][] = [
    ['a status other than ok', (b) => (b.status = 'degraded')],
    ['another protocol', (b) => (b.protocol = 'svc/2')],
    ['a negative waiting count', (b) => (b.waiting = -1)],
    ['a fractional waiting count', (b) => (b.waiting = 0.5)],
    ['message data', (b) => (b.latest_post = 'hello')],
    ['a commit that is no commit', (b) => (b.commit = 'HEAD; rm -rf /')],
    ['no version', (b) => delete b.version],
  ];
  test.each(nearMisses)('%s is refused', async (_case, edit) => {
    const t = makeApp();
    const body = (await t.call('GET', '/healthz')).json;
    expect(await refusal(t, 'GET', '/healthz', body)).toBeNull();
    expect(await refusal(t, 'GET', '/healthz', altered(body, edit))).toContain('does not match the description');
  });
});

/** An app over `db` as it stands (makeApp migrates; these tests choose what ran), answers checked against the description. */
function appOver(db: Database) {
  const config = loadConfig({ SVC_BASE_URL: 'http://svc.test', SVC_LOG_REQUESTS: 'off' });
  const ctx = serviceContext(config, db, new ManualClock(Date.parse('2026-11-23T12:00:00Z')));
  const app = createApp(ctx);
  checkAnswersOf(app, JSON.stringify({ config, checks: ctx.parts.postChecks.map((c) => [c.name, c.codes]) }));
  const readyz = async () => readResponse(await app.handle(new Request('http://localhost/readyz')));
  return { ctx, readyz };
}

const READY = { status: 'ready', checks: { migrations: 'ok', database: 'ok', workers: 'ok' } };

describe('GET /readyz', () => {
  test('answers 200 ready on a migrated, writable database whose workers start', async () => {
    const t = makeApp();
    const r = await t.call('GET', '/readyz', { headers: { 'x-agent-protocol': '', accept: '', 'content-type': '' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(READY);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('declares a closed 200 schema and x-svc-contract', async () => {
    expectDeclared200(await servedSpec(makeApp()), 'GET', '/readyz');
  });

  test('is 503 NOT_READY while migrations are pending, and 200 once they ran', async () => {
    const db = openMemoryDatabase();
    migrate(db, MIGRATIONS.slice(0, MIGRATIONS.length - 1));
    const { readyz } = appOver(db);
    const before = await readyz();
    expect(before.status).toBe(503);
    expect(before.json.error.code).toBe('NOT_READY');
    expect(before.json.error.details.checks).toEqual({ migrations: 'pending', database: 'ok', workers: 'ok' });
    migrate(db);
    const after = await readyz();
    expect(after.status).toBe(200);
    expect(after.json).toEqual(READY);
  });

  test('is 503 on a database no migration ever touched (its writability unknown)', async () => {
    const { readyz } = appOver(openMemoryDatabase());
    const r = await readyz();
    expect(r.status).toBe(503);
    expect(r.json.error.details.checks).toEqual({ migrations: 'pending', database: 'unknown', workers: 'ok' });
  });

  test('is 503 on a database that refuses writes, and 200 over a connection that may write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-readyz-'));
    dirs.push(dir);
    const rw = openDatabase(dir);
    migrate(rw);
    rw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    rw.close();
    // A read-only file, as after a restore with the wrong owner (root ignores file modes: the
    // connection is opened read-only as well).
    chmodSync(join(dir, DB_FILE), 0o444);
    const ro = new Database(join(dir, DB_FILE), { readonly: true, strict: true });
    const refused = await appOver(ro).readyz();
    expect(refused.status).toBe(503);
    expect(refused.json.error.details.checks).toEqual({ migrations: 'ok', database: 'not_writable', workers: 'ok' });
    ro.close();
    chmodSync(join(dir, DB_FILE), 0o644);
    const ok = await appOver(openDatabase(dir)).readyz();
    expect(ok.status).toBe(200);
  });

  test('reports workers failed when the probe worker cannot start, and ok once one answers', async () => {
    const t = makeApp();
    const broken = await readiness(t.ctx, { workerLocation: new URL('./fixtures/no-such-worker.ts', import.meta.url) });
    expect(broken).toEqual({ ready: false, checks: { migrations: 'ok', database: 'ok', workers: 'failed' } });
    expect(await readiness(t.ctx)).toEqual({ ready: true, checks: { migrations: 'ok', database: 'ok', workers: 'ok' } });
  });
});
