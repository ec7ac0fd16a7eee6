// The write-back the checkpoint worker starts after each copy (src/db/write-back.ts): the kernel
// takes the request for a file with dirty pages, and a descriptor that is not open is refused.
import { describe, expect, test } from 'bun:test';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWriteBack } from '../../src/db/write-back.ts';

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
