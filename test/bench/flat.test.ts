// bench/run/flat.ts's interleaving and bench/corpus.ts's page-by-page copy: the two pure parts of
// the flatness scenario (its rounds need both corpora and wrk, so they run in the bench only).
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDataDir } from '../../bench/corpus.ts';
import { interleaving } from '../../bench/run/flat.ts';

describe('the two sizes’ rounds, interleaved', () => {
  test('10k, 1M, 1M, 10k, 10k, 1M: each size has its rounds, and the i-th of each are neighbours', () => {
    expect(interleaving(3)).toEqual(['small', 'large', 'large', 'small', 'small', 'large']);
    for (const n of [1, 2, 3, 4, 5]) {
      const order = interleaving(n);
      const at = (which: 'small' | 'large') => order.flatMap((w, i) => (w === which ? [i] : []));
      const small = at('small');
      const large = at('large');
      expect(small.length).toBe(n);
      expect(large.length).toBe(n);
      for (let i = 0; i < n; i++) expect(Math.abs(small[i]! - large[i]!)).toBe(1);
    }
  });
});

describe('a fresh copy of the corpus', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('holds every byte of the corpus, a last partial page and a block boundary included', () => {
    const src = mkdtempSync(join(tmpdir(), 'svc-flat-test-'));
    dirs.push(src);
    for (const size of [0, 100, 4096, 256 * 4096 + 4096 * 3 + 17]) {
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
      const file = join(src, `corpus-${size}.sqlite`);
      writeFileSync(file, bytes);
      const dir = freshDataDir(file, 'test');
      dirs.push(dir);
      expect(Buffer.compare(readFileSync(join(dir, 'svc.sqlite')), Buffer.from(bytes))).toBe(0);
    }
  });
});
