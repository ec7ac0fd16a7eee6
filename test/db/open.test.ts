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
  // Commits of 40 KB (ten 4 KB pages and a few of the table's), as requests would make them.
  const walPages = (dir: string) => statSync(join(dir, `${DB_FILE}-wal`)).size / 4096;
  test(`a commit checkpoints it once it holds ${WAL_AUTOCHECKPOINT_PAGES} pages, not at SQLite's 1,000; the log then starts over`, () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    db.exec('CREATE TABLE filler (x BLOB)');
    const insert = db.query('INSERT INTO filler (x) VALUES (randomblob(40960))');
    // 2,500 pages and more: past SQLite's threshold, and nothing copied yet (the log only grows).
    for (let i = 0; i < 250; i++) insert.run();
    const before = walPages(dir);
    expect(before).toBeGreaterThan(2_500);
    expect(before).toBeLessThan(WAL_AUTOCHECKPOINT_PAGES);
    // Three times the threshold: checkpointed and started over, so the file never grew past about one threshold.
    for (let i = 0; i < 1_000; i++) insert.run();
    const after = walPages(dir);
    expect(after).toBeGreaterThanOrEqual(WAL_AUTOCHECKPOINT_PAGES);
    expect(after).toBeLessThan(WAL_AUTOCHECKPOINT_PAGES + 100);
    expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM filler').get()!.n).toBe(1_250);
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
