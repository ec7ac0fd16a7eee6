// Why /proc/<pid>/io write_bytes is not what a write sends to the device on this kernel:
//
//   bun bench/pages/write-bytes.ts [DIR]      (DIR: a folder on the disk to test, default the system temp folder)
//
// Writes a 256 MB file in 1 MB writes and syncs it, then overwrites 1,000 random 4 KB pages of it
// and syncs again, and prints what write_bytes counted for those 4 MB against the sectors the
// block device wrote meanwhile (/sys/block/<dev>/stat, every process's: run it on a quiet
// machine). With large page-cache folios (Linux 6.16+ on ext4) write_bytes counts every folio a
// write dirties whole: measured here, 267 MB counted for 4 MB written, 4.3 MB on the device. A
// 2 GB database dirtied in scattered pages by checkpoints is counted the same way, so the bytes to
// compare between board sizes are those of the write calls (bench/pages/write-pages.ts written_kb).
import { closeSync, fsyncSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = process.argv[2] ?? tmpdir();
const file = join(dir, `svc-write-bytes-${process.pid}.bin`);
const writeBytes = () => Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
// The block device holding `dir` (its major:minor, matched in /sys/block/*/dev).
const devOf = (path: string): string | null => {
  const d = statSync(path).dev;
  const want = `${Math.floor(d / 256)}:${d % 256}`;
  for (const name of readdirSync('/sys/block')) {
    if (readFileSync(`/sys/block/${name}/dev`, 'utf8').trim() === want) return name;
  }
  return null;
};
const dev = devOf(dir);
const sectorsWritten = () => (dev ? Number(readFileSync(`/sys/block/${dev}/stat`, 'utf8').trim().split(/\s+/)[6]) : Number.NaN);

const fd = openSync(file, 'w+');
try {
  const mb = Buffer.alloc(1 << 20, 1);
  for (let i = 0; i < 256; i++) writeSync(fd, mb);
  fsyncSync(fd);
  const page = Buffer.alloc(4096, 2);
  const [s0, w0] = [sectorsWritten(), writeBytes()];
  for (let i = 0; i < 1000; i++) writeSync(fd, page, 0, 4096, Math.floor(Math.random() * 65_536) * 4096);
  const w1 = writeBytes();
  fsyncSync(fd);
  const s1 = sectorsWritten();
  console.log(
    JSON.stringify({
      pages_written: 1000,
      bytes_written_mb: 4.1,
      proc_write_bytes_mb: Math.round((w1 - w0) / 1e5) / 10,
      device: dev,
      device_mb_written_meanwhile: Math.round(((s1 - s0) * 512) / 1e5) / 10,
    }),
  );
} finally {
  closeSync(fd);
  rmSync(file, { force: true });
}
