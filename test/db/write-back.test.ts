// The write-back the checkpoint worker starts after each copy (src/db/write-back.ts): the kernel
// takes the request for a file with dirty pages, and a descriptor that is not open is refused. And
// the read-ahead it asks for ahead of the log: pages the page cache had dropped are back in it.
import { spawnSync } from 'bun';
import { describe, expect, test } from 'bun:test';
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReadAhead, startWriteBack } from '../../src/db/write-back.ts';
import { until } from '../until.ts';

describe.skipIf(process.platform !== 'linux')('starting a write-back without waiting for it', () => {
  test("a file's dirty pages: taken; its content unchanged; a closed descriptor: refused", () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-write-back-'));
    try {
      const file = join(dir, 'pages');
      const fd = openSync(file, 'w+');
      const page = Buffer.alloc(4096, 7);
      for (let i = 0; i < 64; i++) writeSync(fd, page, 0, page.length, i * 8192);
      expect(startWriteBack(fd)).toBe(true);
      closeSync(fd);
      expect(
        readFileSync(file)
          .subarray(8192, 8192 + 4096)
          .equals(page),
      ).toBe(true);
      expect(startWriteBack(fd)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Bytes of `file` in the page cache (util-linux fincore). */
const resident = (file: string) => Number(spawnSync(['fincore', '--bytes', '--noheadings', '--output', 'RES', file]).stdout.toString().trim());

describe.skipIf(process.platform !== 'linux')('starting a read-ahead without waiting for it', () => {
  test('pages dropped from the page cache are read back into it; a closed descriptor: refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-read-ahead-'));
    try {
      const file = join(dir, 'log');
      const fd = openSync(file, 'w+');
      const chunk = Buffer.alloc(1 << 20, 9);
      for (let i = 0; i < 4; i++) writeSync(fd, chunk, 0, chunk.length, i * chunk.length);
      fsyncSync(fd);
      // Clean pages dropped, as a reclaim would (GNU dd asks the kernel with POSIX_FADV_DONTNEED).
      spawnSync(['dd', `if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
      expect(resident(file)).toBe(0);
      expect(startReadAhead(fd, 1 << 20, 2 << 20)).toBe(true);
      await until('the asked range in the page cache', () => resident(file) >= 2 << 20);
      closeSync(fd);
      expect(startReadAhead(fd, 0, 4096)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
