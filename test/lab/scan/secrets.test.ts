// The scan's secret step (src/lab/scan/secrets.ts): what it reads of a text file and of a binary
// one, and how scanLabSite answers a key (SECRET_LIKE, where files[i].content, before any lab rule).
import { describe, expect, test } from 'bun:test';
import { binaryStrings, findSiteSecret, MIN_RUN, scannedText } from '../../../src/lab/scan/secrets.ts';
import { scanLabSite } from '../../../src/lab/scan/site.ts';
import { bytes, file, page, site } from './fixtures.ts';

const AWS = 'AKIAIOSFODNN7EXAMPLE'; // AWS's documentation example

/** Deterministic noise (xorshift32): compressed image data, as far as the scanner can tell. */
function noise(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('binaryStrings: the text a binary file carries', () => {
  test('printable runs of at least MIN_RUN characters; shorter runs are dropped', () => {
    const runs = binaryStrings(bytes([0x89, 0], 'a short run', [0, 1, 2], `Comment ${AWS}`, [0xff], 'x'.repeat(MIN_RUN), [0xfe]));
    expect(runs).toEqual([`Comment ${AWS}`, 'x'.repeat(MIN_RUN)]);
  });

  test('a PEM block keeps its line breaks: one run', () => {
    const block = '-----BEGIN PRIVATE KEY-----\nABCDEFGHIJKLMNOPQRSTUVWXYZ012345\n-----END PRIVATE KEY-----\n';
    expect(binaryStrings(bytes([0, 0xff], block, [0]))).toEqual([block]);
  });

  test('UTF-16LE text at either alignment (EXIF XPComment)', () => {
    const u16 = [...Buffer.from(`note ${AWS}`, 'utf16le')];
    expect(binaryStrings(bytes([0xff], u16, [0xff, 0xfe]))).toEqual([`note ${AWS}`]);
    expect(binaryStrings(bytes([0xff, 0xfe], u16, [0xff, 0xfe]))).toEqual([`note ${AWS}`]);
  });

  test('noise yields (almost) nothing: 512 KB of it costs the scanner no text', () => {
    expect(binaryStrings(noise(512 * 1024)).join('').length).toBeLessThan(64);
  });

  test('a key with up to four random letters glued to either end is still found (a PNG chunk CRC after its text)', () => {
    for (const [before, after] of [
      ['', 'Qz'],
      ['', 'Qz9k'],
      ['b7', ''],
      ['Xy3w', 'Qz9k'],
    ]) {
      const png = bytes([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x2a], 'tEXtComment', [0], `${before}${AWS}${after}`, [0, 0, 0, 0]);
      expect(findSiteSecret([file('a.png', png)])?.details.kind).toBe('aws_access_key');
    }
  });
});

describe('scannedText', () => {
  test('a text type is decoded as UTF-8, a malformed byte included; a binary type gives its runs', () => {
    expect(scannedText('a.js', bytes(`const k = '${AWS}'`, [0xc3], '!'))).toBe(`const k = '${AWS}'\ufffd!`);
    const png = scannedText('a.png', bytes([0x89], `tEXt${AWS}`, [0])).split('\n\n');
    expect(png[0]).toBe(`tEXt${AWS}`);
    expect(png).toContain(AWS); // a cut of four characters at its head
    expect(png.every((form) => form.length >= MIN_RUN)).toBe(true);
    // An extension the lab does not serve is read as binary (the scan refuses the file after).
    expect(scannedText('a.exe', bytes([0], 'hello'))).toBe('');
  });
});

describe('scanLabSite answers a key first', () => {
  test('SECRET_LIKE with the kind, files[i].content and the file, before the lab rules', () => {
    const wallet = file('w.js', `const p = window['eth' + 'ereum']\n// ${AWS}`);
    expect(scanLabSite(site([file('ok.css', 'body{}'), wallet]))).toEqual({
      code: 'SECRET_LIKE',
      details: { kind: 'aws_access_key', where: 'files[2].content', file: 'w.js' },
    });
    // Without the key the same site breaks the wallet rule.
    expect(scanLabSite(site([file('ok.css', 'body{}'), file('w.js', "const p = window['eth' + 'ereum']")]))?.code).toBe('LAB_WALLET_CODE');
  });

  test('a key in an image, in noise', () => {
    const png = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [...noise(4096)], 'Comment', [0], AWS, [...noise(4096, 9)]);
    expect(findSiteSecret(site([file('img/a.png', png)]))).toMatchObject({ details: { where: 'files[1].content', file: 'img/a.png' } });
  });

  test('a clean site has none', () => {
    expect(findSiteSecret(site([file('a.png', noise(64 * 1024)), file('b.html', page('<p>keys look like AKIA…</p>'))]))).toBeNull();
  });
});
