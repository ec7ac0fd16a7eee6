// The WAL-index header as SQLite keeps it in the -shm file beside a database in WAL mode: what the
// served log's size is (its frames, not the -wal file's size, which a restarted log keeps and which
// the checkpoint lays out ahead of it: src/db/checkpoint.ts), how much of it is not yet copied
// into the database, and whether the next write may start it over. Read by the group commit's log
// (src/ops/wal-log.ts) and by GET /metrics.
import { openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * The WAL-index header as the -shm file holds it (SQLite's documented WAL-index format 3007000, in
 * the machine's byte order): mxFrame at byte 16 (the log's frames), the page size at byte 14, and
 * the checkpoint's nBackfill at byte 96. Throws when the file does not hold that format.
 */
export function walIndex(shm: number): () => { mxFrame: number; frameBytes: number; nBackfill: number } {
  const header = new DataView(new ArrayBuffer(100));
  const little = endianness() === 'LE';
  return () => {
    if (readSync(shm, header, 0, 100, 0) < 100 || header.getUint32(0, little) !== 3007000) throw new Error('unknown WAL-index format');
    const page = header.getUint16(14, little);
    return { mxFrame: header.getUint32(16, little), frameBytes: (page === 1 ? 65536 : page) + 24, nBackfill: header.getUint32(96, little) };
  };
}

/**
 * The log's size in bytes, and the part of it not yet copied into the database: frames times a
 * frame's size. Not the -wal file's size: a restarted log keeps its file and rewrites it from the start.
 */
export function logSize(shm: number): () => { bytes: number; uncopied: number } {
  const read = walIndex(shm);
  return () => {
    const h = read();
    return { bytes: h.mxFrame * h.frameBytes, uncopied: (h.mxFrame - h.nBackfill) * h.frameBytes };
  };
}

// Descriptors of -shm files (and database files), opened once and kept for the process's life.
// Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own
// included: after GET /metrics opened and closed one, the next connection of another process
// (Litestream, `svc admin`, a backup, a bench reading the file) found no other user of the
// WAL-index, rebuilt it, and the server, its memory map of the old one cut short, died of a bus
// error at its next write (test/db/shm-locks.test.ts). The same holds for the database file itself
// (the checkpoint worker's write-back, src/db/checkpoint.ts).
const held = new Map<string, number>();

/** A read-only descriptor of `file`, opened once and never closed (see above). Throws when there is no such file. */
export function heldDescriptor(file: string): number {
  let fd = held.get(file);
  if (fd === undefined) {
    fd = openSync(file, 'r');
    held.set(file, fd);
  }
  return fd;
}

/** A descriptor of the -shm file of the database file `path`, never closed (see above). Throws when there is none yet. */
export const shmDescriptor = (path: string): number => heldDescriptor(`${path}-shm`);

/** The log of the database file `path` as its WAL-index header says (not the -wal file's size, which is laid out ahead of it). */
export function logSizeOf(path: string): { bytes: number; uncopied: number } {
  return logSize(shmDescriptor(path))();
}

/**
 * Whether the whole log is checkpointed (nBackfill equals mxFrame; an empty log counts): the next
 * write transaction may then start the log over from its head. An unreadable header answers true
 * (the safe answer: the batch commits at FULL, or waits for the server's own checkpoint to restart the log).
 */
export function wholeLogCheckpointed(shm: number): () => boolean {
  const read = walIndex(shm);
  return () => {
    try {
      const h = read();
      return h.nBackfill === h.mxFrame;
    } catch {
      return true;
    }
  };
}
