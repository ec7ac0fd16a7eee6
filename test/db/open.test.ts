// Acknowledged means durable: the service database syncs every commit (synchronous = FULL) unless
// the operator opts into NORMAL with a setting named for its risk.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/compose.ts';
import { ConfigError } from '../../src/config.ts';
import { DB_FILE, openDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../../src/db/open.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-open-'));
  dirs.push(d);
  return d;
};

// PRAGMA synchronous answers 2 for FULL, 1 for NORMAL.
const syncOf = (opts?: { unsafeSyncNormal?: boolean }) => {
  const db = openDatabase(tempDir(), opts);
  const mode = db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous;
  const journal = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()!.journal_mode;
  db.close();
  return { mode, journal };
};

describe('openDatabase', () => {
  test('syncs every commit by default (FULL, in WAL mode)', () => {
    expect(syncOf()).toEqual({ mode: 2, journal: 'wal' });
    expect(syncOf({})).toEqual({ mode: 2, journal: 'wal' });
  });

  test('NORMAL only when asked for by name', () => {
    expect(syncOf({ unsafeSyncNormal: true })).toEqual({ mode: 1, journal: 'wal' });
    expect(syncOf({ unsafeSyncNormal: false }).mode).toBe(2);
  });
});

describe('the write-ahead log', () => {
  // A longer log made more votes a second but stalled every request at a million posts while a
  // commit synced its checkpoint (docs/operations.md, "Checkpoints"): the threshold is pinned.
  const walPages = (dir: string) => statSync(join(dir, `${DB_FILE}-wal`)).size / 4096;
  test('a commit checkpoints it at 1,000 pages and it starts over: the file never grows much past that', () => {
    expect(WAL_AUTOCHECKPOINT_PAGES).toBe(1000);
    const dir = tempDir();
    const db = openDatabase(dir);
    expect(db.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()!.wal_autocheckpoint).toBe(1000);
    db.exec('CREATE TABLE filler (x BLOB)');
    // Commits of 40 KB (ten overflow pages and the table's), as requests would make them: 5,000 pages in all.
    const insert = db.query('INSERT INTO filler (x) VALUES (randomblob(40960))');
    for (let i = 0; i < 500; i++) insert.run();
    const pages = walPages(dir);
    expect(pages).toBeGreaterThanOrEqual(1000);
    expect(pages).toBeLessThan(1100);
    expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM filler').get()!.n).toBe(500);
    db.close();
  });
});

describe('SVC_UNSAFE_SYNC_NORMAL', () => {
  test('off unless set to 1 (or true); anything else stops the start', () => {
    expect(loadConfig({}).unsafeSyncNormal).toBe(false);
    expect(loadConfig({ SVC_UNSAFE_SYNC_NORMAL: '0' }).unsafeSyncNormal).toBe(false);
    expect(loadConfig({ SVC_UNSAFE_SYNC_NORMAL: '1' }).unsafeSyncNormal).toBe(true);
    expect(loadConfig({ SVC_UNSAFE_SYNC_NORMAL: 'true' }).unsafeSyncNormal).toBe(true);
    expect(() => loadConfig({ SVC_UNSAFE_SYNC_NORMAL: 'yes please' })).toThrow(ConfigError);
  });
});
