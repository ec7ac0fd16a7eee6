// Content must be what its extension says: the service serves each file with the type of its
// extension and `nosniff`, so a file's bytes are checked against that type (magic bytes for
// images and fonts, UTF-8 for text, a parse for JSON and SVG).
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

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Checks a file against its served type; answers the decoded text of text types. */
export function checkType(file: string, type: ServedType, bytes: Uint8Array): string | null {
  if (!type.text) {
    if (!MAGIC[type.ext]!(bytes)) found('LAB_BAD_TYPE', { file, reason: 'content_does_not_match_extension', expected: type.contentType });
    return null;
  }
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
