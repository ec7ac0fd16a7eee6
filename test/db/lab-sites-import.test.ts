// An upgraded server's first start imports the lab sites the old builds kept on disk
// (${dataDir}/lab/sites/{page id}/{version}/{path}) into lab_site_files, in migration 0025's
// transaction, and serves them from the database; the folder stays where it was, unused.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, serviceContext } from '../../src/compose.ts';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openDatabase } from '../../src/db/open.ts';

// One test runs `svc migrate` as a process (a cold start of the app): the timeout is a hang guard only.
setDefaultTimeout(120_000);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0x00, 0x7f]);
const files: Record<string, Uint8Array> = {
  'index.html': new TextEncoder().encode('<!doctype html><html><head><title>Tides</title></head><body><p>from the old disk</p></body></html>'),
  'style.css': new TextEncoder().encode('body { font-family: serif }'),
  'img/dot.png': PNG,
};

/** A data folder as the builds before 0025 left it: the database at 0024, the sites on disk. */
function oldLayout() {
  const data = mkdtempSync(join(tmpdir(), 'svc-oldlab-'));
  dirs.push(data);
  const db = openDatabase(data);
  migrate(db, MIGRATIONS.slice(0, 24));
  const account = crypto.randomUUID();
  const page = crypto.randomUUID();
  const gone = crypto.randomUUID();
  const version = crypto.randomUUID();
  db.query("INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, 'alice', 'alice', 'h', 0)").run(account);
  const manifest = JSON.stringify([...Object.entries(files).map(([path, b]) => ({ path, bytes: b.byteLength })), { path: 'lost.css', bytes: 3 }]);
  const insert = db.query(
    "INSERT INTO lab_pages (id, account_id, slug, title, version, files, file_count, total_bytes, created_at, updated_at) VALUES (?, ?, ?, 'Tides', ?, ?, 4, 100, 0, 0)",
  );
  insert.run(page, account, 'tides', version, manifest);
  // A page whose folder is missing altogether.
  insert.run(gone, account, 'gone', crypto.randomUUID(), JSON.stringify([{ path: 'index.html', bytes: 10 }]));
  db.close();
  const site = join(data, 'lab', 'sites', page);
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(site, version, path)), { recursive: true });
    writeFileSync(join(site, version, path), bytes);
  }
  // A replaced version the old build had not cleaned up yet: not live, not imported.
  mkdirSync(join(site, 'stale-version'), { recursive: true });
  writeFileSync(join(site, 'stale-version', 'index.html'), 'old');
  return { data, page, version };
}

function appOn(data: string) {
  const db = openDatabase(data);
  const ctx = serviceContext(loadConfig({ SVC_BASE_URL: 'http://svc.test', SVC_DATA_DIR: data, SVC_LOG_REQUESTS: 'off' }), db, new ManualClock(Date.now()));
  return { db, app: createApp(ctx) };
}

describe('migration 0025 imports the sites on disk', () => {
  test('`svc migrate` on an old data folder: every live file lands in the database and is served byte for byte; the folder stays', async () => {
    const { data, page, version } = oldLayout();
    const main = join(import.meta.dir, '../../src/main.ts');
    const p = Bun.spawn([process.execPath, main, 'migrate', '--data', data], { stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout.trim()).migrated).toContain('0025_lab_site_files.sql');
    const events = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const bytes = Object.values(files).reduce((n, b) => n + b.byteLength, 0);
    expect(events).toContainEqual({
      event: 'migration_step',
      migration: '0025_lab_site_files.sql',
      folder: join(data, 'lab', 'sites'),
      pages: 1,
      files: 3,
      bytes,
      missing: 2,
    });

    const { db, app } = appOn(data);
    const rows = db.query('SELECT page_id, version, path FROM lab_site_files ORDER BY path').all();
    expect(rows).toEqual(['img/dot.png', 'index.html', 'style.css'].map((path) => ({ page_id: page, version, path })));
    const get = (path: string) => app.handle(new Request(`http://svc.test/lab/alice/tides/${path}`, { headers: { accept: 'text/html' } }));
    const index = await get('');
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<p>from the old disk</p>');
    expect(new Uint8Array(await (await get('img/dot.png')).arrayBuffer())).toEqual(PNG);
    expect(await (await get('style.css')).text()).toBe('body { font-family: serif }');
    expect((await get('lost.css')).status).toBe(404);
    db.close();
    // Left in place, unused.
    expect(existsSync(join(data, 'lab', 'sites', page, version, 'index.html'))).toBe(true);
  });

  test('a data folder with no lab folder migrates with nothing to import', () => {
    const data = mkdtempSync(join(tmpdir(), 'svc-oldlab-'));
    dirs.push(data);
    const db = openDatabase(data);
    migrate(db, MIGRATIONS.slice(0, 24));
    expect(migrate(db).applied[0]).toBe('0025_lab_site_files.sql');
    expect(db.query('SELECT count(*) AS n FROM lab_site_files').get()).toEqual({ n: 0 });
    db.close();
  });

  test('the import is part of the migration: a failure leaves the database at 0024 and the next start imports again', () => {
    const { data } = oldLayout();
    const db = openDatabase(data);
    // The migration as shipped plus a trigger that refuses the import's inserts: a failing import.
    const real = MIGRATIONS[24]!;
    const refusing = { ...real, sql: `${real.sql}\nCREATE TRIGGER refuse BEFORE INSERT ON lab_site_files BEGIN SELECT RAISE(ABORT, 'refused'); END;` };
    expect(() => migrate(db, [...MIGRATIONS.slice(0, 24), refusing])).toThrow(/refused/);
    expect(db.query("SELECT name FROM sqlite_master WHERE name = 'lab_site_files'").get()).toBeNull();
    expect(db.query<{ v: number }, []>('SELECT max(version) AS v FROM schema_migrations').get()!.v).toBe(24);
    migrate(db);
    expect(db.query('SELECT count(*) AS n FROM lab_site_files').get()).toEqual({ n: 3 });
    db.close();
  });
});
