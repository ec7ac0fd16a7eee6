// The lab site bench/run.ts's `lab-publish` scenario publishes (PUT /v1/lab/pages/{slug}): a
// realistic static site just under the 2 MB decoded limit (docs/lab-pages.md): two HTML pages, a
// stylesheet, a script, a JSON data file and four PNG images (real PNGs: signature, IHDR, deflated
// IDAT of noisy pixels, IEND, each CRC right), the images sent base64 and the text utf8. Every
// `n` gives different bytes in every file, so each publish is a change the server must scan and
// store, never a duplicate answer.
import { crc32, deflateSync } from 'node:zlib';
import { prose } from './lib.ts';

export interface LabFile {
  path: string;
  content: string;
  encoding: 'utf8' | 'base64';
}

export interface LabSite {
  title: string;
  files: LabFile[];
}

/** The decoded limit of one site (src/lab/scan/limits.ts MAX_TOTAL_BYTES) and of one file (MAX_FILE_BYTES). */
export const LAB_TOTAL_BYTES = 2 * 1024 * 1024;
export const LAB_FILE_BYTES = 512 * 1024;

/** A deterministic byte stream (xorshift32) for the images' pixels. */
function noise(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MARKUP = /<(?:script|html|body|iframe|!doctype\s+html)\b/i; // what the lab scan refuses inside a binary file

/**
 * A real RGB PNG of about `bytes` bytes: noisy pixels (a photo-like image that does not compress),
 * deflated. Seeds whose bytes happen to spell markup the scan refuses in a binary file are skipped.
 */
export function png(seed: number, bytes: number): Buffer {
  const width = 256;
  let height = Math.max(1, Math.floor(bytes / (width * 3 + 1)));
  for (let s = seed; ; s++) {
    const next = noise(s * 2654435761);
    const raw = Buffer.alloc(height * (width * 3 + 1));
    for (let y = 0; y < height; y++) {
      const row = y * (width * 3 + 1);
      raw[row] = 0; // filter: none
      for (let i = 1; i <= width * 3; i += 4) {
        const v = next();
        raw[row + i] = v & 0xff;
        if (i + 1 <= width * 3) raw[row + i + 1] = (v >>> 8) & 0xff;
        if (i + 2 <= width * 3) raw[row + i + 2] = (v >>> 16) & 0xff;
        if (i + 3 <= width * 3) raw[row + i + 3] = (v >>> 24) & 0xff;
      }
    }
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 2; // truecolour
    const out = Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', new Uint8Array(0))]);
    // Deflate's framing makes noise a few % larger than its pixels: one more try at the right height.
    if (out.length > bytes && height > 1) {
      height = Math.max(1, Math.floor((height * bytes) / out.length) - 1);
      s--;
      continue;
    }
    if (!MARKUP.test(out.toString('latin1'))) return out;
  }
}

const para = (n: number, i: number, words: number) => `<p>${prose(n * 1000 + i, words)}.</p>`;

function page(n: number, title: string, sections: number, images: string[]): string {
  const body: string[] = [];
  for (let s = 0; s < sections; s++) {
    body.push(`<section id="s${s}"><h2>Run ${n}, part ${s + 1}</h2>`);
    for (let p = 0; p < 6; p++) body.push(para(n, s * 10 + p, 60));
    if (images.length)
      body.push(
        `<figure><img src="${images[s % images.length]}" alt="Run ${n} chart ${s}" width="256"><figcaption>Chart ${s} of run ${n}</figcaption></figure>`,
      );
    body.push(
      `<table><tr><th>round</th><th>p50 ms</th><th>p99 ms</th></tr>${Array.from({ length: 8 }, (_, r) => `<tr><td>${r + 1}</td><td>${((n * 7 + r * 3) % 50) / 10}</td><td>${((n * 11 + r * 5) % 300) / 10}</td></tr>`).join('')}</table></section>`,
    );
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="style.css"><script src="app.js" defer></script></head>
<body><header><h1>${title}</h1><nav><a href="index.html">Results</a> <a href="about.html">Method</a></nav></header>
<main>${body.join('\n')}</main>
<footer>Published run ${n}.</footer></body></html>
`;
}

function stylesheet(n: number): string {
  const rules: string[] = [`:root { --accent: #${((0x3366cc + n * 97) % 0x1000000).toString(16).padStart(6, '0')}; }`];
  rules.push('body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }');
  rules.push('table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2rem 0.5rem; }');
  for (let i = 0; i < 300; i++) rules.push(`#s${i} h2, .run-${n}-${i} { color: var(--accent); margin-top: ${(i % 7) + 1}rem; }`);
  return `${rules.join('\n')}\n`;
}

function script(n: number): string {
  const lines = [`'use strict';`, `const RUN = ${n};`, 'const rows = [];'];
  for (let i = 0; i < 200; i++) lines.push(`rows.push({ round: ${i}, p50: ${(n + i) % 97}, p99: ${(n * 3 + i) % 389} });`);
  lines.push(
    'document.addEventListener("DOMContentLoaded", () => {',
    '  const worst = rows.reduce((m, r) => Math.max(m, r.p99), 0);',
    '  const footer = document.querySelector("footer");',
    '  if (footer) footer.textContent += " Worst p99 of run " + RUN + ": " + worst + " ms.";',
    '});',
  );
  return `${lines.join('\n')}\n`;
}

/** Site number `n`: about 1.95 MB decoded in 9 files, every file different for every `n`. */
export function labSite(n: number): LabSite {
  const images = ['img/chart-1.png', 'img/chart-2.png', 'img/chart-3.png', 'img/photo.png'];
  const data = JSON.stringify({ run: n, rounds: Array.from({ length: 400 }, (_, i) => ({ i, p50: ((n + i) % 97) / 10, p99: ((n * 3 + i) % 389) / 10 })) });
  const files: LabFile[] = [
    { path: 'index.html', content: page(n, `Bench run ${n}: results`, 12, images), encoding: 'utf8' },
    { path: 'about.html', content: page(n + 1, `Bench run ${n}: method`, 4, []), encoding: 'utf8' },
    { path: 'style.css', content: stylesheet(n), encoding: 'utf8' },
    { path: 'app.js', content: script(n), encoding: 'utf8' },
    { path: 'data/rounds.json', content: data, encoding: 'utf8' },
  ];
  const text = files.reduce((s, f) => s + Buffer.byteLength(f.content), 0);
  // The rest of the budget (less 24 KB of headroom) in four images.
  const each = Math.floor((LAB_TOTAL_BYTES - 24 * 1024 - text) / images.length);
  images.forEach((path, i) => {
    files.push({ path, content: png(n * 8 + i, Math.min(each, LAB_FILE_BYTES - 4096)).toString('base64'), encoding: 'base64' });
  });
  return { title: `Bench run ${n}`, files };
}

/** A site's decoded size: what the 2 MB limit counts. */
export const decodedBytes = (site: LabSite): number =>
  site.files.reduce((s, f) => s + (f.encoding === 'base64' ? Buffer.from(f.content, 'base64').length : Buffer.byteLength(f.content)), 0);
