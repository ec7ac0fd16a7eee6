// Key material in a site's files: 03 §7 ("scan every string field of a request body") for the
// one route whose fields are whole files. The shared scanner (src/content findSecret: the same
// kinds, normalization and line joining as every other writing route) reads what each file holds,
// decoded: a base64 file is judged on its bytes, never on its base64 text. It runs in the lab-scan
// worker with the rest of the scan (up to 2 MB of text; see docs/lab-pages.md for its cost), and
// answers as every other route does: SECRET_LIKE with the kind and the field's JSON path
// (`files[2].content`), never the text. The title and the paths are scanned on the request thread
// (src/lab/pages/pages.ts), before the files are decoded.
import { findSecret } from '../../content/index.ts';
import type { SecretFinding } from './finding.ts';
import { typeOf } from './paths.ts';

/**
 * The shortest printable run kept from a binary file: below every key the scanner knows (the
 * shortest, an AWS access key id, is 20 characters), and long enough that compressed image data
 * yields almost none (a run of 16 printable bytes in random data is about one in ten million).
 */
export const MIN_RUN = 16;

// Not fatal: a text file that is not valid UTF-8 is refused later by the type check, and a key in
// it must still be found first (a malformed byte becomes U+FFFD, the rest reads as it is).
const utf8 = new TextDecoder();
const latin1 = new TextDecoder('latin1');

// Printable ASCII, tab and line breaks: 1, by byte value.
const PRINTABLE = new Uint8Array(256);
for (let b = 0x20; b <= 0x7e; b++) PRINTABLE[b] = 1;
for (const b of [0x09, 0x0a, 0x0d]) PRINTABLE[b] = 1;

/**
 * The text a binary file carries, as `strings` finds it: runs of at least `min` printable ASCII
 * characters (tabs and line breaks included, so a PEM block stays one run), and the same in UTF-16LE
 * (EXIF's XPComment, Windows metadata). This is where a key sits in an image: a PNG tEXt/iTXt
 * chunk, an EXIF or XMP comment, bytes appended after the image. Compressed data (a deflated PNG
 * zTXt chunk, a woff2 font) is not inflated: a key there is not readable as served either, short
 * of decompressing it.
 */
export function binaryStrings(bytes: Uint8Array, min = MIN_RUN): string[] {
  const runs: string[] = [];
  let start = 0;
  const n = bytes.length;
  for (let i = 0; i <= n; i++) {
    if (i < n && PRINTABLE[bytes[i]!] === 1) continue;
    if (i - start >= min) runs.push(latin1.decode(bytes.subarray(start, i)));
    start = i + 1;
  }
  // UTF-16LE: a printable byte then a zero, at either alignment; the low bytes gathered in `low`.
  const low = new Uint8Array((n >> 1) + 1);
  for (const offset of [0, 1]) {
    let kept = 0;
    for (let i = offset; i <= n; i += 2) {
      if (i + 1 < n && bytes[i + 1] === 0 && PRINTABLE[bytes[i]!] === 1) {
        low[kept++] = bytes[i]!;
        continue;
      }
      if (kept >= min) runs.push(latin1.decode(low.subarray(0, kept)));
      kept = 0;
    }
  }
  return runs;
}

// A run's edges may hold a few random bytes that happen to be printable (a PNG tEXt chunk's text
// is followed by its CRC): glued to a key, a letter there would hide it from the scanner's token
// boundaries. So each run is also read without up to EDGE characters at either end: a short run
// (a key and little else) with every such cut, a longer one in windows of EDGE_WINDOW characters at
// each end (longer than any token and the label before it).
const EDGE = 4;
const EDGE_WINDOW = 256;

function edgeForms(run: string, min: number): string[] {
  const out: string[] = [];
  if (run.length <= EDGE_WINDOW) {
    for (let head = 0; head <= EDGE; head++)
      for (let tail = 0; tail <= EDGE; tail++) if (head + tail > 0 && run.length - head - tail >= min) out.push(run.slice(head, run.length - tail));
    return out;
  }
  for (let k = 1; k <= EDGE; k++) out.push(run.slice(k, k + EDGE_WINDOW), run.slice(run.length - k - EDGE_WINDOW, run.length - k));
  return out;
}

/**
 * What the secret scan reads of a file: a text type's decoded text; anything else, its printable
 * runs and their edge forms, set apart by a blank line so the scanner's line joining never glues
 * two of them into one token.
 */
export function scannedText(path: string, bytes: Uint8Array): string {
  if (typeOf(path)?.text) return utf8.decode(bytes);
  return binaryStrings(bytes)
    .flatMap((run) => [run, ...edgeForms(run, MIN_RUN)])
    .join('\n\n');
}

/** The first file holding key material, as the SECRET_LIKE refusal; null when none does. */
export function findSiteSecret(files: readonly { path: string; bytes: Uint8Array }[]): SecretFinding | null {
  for (const [i, f] of files.entries()) {
    const hit = findSecret(scannedText(f.path, f.bytes));
    // The path was scanned on the request thread before the files were decoded: naming it echoes nothing secret.
    if (hit) return { code: 'SECRET_LIKE', details: { kind: hit.kind, where: `files[${i}].content`, file: f.path } };
  }
  return null;
}
