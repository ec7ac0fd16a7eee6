// svc backup and svc restore as plain functions (src/ops/backup.ts), and their refusals through the
// command: each answers its own code, never INTERNAL with a stack.
import { Database } from 'bun:sqlite';
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/db/migrations.ts';
import { openDatabase } from '../../src/db/open.ts';
import { backup, BUILD_SCHEMA_VERSION, OpsError, restore } from '../../src/ops/backup.ts';
import { opsStore } from '../../src/ops/store.ts';
import { svc, tempDir } from './cli.ts';

// The command tests start processes (cold starts of the app); the timeout is a hang guard only.
setDefaultTimeout(120_000);

/** A data folder with a migrated database holding one marked row. */
function dataWithRow(mark = 'kept'): string {
  const data = tempDir();
  const db = openDatabase(data);
  migrate(db);
  db.query("INSERT INTO accounts (id, name, name_key, key_hash, created_at) VALUES (?, ?, ?, 'h', 0)").run(crypto.randomUUID(), mark, mark);
  db.close();
  return data;
}

function refusal(fn: () => unknown): OpsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpsError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

const names = (file: string) => {
  const db = new Database(file, { readonly: true });
  const rows = db.query<{ name: string }, []>("SELECT name FROM accounts WHERE name <> 'svc' ORDER BY name").all();
  db.close();
  return rows.map((r) => r.name);
};

describe('backup', () => {
  test('writes a consistent copy and says which schema it holds', () => {
    const data = dataWithRow();
    const file = join(tempDir(), 'b.sqlite');
    const r = backup(data, file);
    expect(r).toMatchObject({ backup: file, data_dir: data, schema_version: BUILD_SCHEMA_VERSION });
    expect(r.bytes).toBeGreaterThan(0);
    expect(names(file)).toEqual(['kept']);
    // Only the copy: no temporary file is left beside it.
    expect(readdirSync(join(file, '..'))).toEqual(['b.sqlite']);
  });

  test('records itself in the database it copied (time, size, path, schema) for the console; an older schema is left unrecorded and unmigrated', () => {
    const data = dataWithRow();
    const first = join(tempDir(), 'b1.sqlite');
    const second = join(tempDir(), 'b2.sqlite');
    const at = Date.parse('2026-11-23T09:00:00Z');
    expect(backup(data, first, at)).toMatchObject({ recorded: true });
    const r = backup(data, second, at + 3_600_000);
    expect(r.recorded).toBe(true);
    const db = openDatabase(data);
    expect(opsStore(db).lastBackup.get()).toEqual({ at: at + 3_600_000, file: second, bytes: r.bytes, schema_version: BUILD_SCHEMA_VERSION });
    db.close();
    // A copy holds the backups recorded before it, not its own record.
    const copy = new Database(second, { readonly: true });
    expect(copy.query('SELECT file FROM ops_backups').all()).toEqual([{ file: first }]);
    copy.close();
    const old = tempDir();
    const before = openDatabase(old);
    migrate(before, MIGRATIONS.slice(0, 20));
    before.close();
    expect(backup(old, join(tempDir(), 'b.sqlite')).recorded).toBe(false);
    const after = new Database(join(old, 'svc.sqlite'), { readonly: true });
    expect(after.query("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'ops_backups'").get()).toEqual({ n: 0 });
    after.close();
  });

  test('a missing folder is BACKUP_DIR_MISSING, an existing file EXISTS, a missing database NO_DATABASE; none creates anything', () => {
    const data = dataWithRow();
    const nowhere = join(tempDir(), 'no', 'such', 'folder', 'b.sqlite');
    expect(refusal(() => backup(data, nowhere))).toMatchObject({ code: 'BACKUP_DIR_MISSING', details: { folder: join(nowhere, '..') } });
    expect(existsSync(join(nowhere, '..'))).toBe(false);
    const taken = join(tempDir(), 'taken.sqlite');
    writeFileSync(taken, 'precious');
    expect(refusal(() => backup(data, taken)).code).toBe('EXISTS');
    expect(readFileSync(taken, 'utf8')).toBe('precious');
    const empty = tempDir();
    expect(refusal(() => backup(empty, join(tempDir(), 'b.sqlite'))).code).toBe('NO_DATABASE');
    expect(readdirSync(empty)).toEqual([]);
  });
});

