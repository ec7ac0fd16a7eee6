// Content must be what its extension says: the service serves each file with the type of its
// extension and `nosniff`, so a file's bytes are checked against that type, never its name alone:
// magic bytes for images and fonts (and no markup hidden in them), UTF-8 for text and no binary
// signature at its start (a GIF header on a script is a polyglot), a parse for JSON and SVG, and
// a stylesheet that reads as CSS rather than as a script or a page.
import { parse as parseJs } from 'acorn';
import * as csstree from 'css-tree/dist/csstree.esm';
import { Window } from 'happy-dom';
import { found } from './finding.ts';
import { leavesSite } from './js.ts';
import type { ServedType } from './paths.ts';

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const MAGIC: Record<string, (b: Uint8Array) => boolean> = {
  png: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpg: (b) => starts(b, [0xff, 0xd8, 0xff]),
  jpeg: (b) => starts(b, [0xff, 0xd8, 0xff]),
  gif: (b) => starts(b, ascii('GIF87a')) || starts(b, ascii('GIF89a')),
  webp: (b) => starts(b, ascii('RIFF')) && starts(b.subarray(8), ascii('WEBP')),
  ico: (b) => starts(b, [0, 0, 1, 0]),
  woff2: (b) => starts(b, ascii('wOF2')),
};

function starts(b: Uint8Array, sig: number[]): boolean {
  return b.length >= sig.length && sig.every((x, i) => b[i] === x);
}

// Binary formats a text file must not begin with: the served types' own, and a few more that a
// browser or a tool would recognise (fonts, PDF, ZIP, executables).
const BINARY_SIGNATURES: [string, (b: Uint8Array) => boolean][] = [
  ...Object.entries(MAGIC).filter(([ext]) => ext !== 'jpeg'),
  ['woff', (b) => starts(b, ascii('wOFF'))],
  ['ttf', (b) => starts(b, [0, 1, 0, 0, 0])],
  ['pdf', (b) => starts(b, ascii('%PDF-'))],
  ['zip', (b) => starts(b, [0x50, 0x4b, 0x03, 0x04])],
  ['elf', (b) => starts(b, [0x7f, 0x45, 0x4c, 0x46])],
  ['wasm', (b) => starts(b, [0, 0x61, 0x73, 0x6d])],
];
// Markup that makes a browser (or a careless sniffer) read a binary file as a page.
const MARKUP = /<(?:script|html|body|iframe|!doctype\s+html)\b/i;
const latin1 = new TextDecoder('latin1');
const BOM = /^\uFEFF/;

/** A binary file: its signature, and no page hidden behind it. */
function checkBinary(file: string, type: ServedType, bytes: Uint8Array): void {
  if (!MAGIC[type.ext]!(bytes)) {
    const actual = BINARY_SIGNATURES.find(([, is]) => is(bytes))?.[0] ?? (looksLikeText(bytes) ? 'text' : 'unknown');
    found('LAB_BAD_TYPE', { file, reason: 'content_does_not_match_extension', expected: type.contentType, found: actual });
  }
  const m = MARKUP.exec(latin1.decode(bytes));
  if (m) found('LAB_BAD_TYPE', { file, reason: 'markup_in_binary', expected: type.contentType, found: m[0].toLowerCase() });
}

function looksLikeText(b: Uint8Array): boolean {
  const head = b.subarray(0, 512);
  return head.length > 0 && head.every((c) => c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127));
}

/** A stylesheet must read as CSS: one that does not, and parses as a script or starts as a page, is not one. */
function checkCss(file: string, text: string): void {
  const body = text.replace(BOM, '');
  if (/^\s*<(?:!doctype|html|head|body|script|svg|\?xml)\b/i.test(body)) found('LAB_BAD_TYPE', { file, reason: 'css_holds_markup' });
  // Simple CSS (`a { color: red }`) is also valid JavaScript, so a script parse alone proves
  // nothing; a sheet that parses as a script and not as CSS is a script. The script parse goes
  // first: real CSS fails it within a few characters (`.x`, `#id`, `@media`).
  try {
    parseJs(body, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch {
    return;
  }
  let errors = 0;
  csstree.parse(body, { onParseError: () => errors++ });
  if (errors === 0) return;
  found('LAB_BAD_TYPE', { file, reason: 'css_holds_script' });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Checks a file against its served type; answers the decoded text of text types. */
export function checkType(file: string, type: ServedType, bytes: Uint8Array): string | null {
  if (!type.text) {
    checkBinary(file, type, bytes);
    return null;
  }
  const signature = BINARY_SIGNATURES.find(([, is]) => is(bytes))?.[0];
  if (signature) found('LAB_BAD_TYPE', { file, reason: 'content_does_not_match_extension', expected: type.contentType, found: signature });
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    found('LAB_BAD_TYPE', { file, reason: 'not_utf8', expected: type.contentType });
  }
  const nul = text.indexOf('\0');
  if (nul >= 0) found('LAB_BAD_TYPE', { file, reason: 'nul_in_text', ...lineAt(text, nul) });
  if (type.ext === 'json') {
    try {
      JSON.parse(text);
    } catch {
      found('LAB_BAD_TYPE', { file, reason: 'json_syntax' });
    }
  }
  if (type.ext === 'svg') checkSvg(file, text);
  if (type.ext === 'css') checkCss(file, text);
  return text;
}

function lineAt(text: string, offset: number): { line: number } {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return { line };
}

// An SVG is served as an image and must stay one. Anything active in it (script, event handlers,
// javascript: links, foreignObject with HTML, animations that rewrite links, entity declarations)
// is LAB_BAD_TYPE with reason svg_active_content: the file is not a passive image, whatever the
// script's origin. The text checks run first and do not depend on any parser's leniency.
const SVG_ACTIVE: [RegExp, string][] = [
  [/<\s*(?:[\w-]+:)?script\b/i, 'script element'],
  [/<\s*(?:[\w-]+:)?foreignobject\b/i, 'foreignObject'],
  [/[\s"'/]on[a-z]+\s*=/i, 'event handler attribute'],
  [/javascript\s*:/i, 'javascript: URL'],
  [/<!\s*(?:doctype|entity)\b/i, 'DOCTYPE or entity declaration'],
  [/<\s*(?:[\w-]+:)?(?:set|animate)\b[^>]*attributename\s*=\s*["']?\s*(?:[\w-]+:)?href/i, 'animated link'],
  [/<\s*(?:[\w-]+:)?(?:iframe|embed|object)\b/i, 'embedded document'],
];

let window: Window | null = null;

function checkSvg(file: string, text: string): void {
  for (const [re, what] of SVG_ACTIVE) {
    const m = re.exec(text);
    if (m) found('LAB_BAD_TYPE', { file, reason: 'svg_active_content', found: what, ...lineAt(text, m.index) });
  }
  window ??= new Window({ settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true, disableIframePageLoading: true } });
  const doc = new window.DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  if (root?.localName !== 'svg' || doc.getElementsByTagName('parsererror').length > 0) {
    found('LAB_BAD_TYPE', { file, reason: 'svg_malformed' });
  }
  for (const el of Array.from(doc.querySelectorAll('*'))) {
    for (const name of ['href', 'xlink:href']) {
      const ref = el.getAttribute(name);
      if (ref !== null && !ref.startsWith('#') && !ref.startsWith('data:image/') && leavesSite(ref)) {
        found('LAB_BAD_TYPE', { file, reason: 'svg_external_reference', element: el.localName });
      }
    }
  }
}
