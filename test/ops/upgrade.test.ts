// Upgrades you can undo: before applying new migrations to a database that holds some, migrate
// writes a consistent copy beside it named for the schema it holds (svc.sqlite.v0023.bak); the
// newest three are kept; `svc restore` of one brings the old version back.
import { Database } from 'bun:sqlite';
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listSnapshots, migrate, SNAPSHOTS_KEPT } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openDatabase } from '../../src/db/open.ts';
import { svc, tempDir } from './cli.ts';

setDefaultTimeout(120_000);

const version = (db: Database) => db.query<{ v: number }, []>('SELECT max(version) AS v FROM schema_migrations').get()!.v;

/** A data folder whose database stands at schema `at`, holding one account named `mark`. */
function oldData(at: number, mark = 'oldtimer'): string {
  const data = tempDir();
  const db = openDatabase(data);
  migrate(db, MIGRATIONS.slice(0, at));
  db.query("INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, 'h', 0)").run(crypto.randomUUID(), mark, mark);
  db.close();
  return data;
}

describe('the snapshot before an upgrade', () => {
  test('forward: the snapshot holds the old schema and the data; the database is upgraded with the data kept', () => {
    const data = oldData(23);
    const db = openDatabase(data);
    const r = migrate(db);
    const file = join(data, 'svc.sqlite.v0023.bak');
    expect(r.snapshot).toBe(file);
    expect(r.applied).toEqual(MIGRATIONS.slice(23).map((m) => m.name));
    expect(version(db)).toBe(MIGRATIONS.length);
    expect(db.query("SELECT name FROM accounts WHERE name = 'oldtimer'").get()).toEqual({ name: 'oldtimer' });
    db.close();
    const snap = new Database(file, { readonly: true });
    expect(version(snap)).toBe(23);
    expect(snap.query("SELECT name FROM accounts WHERE name = 'oldtimer'").get()).toEqual({ name: 'oldtimer' });
    expect(snap.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    snap.close();
  });

  test('no snapshot for a new database, nor when nothing is pending', () => {
    const data = tempDir();
    const db = openDatabase(data);
    expect(migrate(db).snapshot).toBeNull();
    expect(migrate(db).snapshot).toBeNull();
    db.close();
    expect(readdirSync(data).filter((f) => f.endsWith('.bak'))).toEqual([]);
  });

  test(`only the newest ${SNAPSHOTS_KEPT} are kept`, () => {
    const data = oldData(19);
    const db = openDatabase(data);
    for (const to of [20, 21, 22, 23]) migrate(db, MIGRATIONS.slice(0, to));
    const dbFile = join(data, 'svc.sqlite');
    expect(listSnapshots(dbFile).map((s) => s.version)).toEqual([22, 21, 20]);
    expect(existsSync(join(data, 'svc.sqlite.v0019.bak'))).toBe(false);
    db.close();
    expect(readdirSync(data).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  test('an upgrade that failed and is tried again replaces the copy of the same version with the database as it is now', () => {
    const data = oldData(22);
    const db = openDatabase(data);
    const broken = [...MIGRATIONS.slice(0, 22), { version: 23, name: '0023_broken.sql', sql: 'SELECT * FROM no_such_table;' }];
    expect(() => migrate(db, broken)).toThrow();
    const copy = (mark: string) => {
      const snap = new Database(join(data, 'svc.sqlite.v0022.bak'), { readonly: true });
      const row = snap.query('SELECT name FROM accounts WHERE name = ?').get(mark);
      snap.close();
      return row;
    };
    expect(copy('oldtimer')).toEqual({ name: 'oldtimer' });
    // Meanwhile the old build ran on and wrote more; the next upgrade's copy holds it.
    db.query("INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, 'later', 'later', 'h2', 0)").run(crypto.randomUUID());
    expect(copy('later')).toBeNull();
    expect(migrate(db, MIGRATIONS.slice(0, 23)).snapshot).toBe(join(data, 'svc.sqlite.v0022.bak'));
    expect(copy('later')).toEqual({ name: 'later' });
    db.close();
  });

  test('back: `svc restore` of the snapshot brings the old version back', async () => {
    const data = oldData(23);
    const up = await svc(['migrate', '--data', data]);
    expect(up.code).toBe(0);
    expect(up.json).toMatchObject({ version: MIGRATIONS.length, snapshot: join(data, 'svc.sqlite.v0023.bak') });
    expect(JSON.parse(up.stderr.trim().split('\n')[0]!)).toMatchObject({ event: 'pre_upgrade_snapshot', schema_version: 23 });
    const back = join(tempDir(), 'rolled-back');
    const r = await svc(['restore', join(data, 'svc.sqlite.v0023.bak'), '--data', back]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ schema_version: 23, pending_migrations: MIGRATIONS.length - 23 });
    const db = new Database(join(back, 'svc.sqlite'), { readonly: true });
    expect(version(db)).toBe(23);
    expect(db.query("SELECT name FROM accounts WHERE name = 'oldtimer'").get()).toEqual({ name: 'oldtimer' });
    db.close();
  });
});