describe('restore', () => {
  test('restores a backup into a new folder', () => {
    const file = join(tempDir(), 'b.sqlite');
    backup(dataWithRow('restored'), file);
    const target = join(tempDir(), 'fresh');
    const r = restore(file, target);
    expect(r).toMatchObject({ data_dir: target, database: join(target, 'svc.sqlite'), schema_version: BUILD_SCHEMA_VERSION, pending_migrations: 0 });
    expect(names(join(target, 'svc.sqlite'))).toEqual(['restored']);
    expect(readdirSync(target)).toEqual(['svc.sqlite']);
  });

  test('an empty existing folder is fine; a folder with anything in it is RESTORE_TARGET_NOT_EMPTY and left alone', () => {
    const file = join(tempDir(), 'b.sqlite');
    backup(dataWithRow(), file);
    const empty = tempDir();
    expect(restore(file, empty).database).toBe(join(empty, 'svc.sqlite'));
    const used = tempDir();
    writeFileSync(join(used, 'notes.txt'), 'mine');
    expect(refusal(() => restore(file, used))).toMatchObject({ code: 'RESTORE_TARGET_NOT_EMPTY', details: { entries: ['notes.txt'] } });
    expect(readdirSync(used)).toEqual(['notes.txt']);
    // A live data folder is refused too: a restore never overwrites a database.
    expect(refusal(() => restore(file, empty)).code).toBe('RESTORE_TARGET_NOT_EMPTY');
  });

  test('a file that is not a database, a damaged one and one without svc schema are RESTORE_CORRUPT; nothing is written', () => {
    const dir = tempDir();
    const junk = join(dir, 'junk.sqlite');
    writeFileSync(junk, 'not a database, just some text that is long enough to look like a header '.repeat(20));
    const good = join(dir, 'good.sqlite');
    backup(dataWithRow(), good);
    // Damage the pages after the first: the header opens, the b-trees do not hold.
    const bytes = readFileSync(good);
    for (let i = 4096; i < bytes.length; i += 13) bytes[i]! ^= 0x5a;
    const damaged = join(dir, 'damaged.sqlite');
    writeFileSync(damaged, bytes);
    const foreign = join(dir, 'foreign.sqlite');
    const f = new Database(foreign, { create: true });
    f.exec('CREATE TABLE notes (x TEXT)');
    f.close();
    for (const [file, reason] of [
      [junk, 'not_a_database'],
      [damaged, expect.stringMatching(/^(integrity_check|unreadable)$/)],
      [foreign, 'not_an_svc_database'],
    ] as const) {
      const target = join(tempDir(), 'fresh');
      const e = refusal(() => restore(file, target));
      expect(e.code).toBe('RESTORE_CORRUPT');
      expect(e.details.reason).toEqual(reason);
      expect(existsSync(join(target, 'svc.sqlite'))).toBe(false);
    }
  });

  test('a backup from a newer build is RESTORE_NEWER_SCHEMA; a missing file RESTORE_SOURCE_MISSING', () => {
    const data = dataWithRow();
    const db = openDatabase(data);
    db.query("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, 'from_the_future.sql', 'x', '')").run(BUILD_SCHEMA_VERSION + 1);
    db.close();
    const file = join(tempDir(), 'b.sqlite');
    backup(data, file);
    const target = join(tempDir(), 'fresh');
    expect(refusal(() => restore(file, target))).toMatchObject({
      code: 'RESTORE_NEWER_SCHEMA',
      details: { schema_version: BUILD_SCHEMA_VERSION + 1, build_schema_version: BUILD_SCHEMA_VERSION },
    });
    expect(existsSync(target)).toBe(false);
    expect(refusal(() => restore(join(tempDir(), 'none.sqlite'), target)).code).toBe('RESTORE_SOURCE_MISSING');
  });

  test('a backup from an older build restores, and says how many migrations its first start applies', () => {
    const data = tempDir();
    const db = openDatabase(data);
    migrate(db, MIGRATIONS.slice(0, 20));
    db.close();
    const file = join(tempDir(), 'b.sqlite');
    backup(data, file);
    expect(restore(file, join(tempDir(), 'fresh'))).toMatchObject({ schema_version: 20, pending_migrations: MIGRATIONS.length - 20 });
  });
});

describe('the command answers its own codes', () => {
  test('backup and restore refusals print {"error":{"code"}} and exit 1, with no stack', async () => {
    const data = dataWithRow();
    const file = join(tempDir(), 'b.sqlite');
    const ok = await svc(['backup', file, '--data', data]);
    expect([ok.code, ok.json.backup]).toEqual([0, file]);
    const used = tempDir();
    mkdirSync(join(used, 'lab'));
    const cases: [string[], string][] = [
      [['backup', join(tempDir(), 'missing', 'b.sqlite'), '--data', data], 'BACKUP_DIR_MISSING'],
      [['backup', file, '--data', data], 'EXISTS'],
      [['backup', join(tempDir(), 'b.sqlite'), '--data', tempDir()], 'NO_DATABASE'],
      [['restore', file, '--data', used], 'RESTORE_TARGET_NOT_EMPTY'],
      [['restore', join(data, 'nothing.sqlite'), '--data', join(tempDir(), 'x')], 'RESTORE_SOURCE_MISSING'],
      [['restore', '--data', join(tempDir(), 'x')], 'USAGE'],
    ];
    for (const [args, code] of cases) {
      const r = await svc(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.json.error.code, args.join(' ')).toBe(code);
      expect(r.stderr).not.toContain('    at ');
    }
    const restored = await svc(['restore', file, '--data', join(tempDir(), 'fresh')]);
    expect(restored.code).toBe(0);
    expect(restored.json).toMatchObject({ schema_version: BUILD_SCHEMA_VERSION, pending_migrations: 0 });
  });
});
