// The removal counter as the public cache reads it (src/http/removal-watch.ts): a removal through
// this connection is seen by the next read; one through another connection (svc admin beside a
// running server) once the window of monotonic time has passed; and the table is not read again
// while nothing changed.
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { watchRemovals } from '../../src/http/removal-watch.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-removals-'));
  dirs.push(dir);
  const db = openDatabase(dir);
  migrate(db);
  const other = openDatabase(dir);
  let reads = 0;
  const counter = db.query<{ n: number }, []>('SELECT n FROM public_removals WHERE id = 1');
  let now = 0;
  const changes = db.query<{ n: number }, []>('SELECT total_changes() AS n');
  const removals = watchRemovals(
    () => changes.get()!.n,
    () => {
      reads++;
      return counter.get()!.n;
    },
    { windowMs: 250, monotonic: () => now },
  );
  const bump = (conn: typeof db) => conn.run('UPDATE public_removals SET n = n + 1 WHERE id = 1');
  return {
    db,
    other,
    removals,
    reads: () => reads,
    bump,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('the removal counter the public cache reads', () => {
  test('read once, then not again while nothing changed within the window', () => {
    const w = setup();
    expect(w.removals()).toBe(0);
    expect(w.removals()).toBe(0);
    w.advance(249);
    expect(w.removals()).toBe(0);
    expect(w.reads()).toBe(1);
  });

  test('a change through this connection is seen by the very next read', () => {
    const w = setup();
    expect(w.removals()).toBe(0);
    w.bump(w.db);
    expect(w.removals()).toBe(1);
    expect(w.reads()).toBe(2);
  });

  test('a change through another connection is seen once the window has passed', () => {
    const w = setup();
    expect(w.removals()).toBe(0);
    w.bump(w.other);
    w.advance(249);
    expect(w.removals()).toBe(0);
    w.advance(1);
    expect(w.removals()).toBe(1);
  });
});
