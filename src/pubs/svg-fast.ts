// The fast path of the svg check, for the shapes charts are made of: a source written in a small,
// strict subset of SVG (allowed elements and attributes in their canonical case, quoted values,
// five character references, nothing that could fetch) is read by this tokenizer instead of jsdom
// and DOMPurify, and serialized here to exactly the bytes the full check would store
// (test/pubs/svg-fast.test.ts compares the two over the admission corpus and generated images).
// Anything outside the subset answers null and takes the full check (sanitize.ts): the subset is
// chosen so that DOMPurify would change nothing in it, so the fast path can only agree with it.
// What it never reads: comments, declarations, CDATA, unquoted or valueless attributes, any
// reference (href), script, style sheets, animation, foreignObject, <use>, <image>, <a>, metadata.
import { fetches } from './svg-css.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Elements DOMPurify's svg profile keeps, written as the HTML parser names them in svg content.
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'path',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'marker',
  'pattern',
  'symbol',
  'mask',
]);
// title and desc are HTML integration points (markup inside them is read as HTML): text only.
const TEXT_ONLY = new Set(['title', 'desc']);

// Attributes of DOMPurify's svg profile, written as the HTML parser names them in svg content.
// DOMPurify lets these values through unchanged when they carry no ":" (its URI test), except the
// ones it never tests (class, id, style).
const ATTRIBUTES = new Set([
  ...['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'dx', 'dy', 'width', 'height', 'd', 'points', 'transform'],
  ...['fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap', 'stroke-linejoin'],
  ...['stroke-dasharray', 'stroke-dashoffset', 'stroke-miterlimit', 'opacity', 'visibility', 'display', 'clip-path', 'clip-rule', 'mask'],
  ...['font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing', 'text-decoration'],
  ...['viewBox', 'preserveAspectRatio', 'version', 'offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform'],
  ...['spreadMethod', 'clipPathUnits', 'markerWidth', 'markerHeight', 'refX', 'refY', 'orient', 'markerUnits', 'patternUnits'],
  ...['marker-start', 'marker-mid', 'marker-end', 'shape-rendering', 'vector-effect', 'paint-order', 'overflow'],
  ...['id', 'class', 'style'],
]);
const UNTESTED = new Set(['id', 'class', 'style']);

// Characters the subset never holds: controls but tab and line feed (the parser rewrites CR and
// NUL), and the byte order mark.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what is refused
const UNREAD = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufeff]/;
const TAG = /<([A-Za-z][A-Za-z0-9]*)(?=[\t\n />])/y;
const ATTR = /[\t\n ]+([A-Za-z][A-Za-z0-9-]*)[\t\n ]*=[\t\n ]*(?:"([^"]*)"|'([^']*)')/y;
const TAG_END = /[\t\n ]*(\/?)>/y;
const END_TAG = /<\/([A-Za-z][A-Za-z0-9]*)[\t\n ]*>/y;
const BLANK = /^[\t\n ]*$/;
const REFS: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

/** Text with its character references read, or null for any "&" that is not one of the five. */
function decode(raw: string): string | null {
  if (!raw.includes('&')) return raw;
  let bad = false;
  const out = raw.replace(/&[^&]*/g, (m) => {
    const semi = m.indexOf(';');
    const ref = semi < 0 ? undefined : REFS[m.slice(0, semi + 1)];
    if (ref === undefined) bad = true;
    return ref === undefined ? m : ref + m.slice(semi + 1);
  });
  return bad ? null : out;
}

// XMLSerializer's escapes (jsdom's w3c-xmlserializer): text, and attribute values (most need none).
const escapeText = (t: string) => (/[&<>]/.test(t) ? t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : t);
const escapeAttr = (v: string) => (/[&"\t\n]/.test(v) ? v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;') : v);

/** An attribute as the fast path keeps it, or null when only the full check may judge it. */
function attribute(name: string, raw: string, clobbers: (id: string) => boolean): string | null {
  if (!ATTRIBUTES.has(name)) return null;
  const value = decode(raw);
  // DOMPurify trims values, refuses "<"/">" in them (markup breaking out) and tests the others as
  // URIs; the full check refuses backslashes and anything that could fetch.
  if (value === null || value !== value.trim() || /[<>\\]/.test(value) || fetches(value)) return null;
  if (!UNTESTED.has(name) && value.includes(':')) return null;
  if (name === 'id' && clobbers(value)) return null;
  return ` ${name}="${escapeAttr(value)}"`;
}

export interface FastVerdict {
  sanitized: string;
  text: string;
}

/**
 * The full check's verdict on a source in the subset (accepted, with the stored bytes and the text
 * it draws), or null: not in the subset, the full check decides. `clobbers` says whether an id
 * would shadow a document or form property (DOMPurify removes such an id).
 */
export function fastSvg(source: string, clobbers: (id: string) => boolean): FastVerdict | null {
  if (UNREAD.test(source) || !source.isWellFormed()) return null;
  let i = source.search(/[^\t\n ]/);
  if (i < 0) return null;
  const out: string[] = [];
  const text: string[] = [];
  const open: { name: string; empty: boolean }[] = [];
  while (true) {
    if (source.startsWith('</', i)) {
      END_TAG.lastIndex = i;
      const m = END_TAG.exec(source);
      const top = open.pop();
      if (!m || !top || m[1] !== top.name) return null;
      out.push(top.empty ? '/>' : `</${top.name}>`);
      i = END_TAG.lastIndex;
      if (open.length === 0) break;
    } else if (source[i] === '<') {
      TAG.lastIndex = i;
      const m = TAG.exec(source);
      const name = m?.[1];
      if (!m || !name || !ELEMENTS.has(name)) return null;
      const parent = open.at(-1);
      if (parent ? TEXT_ONLY.has(parent.name) : name !== 'svg') return null;
      if (parent?.empty) {
        out.push('>');
        parent.empty = false;
      }
      out.push(`<${name}`);
      let at = TAG.lastIndex;
      const seen: string[] = [];
      let namespaced = false;
      for (ATTR.lastIndex = at; ; ATTR.lastIndex = at) {
        const a = ATTR.exec(source);
        if (!a) break;
        const attrName = a[1]!;
        if (seen.includes(attrName)) return null;
        seen.push(attrName);
        at = ATTR.lastIndex;
        // The root's namespace declaration stays where it was written; an image without one is
        // given it first, as XMLSerializer does. A nested svg's would be dropped: not in the subset.
        if (attrName === 'xmlns' && !parent && (a[2] ?? a[3]) === SVG_NS) {
          namespaced = true;
          out.push(` xmlns="${SVG_NS}"`);
          continue;
        }
        const kept = attribute(attrName, a[2] ?? a[3]!, clobbers);
        if (kept === null) return null;
        out.push(kept);
      }
      if (!parent && !namespaced) out.splice(out.length - seen.length, 0, ` xmlns="${SVG_NS}"`);
      TAG_END.lastIndex = at;
      const end = TAG_END.exec(source);
      if (!end) return null;
      i = TAG_END.lastIndex;
      if (end[1] === '/') {
        out.push('/>');
        if (!parent) break;
      } else open.push({ name, empty: true });
    } else {
      if (open.length === 0) return null;
      const next = source.indexOf('<', i);
      if (next < 0) return null;
      const t = decode(source.slice(i, next));
      if (t === null) return null;
      const top = open.at(-1)!;
      if (top.empty) {
        out.push('>');
        top.empty = false;
      }
      out.push(escapeText(t));
      text.push(t);
      i = next;
    }
  }
  if (!BLANK.test(source.slice(i))) return null;
  return { sanitized: out.join(''), text: text.join('') };
}
