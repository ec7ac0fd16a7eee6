// Starts the kernel's write-back of a file's dirty pages without waiting for it: Linux's
// sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE), through bun:ffi on the C library (node:fs has
// no such call). The checkpoint worker (src/db/checkpoint.ts) calls it after each copy into the
// database file: the pages go to the disk while the writes go on, instead of all in the held
// restart's sync. Elsewhere (no libc.so.6, another system) it does nothing and says so.
import { dlopen, FFIType } from 'bun:ffi';

const SYNC_FILE_RANGE_WRITE = 2;

type SyncFileRange = (fd: number, offset: number, bytes: number, flags: number) => number;
let syncFileRange: SyncFileRange | null | undefined;

function binding(): SyncFileRange | null {
  if (syncFileRange === undefined) {
    try {
      const lib = dlopen('libc.so.6', { sync_file_range: { args: [FFIType.i32, FFIType.i64, FFIType.i64, FFIType.u32], returns: FFIType.i32 } });
      syncFileRange = (fd, offset, bytes, flags) => lib.symbols.sync_file_range(fd, offset, bytes, flags);
    } catch {
      syncFileRange = null;
    }
  }
  return syncFileRange;
}

/** Starts writing back every dirty page of the file open as `fd`; true when the kernel took the request. */
export function startWriteBack(fd: number): boolean {
  const call = binding();
  return call !== null && call(fd, 0, 0, SYNC_FILE_RANGE_WRITE) === 0;
}
