import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openMemoryDatabase } from '../../src/db/open.ts';

describe('migrations', () => {
  test('every file in schema/ is embedded, numbered in order', () => {
    const files = readdirSync(new URL('../../schema', import.meta.url))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(MIGRATIONS.map((m) => m.name)).toEqual(files);
    MIGRATIONS.forEach((m, i) => {
      expect(m.version).toBe(i + 1);
      expect(m.name.startsWith(String(i + 1).padStart(4, '0'))).toBe(true);
    });
  });

  test('apply once; a second run applies nothing', () => {
    const db = openMemoryDatabase();
    expect(migrate(db).applied.length).toBe(MIGRATIONS.length);
    expect(migrate(db).applied).toEqual([]);
  });

  test('an edited landed migration stops the start', () => {
    const db = openMemoryDatabase();
    migrate(db);
    const edited = MIGRATIONS.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n-- edited` } : m));
    expect(() => migrate(db, edited)).toThrow(/edited after it was applied/);
  });

  test('a database from a newer build is refused', () => {
    const db = openMemoryDatabase();
    migrate(db);
    expect(() => migrate(db, MIGRATIONS.slice(0, 1))).toThrow(/newer svc/);
  });

  test('a failing migration leaves nothing half-applied', () => {
    const db = openMemoryDatabase();
    const bad = [...MIGRATIONS, { version: MIGRATIONS.length + 1, name: 'broken.sql', sql: 'CREATE TABLE half (x); SELECT * FROM no_such_table;' }];
    expect(() => migrate(db, bad)).toThrow();
    expect(db.query("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeNull();
    expect(migrate(db).applied).toEqual([]);
  });
});
