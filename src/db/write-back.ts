// Starts the kernel's write-back of a file's dirty pages without waiting for it: Linux's
// sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE), through bun:ffi on the C library (node:fs has
// no such call). The checkpoint worker (src/db/checkpoint.ts) calls it after each copy into the
// database file: the pages go to the disk while the writes go on, instead of all in the held
// restart's sync. Elsewhere (no libc.so.6, another system) it does nothing and says so.
//
// And the other way: posix_fadvise(fd, offset, bytes, POSIX_FADV_WILLNEED) starts reading a range
// of a file into the page cache without waiting for it. The checkpoint worker calls it on the part
// of the -wal file the log's next frames will be written into (src/ops/wal-log.ts): a frame (24 +
// 4,096 bytes) never covers whole blocks, so a frame written into a block the page cache no longer
// holds makes the kernel read that block first, inside the commit, on the request thread.
import { dlopen, FFIType } from 'bun:ffi';

const SYNC_FILE_RANGE_WRITE = 2;
const POSIX_FADV_WILLNEED = 3;

type RangeCall = (fd: number, offset: number, bytes: number, flags: number) => number;
let calls: { syncFileRange: RangeCall; fadvise: RangeCall } | null | undefined;

function binding(): typeof calls {
  if (calls === undefined) {
    try {
      const range = { args: [FFIType.i32, FFIType.i64, FFIType.i64, FFIType.i32], returns: FFIType.i32 } as const;
      const lib = dlopen('libc.so.6', { sync_file_range: range, posix_fadvise: range });
      calls = {
        syncFileRange: (fd, offset, bytes, flags) => lib.symbols.sync_file_range(fd, offset, bytes, flags),
        fadvise: (fd, offset, bytes, advice) => lib.symbols.posix_fadvise(fd, offset, bytes, advice),
      };
    } catch {
      calls = null;
    }
  }
  return calls;
}

/** Starts writing back every dirty page of the file open as `fd`; true when the kernel took the request. */
export function startWriteBack(fd: number): boolean {
  const call = binding();
  return call != null && call.syncFileRange(fd, 0, 0, SYNC_FILE_RANGE_WRITE) === 0;
}

/** Starts reading `bytes` of the file open as `fd` from `offset` into the page cache; true when the kernel took the request. */
export function startReadAhead(fd: number, offset: number, bytes: number): boolean {
  const call = binding();
  return call != null && call.fadvise(fd, Math.max(0, Math.floor(offset)), Math.max(0, Math.floor(bytes)), POSIX_FADV_WILLNEED) === 0;
}
