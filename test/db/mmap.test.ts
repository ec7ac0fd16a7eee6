// The writing connection reads the database file through a memory map (src/db/open.ts): at a
// million posts what a write touches no longer fits its page cache, and each miss was a pread().
// Checked on a real file: the map is set, and what is written and checkpointed into the mapped
// file reads back, on this connection and on a second one.
import { Database } from 'bun:sqlite';
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DB_FILE, MMAP_BYTES, openDatabase } from '../../src/db/open.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the writing connection memory-maps the database file', () => {
  test("mmap_size is set to SQLite's ceiling on the service database", () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mmap-'));
    dirs.push(dir);
    const db = openDatabase(dir);
    expect(db.query<{ mmap_size: number }, []>('PRAGMA mmap_size').get()!.mmap_size).toBe(MMAP_BYTES);
    db.close();
  });

  test('pages written, checkpointed into the mapped file and rewritten read back on both connections', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mmap-'));
    dirs.push(dir);
    const db = openDatabase(dir);
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const put = db.query('INSERT OR REPLACE INTO t (k, v) VALUES (?, ?)');
    db.transaction(() => {
      for (let k = 0; k < 5000; k++) put.run(k, `first ${k} ${'x'.repeat(200)}`);
    })();
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    // Read through the map, then changed: the changed pages are in the log, not the map.
    expect(db.query<{ v: string }, [number]>('SELECT v FROM t WHERE k = ?').get(4321)!.v.startsWith('first 4321 ')).toBe(true);
    db.transaction(() => {
      for (let k = 0; k < 5000; k += 7) put.run(k, `second ${k}`);
    })();
    const other = new Database(join(dir, DB_FILE), { readonly: true });
    for (const c of [db, other]) {
      expect(c.query<{ v: string }, [number]>('SELECT v FROM t WHERE k = ?').get(4900)!.v).toBe('second 4900');
      expect(c.query<{ v: string }, [number]>('SELECT v FROM t WHERE k = ?').get(4901)!.v.startsWith('first 4901 ')).toBe(true);
      expect(c.query<{ n: number }, []>("SELECT count(*) AS n FROM t WHERE v LIKE 'second %'").get()!.n).toBe(715);
    }
    other.close();
    db.close();
  });
});
