// The WAL checkpointer of a running server (src/ops/checkpointer.ts): while it runs, the service's
// connection never checkpoints in a commit (its WAL grows past SQLite's 1,000-page threshold
// untouched), and the worker's passive checkpoints copy the whole log into the database on their
// own connection; stopped, the connection checkpoints on its own again.
import { afterEach, describe, expect, test } from 'bun:test';
import type { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DB_FILE, openDatabase } from '../../src/db/open.ts';
import { AUTOCHECKPOINT_PAGES } from '../../src/db/checkpoint.ts';
import { type Checkpointer, startCheckpointer } from '../../src/ops/checkpointer.ts';

const dirs: string[] = [];
const opened: Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fileDb() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));
  dirs.push(dir);
  const db = openDatabase(dir);
  opened.push(db);
  db.exec('CREATE TABLE filler (x BLOB)');
  return { db, path: join(dir, DB_FILE) };
}

/** About `mb` megabytes written in 40 KB rows, one commit each (as requests would). */
function write(db: Database, mb: number): void {
  const insert = db.query('INSERT INTO filler (x) VALUES (randomblob(40960))');
  for (let i = 0; i < mb * 25; i++) insert.run();
}

const walBytes = (path: string) => statSync(`${path}-wal`).size;
const autocheckpoint = (db: Database) => (db.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

async function until(what: () => boolean): Promise<void> {
  while (!what()) await Bun.sleep(5);
}

describe('the WAL checkpointer', () => {
  test('an idle server keeps no thread for it: the worker starts when the log reaches 1,000 pages', async () => {
    const { db, path } = fileDb();
    const idle = startCheckpointer(db, path, { intervalMs: 5 });
    write(db, 1);
    for (let i = 0; i < 10; i++) await Bun.sleep(5);
    expect(idle.started).toBe(false);
    expect(idle.runs).toBe(0);
    write(db, 4);
    await until(() => idle.runs > 0);
    expect(idle.started).toBe(true);
    await idle.stop();
  });

  test('the control: without it, commits checkpoint on their own and the log stays near 1,000 pages', () => {
    const { db, path } = fileDb();
    write(db, 8);
    expect(walBytes(path)).toBeLessThan(6 * 1024 * 1024);
  });

  test('while it runs no commit checkpoints; its worker copies the whole log; stopped, the connection checkpoints again', async () => {
    const { db, path } = fileDb();
    // An interval that never comes during the writes: only the commits could checkpoint.
    const slow: Checkpointer = startCheckpointer(db, path, { intervalMs: 3_600_000 });
    expect(autocheckpoint(db)).toBe(0);
    write(db, 8);
    expect(walBytes(path)).toBeGreaterThan(7 * 1024 * 1024);
    await slow.stop();
    expect(autocheckpoint(db)).toBe(AUTOCHECKPOINT_PAGES);

    const fast = startCheckpointer(db, path, { intervalMs: 10 });
    expect(fast.started).toBe(false);
    await until(() => fast.runs > 0);
    expect(fast.started).toBe(true);
    const first = fast.last!;
    expect(first.busy).toBe(false);
    expect(first.log).toBeGreaterThan(AUTOCHECKPOINT_PAGES * 1.5);
    expect(first.checkpointed).toBe(first.log);
    // Later writes are copied by later checkpoints (the log restarts from the beginning).
    write(db, 2);
    const seen = fast.runs;
    await until(() => fast.runs > seen + 1);
    expect(fast.last!.checkpointed).toBe(fast.last!.log);
    await fast.stop();
    expect(autocheckpoint(db)).toBe(AUTOCHECKPOINT_PAGES);
    // Every row is there, read through the service's connection.
    expect((db.query('SELECT count(*) AS n FROM filler').get() as { n: number }).n).toBe(250);
  });
});
