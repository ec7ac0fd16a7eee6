// Counts the work one statement does inside SQLite: its virtual-machine steps, full-scan steps and
// sorted rows (sqlite3_stmt_status), which bun:sqlite does not expose. The database is copied
// (Database.serialize) to a file that the system's libsqlite3 (Debian's libsqlite3-0) opens through
// bun:ffi, and the store's SQL runs there with the same parameters. A read whose cost does not grow
// with the board or with an agent's history takes about the same steps on a small and a large one;
// a walk of rows shows as steps that grow with the rows walked. Counts, not time: load-independent.
import type { Database } from 'bun:sqlite';
import { dlopen, FFIType, type Pointer, ptr } from 'bun:ffi';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const lib = dlopen('libsqlite3.so.0', {
  sqlite3_open_v2: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
  sqlite3_close_v2: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_errmsg: { args: [FFIType.ptr], returns: FFIType.cstring },
  sqlite3_prepare_v2: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  sqlite3_bind_int64: { args: [FFIType.ptr, FFIType.i32, FFIType.i64], returns: FFIType.i32 },
  sqlite3_bind_double: { args: [FFIType.ptr, FFIType.i32, FFIType.f64], returns: FFIType.i32 },
  sqlite3_bind_text: { args: [FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.i64], returns: FFIType.i32 },
  sqlite3_bind_null: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  sqlite3_step: { args: [FFIType.ptr], returns: FFIType.i32 },
  sqlite3_stmt_status: { args: [FFIType.ptr, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  sqlite3_finalize: { args: [FFIType.ptr], returns: FFIType.i32 },
});
const S = lib.symbols;

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const OPEN_READONLY = 1;
const STATUS = { fullscan: 1, sort: 2, vm: 4 } as const;

const cstr = (s: string) => Buffer.from(`${s}\0`);

export interface StatementWork {
  /** Rows the statement answered. */
  rows: number;
  /** Virtual-machine steps: grows with every row read, sorted or skipped. */
  vm: number;
  /** Steps of full table or index scans. */
  fullscan: number;
  /** Sort operations. */
  sort: number;
}

/** A read-only copy of `db` that the system's SQLite runs statements on. Close it when done. */
export function workCounter(db: Database) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-vm-'));
  const file = join(dir, 'copy.sqlite');
  writeFileSync(file, db.serialize());
  const out = new BigUint64Array(1);
  if (S.sqlite3_open_v2(cstr(file), ptr(out), OPEN_READONLY, null) !== 0) throw new Error(`cannot open ${file}`);
  const handle = Number(out[0]) as Pointer;
  return {
    /** Runs `sql` with positional `params` to its end and answers the work it did. */
    run(sql: string, params: readonly (string | number | bigint | null)[]): StatementWork {
      const st = new BigUint64Array(1);
      if (S.sqlite3_prepare_v2(handle, cstr(sql), -1, ptr(st), null) !== 0) throw new Error(`prepare: ${S.sqlite3_errmsg(handle)}\n${sql}`);
      const stmt = Number(st[0]) as Pointer;
      try {
        params.forEach((p, i) => {
          const at = i + 1;
          if (p === null) S.sqlite3_bind_null(stmt, at);
          else if (typeof p === 'string')
            S.sqlite3_bind_text(stmt, at, cstr(p), -1, -1n); // SQLITE_TRANSIENT: SQLite copies it
          else if (typeof p === 'bigint' || Number.isSafeInteger(p)) S.sqlite3_bind_int64(stmt, at, BigInt(p));
          else S.sqlite3_bind_double(stmt, at, p);
        });
        let rows = 0;
        for (;;) {
          const rc = S.sqlite3_step(stmt);
          if (rc === SQLITE_ROW) rows++;
          else if (rc === SQLITE_DONE) break;
          else throw new Error(`step ${rc}: ${S.sqlite3_errmsg(handle)}`);
        }
        return {
          rows,
          vm: S.sqlite3_stmt_status(stmt, STATUS.vm, 0),
          fullscan: S.sqlite3_stmt_status(stmt, STATUS.fullscan, 0),
          sort: S.sqlite3_stmt_status(stmt, STATUS.sort, 0),
        };
      } finally {
        S.sqlite3_finalize(stmt);
      }
    },
    close() {
      S.sqlite3_close_v2(handle);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
