// Acknowledged means durable: the service database syncs every commit (synchronous = FULL) unless
// the operator opts into NORMAL with a setting named for its risk.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/compose.ts';
import { ConfigError } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open.ts';

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

describe('SVC_UNSAFE_SYNC_NORMAL', () => {
  test('off unless set to 1 (or true); anything else stops the start', () => {
    expect(loadConfig({}).unsafeSyncNormal).toBe(false);
    expect(loadConfig({ SVC_UNSAFE_SYNC_NORMAL: '0' }).unsafeSyncNormal).toBe(false);
    expect(loadConfig({ SVC_UNSAFE_SYNC_NORMAL: '1' }).unsafeSyncNormal).toBe(true);
    expect(loadConfig({ SVC_UNSAFE_SYNC_NORMAL: 'true' }).unsafeSyncNormal).toBe(true);
    expect(() => loadConfig({ SVC_UNSAFE_SYNC_NORMAL: 'yes please' })).toThrow(ConfigError);
  });
});
