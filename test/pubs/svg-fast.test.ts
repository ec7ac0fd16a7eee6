// The svg check's fast path (src/pubs/svg-fast.ts) against the full check (DOMPurify over jsdom):
// every source it takes must get exactly the full check's verdict, stored bytes and drawn text
// included; every refused source, and every source just outside its subset, must be left to the
// full check.
import { describe, expect, test } from 'bun:test';
import { fastPathOf, sanitizeSvg } from '../../src/pubs/sanitize.ts';
import { chart } from '../../bench/articles.ts';
import { SVG } from './harness.ts';
import { accepted, NS, refused } from './svg-corpus.ts';

const full = (source: string) => sanitizeSvg({ where: 'w', source, maxDepth: 64 }, false);
const wrap = (inner: string) => `<svg ${NS}>${inner}</svg>`;

// A value each attribute of the subset takes in charts.
const VALUES: Record<string, string> = {
  d: 'M 0 0 L 10 10 z',
  points: '0,0 10,10 20,0',
  transform: 'translate(1 2) rotate(45)',
  fill: 'url(#g)',
  stroke: '#36c',
  'clip-path': 'url(#c)',
  mask: 'url(#m)',
  'marker-start': 'url(#k)',
  'marker-mid': 'url(#k)',
  'marker-end': 'url(#k)',
  'font-family': 'DejaVu Sans, sans-serif',
  'text-anchor': 'middle',
  'stroke-dasharray': '2 1',
  viewBox: '0 0 10 10',
  preserveAspectRatio: 'xMidYMid meet',
  gradientTransform: 'rotate(90)',
  style: 'fill: red; stroke: none',
  id: 'bar_1',
  class: 'bar highlighted',
  orient: 'auto',
  display: 'none',
};
const ATTRS = Object.keys(VALUES).concat(
  ...[['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'dx', 'dy', 'width', 'height', 'opacity', 'offset', 'version']],
  ...[['fill-opacity', 'stroke-width', 'stroke-opacity', 'stroke-dashoffset', 'stroke-miterlimit', 'stop-opacity', 'font-size', 'refX', 'refY']],
  ...[['markerWidth', 'markerHeight', 'letter-spacing']],
);
const KEYWORDS: Record<string, string> = {
  'fill-rule': 'evenodd',
  'clip-rule': 'nonzero',
  'stroke-linecap': 'round',
  'stroke-linejoin': 'bevel',
  visibility: 'hidden',
  'font-weight': 'bold',
  'font-style': 'italic',
  'dominant-baseline': 'central',
  'text-decoration': 'underline',
  'stop-color': 'rgb(10, 20, 30)',
  gradientUnits: 'userSpaceOnUse',
  spreadMethod: 'reflect',
  clipPathUnits: 'objectBoundingBox',
  markerUnits: 'strokeWidth',
  patternUnits: 'userSpaceOnUse',
  'shape-rendering': 'crispEdges',
  'vector-effect': 'non-scaling-stroke',
  'paint-order': 'stroke',
  overflow: 'visible',
};
const ELEMENTS = ['g', 'defs', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'path', 'text', 'tspan', 'linearGradient', 'radialGradient'];
const MORE = ['stop', 'clipPath', 'marker', 'pattern', 'symbol', 'mask', 'title', 'desc'];

/** Sources written in the subset: the fast path must take every one. */
const inSubset: [string, string][] = [
  ['the harness image', SVG],
  ['a bench chart', chart(1)],
  ['another bench chart', chart(77)],
  ...ELEMENTS.concat(MORE).map((el): [string, string] => [`a ${el}`, wrap(`<${el} id="e"/><${el}>t</${el}><${el}></${el}>`)]),
  ...ATTRS.map((a): [string, string] => [`the attribute ${a}`, wrap(`<rect ${a}="${VALUES[a] ?? '1.5'}"/>`)]),
  ...Object.entries(KEYWORDS).map(([a, v]): [string, string] => [`the attribute ${a}`, wrap(`<g ${a}="${v}"><rect/></g>`)]),
  ['a root without xmlns', '<svg viewBox="0 0 10 10"><rect width="1"/></svg>'],
  ['xmlns after another attribute', `<svg viewBox="0 0 10 10" ${NS}><rect/></svg>`],
  ['blanks around the root and inside tags', `\n  <svg ${NS}\n  viewBox = '0 0 10 10' >\n  <rect  x="1"\ty="2"  />\n  <g >\t</g >\n</svg >\n`],
  ['a nested svg', wrap('<svg x="1" y="1" width="5" height="5"><rect/></svg>')],
  ['character references in text', wrap('<text>a &amp; b &gt; c &lt; d &quot;e&quot; &apos;f&apos; &lt;g</text>')],
  ['character references in attributes', wrap('<text font-family="&quot;A &amp; B&quot;, &apos;C&apos;">x</text>')],
  ['a tab and a line break inside a value', wrap('<path d="M 0 0\tL 1 1\nz"/>')],
  ['text beyond ASCII', wrap('<title>Latency µs → ms ✓ 😀</title><text>日本語 — “quoted”</text>')],
  ['deep groups', wrap(`${'<g>'.repeat(60)}<rect/>${'</g>'.repeat(60)}`)],
  [
    'a gradient, a clip path and a marker in use',
    wrap(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#36c"/><stop offset="1" stop-color="#9cf"/></linearGradient><clipPath id="c"><rect width="5" height="5"/></clipPath><marker id="k" refX="1" refY="1" orient="auto"><path d="M0 0L2 1L0 2z"/></marker></defs><path d="M0 0L9 9" fill="url(#g)" clip-path="url(#c)" marker-end="url(#k)"/>',
    ),
  ],
  ['a self-closed root', `<svg ${NS}/>`],
];

/** Sources just outside the subset: each must go to the full check. */
const outside: [string, string][] = [
  ['an attribute name in another case', wrap('<rect Fill="red"/>')],
  ['an element name in lower case', wrap('<lineargradient/>')],
  ['an element name in upper case', wrap('<RECT/>')],
  ['a repeated attribute', wrap('<rect fill="red" fill="blue"/>')],
  ['an unquoted value', wrap('<rect fill=red />')],
  ['a value-less attribute', wrap('<rect hidden/>')],
  ['a value DOMPurify would trim', wrap('<rect fill=" red"/>')],
  ['a value with a colon', wrap('<rect fill="a:b"/>')],
  ['an id named like a document property', wrap('<rect id="title"/>')],
  ['an id named like a form property', wrap('<rect id="action"/>')],
  ['a named reference HTML knows and XML does not', wrap('<text>a&nbsp;b</text>')],
  ['a numeric reference', wrap('<text>&#60;b</text>')],
  ['a reference without its semicolon', wrap('<text>a &amp b</text>')],
  ['a carriage return', wrap('<text>a\r\nb</text>')],
  ['a control character', wrap('<text>a\u0007b</text>')],
  ['another namespace on the root', '<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>'],
  ['a namespace declared on a nested svg', wrap(`<svg ${NS}><rect/></svg>`)],
  ['an element inside a title', wrap('<title><tspan>x</tspan></title>')],
  ['a comment', wrap('<!-- made by hand --><rect/>')],
  ['a comment before the root', `<!-- x --><svg ${NS}/>`],
  ['an XML declaration', `<?xml version="1.0"?><svg ${NS}/>`],
  ['a root that is not svg', `<g ${NS}/>`],
  ['text after the root', `${wrap('<rect/>')}x`],
  ['a second root', `${wrap('')}${wrap('')}`],
  ['an unclosed root', `<svg ${NS}><rect/>`],
  ['a mismatched end tag', wrap('<g><rect></g></rect>')],
  ['a data attribute', wrap('<rect data-x="1"/>')],
  ['an aria attribute', wrap('<rect aria-label="x"/>')],
  ['a "<" in a value', wrap('<rect class="a&lt;b"/>')],
  ['a ">" in a value', wrap('<rect class="a>b"/>')],
  ['a backslash in a value', wrap('<rect fill="red\\9"/>')],
  ['an outside url()', wrap('<rect fill="url(https://e.example/a)"/>')],
  ['an outside url() in style', wrap('<rect style="fill:url(x)"/>')],
  ['an image function', wrap('<rect mask="image(x)"/>')],
  ['an attribute glued to the tag name', wrap('<rect/x="1">')],
  ['attributes not separated by blanks', wrap('<rect x="1"y="2"/>')],
  ['a lone surrogate', wrap('<text>\ud800</text>')],
];

describe('the fast path agrees with the full check', () => {
  for (const [name, source] of [...inSubset, ...accepted]) {
    test(`${name}: the same verdict, stored bytes and drawn text`, async () => {
      const fast = await fastPathOf(source);
      if (inSubset.some(([, s]) => s === source)) expect(fast).not.toBeNull();
      if (fast) expect(await full(source)).toEqual({ ok: true, where: 'w', ...fast });
    });
  }
});

describe('what the fast path leaves to the full check', () => {
  for (const [name, source] of refused) {
    test(`refused: ${name}`, async () => {
      const verdict = await sanitizeSvg({ where: 'w', source, maxDepth: 64 });
      expect(verdict).toEqual(await full(source));
      expect(verdict.ok).toBe(false);
      // Nesting is measured before either path runs; everything else is the full check's to refuse.
      if (!verdict.ok && verdict.reason !== 'too_deeply_nested') expect(await fastPathOf(source)).toBeNull();
    });
  }
  for (const [name, source] of outside) {
    test(`outside the subset: ${name}`, async () => {
      expect(await fastPathOf(source)).toBeNull();
    });
  }
  test('markup hidden in a CDATA section or a processing instruction never reaches the stored image as markup', async () => {
    for (const source of [wrap('<![CDATA[<script>alert(1)</script>]]>'), wrap('<?xml-stylesheet href="https://evil.example/x.css"?><rect/>')]) {
      expect(await fastPathOf(source)).toBeNull();
      const v = await sanitizeSvg({ where: 'w', source, maxDepth: 64 });
      if (v.ok) expect(v.sanitized).not.toMatch(/<script|<\?/);
    }
  });
});

// Generated images around the subset's edges (a fixed seed: the same sources on every run): names
// in odd cases, values with references, blanks, colons and urls, text with references. Whatever
// the fast path takes must be byte for byte what the full check stores.
describe('generated images', () => {
  let seed = 20261206;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
  const names = [...ELEMENTS, ...MORE, 'Rect', 'use', 'a', 'style', 'image', 'lineargradient'];
  const attrs = [...ATTRS, ...Object.keys(KEYWORDS), 'Fill', 'href', 'onload', 'data-x', 'viewbox', 'xmlns'];
  const values = ['1', '#36c', 'url(#g)', 'url( #g )', 'red ', 'a:b', 'a &amp; b', '&quot;x&quot;', 'title', 'x\ny', 'url(x)', '&lt;', 'bold', ''];
  const texts = ['t', ' ', 'a &amp; b', '&lt;x&gt;', 'µ → ✓', '&nbsp;', '\n  '];
  function element(depth: number): string {
    const name = pick(names);
    const at = Array.from({ length: rand(3) }, () => ` ${pick(attrs)}="${pick(values)}"`).join('');
    if (depth > 3 || rand(3) === 0) return `<${name}${at}/>`;
    const kids = Array.from({ length: rand(3) }, () => (rand(2) ? element(depth + 1) : pick(texts))).join('');
    return `<${name}${at}>${kids}</${name}>`;
  }
  test('300 images: every one the fast path takes gets the full check’s verdict', async () => {
    let taken = 0;
    for (let i = 0; i < 300; i++) {
      const source = wrap(Array.from({ length: 1 + rand(3) }, () => element(0)).join(''));
      const fast = await fastPathOf(source);
      if (!fast) continue;
      taken++;
      expect([source, await full(source)]).toEqual([source, { ok: true, where: 'w', ...fast }]);
    }
    expect(taken).toBeGreaterThan(10);
  });
});
