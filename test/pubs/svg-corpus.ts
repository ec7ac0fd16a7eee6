// The svg sources the admission tests judge: refused and accepted, each with a name. Shared by the
// tests through the server (svg.test.ts) and the serializer's byte comparison (svg-serialize.test.ts).
import { SVG } from './harness.ts';

export const NS = 'xmlns="http://www.w3.org/2000/svg"';
export const XL = 'xmlns:xlink="http://www.w3.org/1999/xlink"';

export const refused: [string, string][] = [
  ['script', `<svg ${NS}><script>alert(1)</script></svg>`],
  ['onload', `<svg ${NS} onload="alert(1)"><rect/></svg>`],
  ['xlink:href javascript', `<svg ${NS} ${XL}><a xlink:href="javascript:alert(1)"><rect/></a></svg>`],
  ['animate of href', `<svg ${NS}><a href="#a"><animate attributeName="href" values="javascript:alert(1)"/><rect id="a"/></a></svg>`],
  ['external image', `<svg ${NS}><image href="https://evil.example/x.png"/></svg>`],
  ['external url() fill', `<svg ${NS}><rect fill="url(https://evil.example/p.svg#g)"/></svg>`],
  ['foreignObject', `<svg ${NS}><foreignObject><div>x</div></foreignObject></svg>`],
  ['style element', `<svg ${NS}><style>@import url(https://evil.example/a.css);</style></svg>`],
  ['an external url() in a style attribute', `<svg ${NS}><rect style="fill: url(https://evil.example/p.svg#g)"/></svg>`],
  ['an image-set() in a style element', `<svg ${NS}><style>rect{mask-image:image-set("https://evil.example/a.png" 1x)}</style><rect/></svg>`],
  ['a CSS escape spelling url( in a style element', `<svg ${NS}><style>rect{fill:u\\72l(https://evil.example/a)}</style><rect/></svg>`],
  ['a CSS escape in a presentation attribute', `<svg ${NS}><rect fill="u\\72l(https://evil.example/a)"/></svg>`],
  ['markup inside a style element', `<svg ${NS}><style><img src=x onerror=alert(1)></style><rect/></svg>`],
  [
    'an animation whose values name an outside url()',
    `<svg ${NS}><rect><animate attributeName="fill" values="url(https://evil.example/a);red" dur="1s"/></rect></svg>`,
  ],
  ['a script inside metadata next to one outside it', `<svg ${NS}><metadata><script>alert(1)</script></metadata><script>alert(2)</script></svg>`],
  // From a bypass hunt: each was accepted once and fetched from outside when opened without the CSP.
  ['an element inside <style> splitting @import', `<svg ${NS}><style>@imp<g>X</g>ort "https://evil.example/a.css";</style></svg>`],
  ['an element inside <style> splitting url(', `<svg ${NS}><style>svg{background:u<title>X</title>rl(https://evil.example/b)}</style></svg>`],
  ['a url() whose comment holds a line break', `<svg ${NS}><style>svg{background-image:url("https://evil.example/c"/*\n*/)}</style></svg>`],
  ['a quoted url() ending in U+2028', `<svg ${NS}><rect style="mask-image:url('https://evil.example/d\u2028')"/></svg>`],
  ['a font src url() ending in U+2029', `<svg ${NS}><style>@font-face{font-family:q;src:url("https://evil.example/e\u2029")}</style></svg>`],
  ['image-set() in a presentation attribute', `<svg ${NS}><rect mask="image-set('https://evil.example/f' 1x)"/></svg>`],
  [
    'image-set() in an animation value',
    `<svg ${NS}><rect><animate attributeName="mask" values="none;image-set('https://evil.example/g' 1x)" dur="1s"/></rect></svg>`,
  ],
  ['image-set() in a set', `<svg ${NS}><rect><set attributeName="mask" to="image-set('https://evil.example/h' 1x)"/></rect></svg>`],
  ['a no-break space before a local #id (another same-origin URL)', `<svg ${NS}><rect filter="url(\u00a0#x)"/></svg>`],
  ['an <image> naming a local #id', `<svg ${NS}><image href="#x"/></svg>`],
  ['an unclosed url(', `<svg ${NS}><style>svg{background:url(https://evil.example/i</style></svg>`],
  // Whatever the context: any url( must name a local #id, and no fetching name appears at all.
  ['a url( to outside written inside a string', `<svg ${NS}><style>text{font-family:"url(https://evil.example/s)"}</style><text>x</text></svg>`],
  [
    'a url( run on from a unicode-range token',
    `<svg ${NS}><style>@font-face{unicode-range:U+abcdefurl(x"y);} svg{background:url(https://evil.example/t)}"</style></svg>`,
  ],
  // From a third hunt: after CSS's "<!--" token a browser reads url( where a simple reading does not.
  [
    'a <!-- before url( in a style sheet, hiding CSS behind a quote',
    `<svg ${NS}><style>&lt;!--url(a")x{}svg{background:url(https://evil.example/p)}"</style><rect/></svg>`,
  ],
  ['a <!-- before url( in a style attribute', `<svg ${NS}><rect style='a:&lt;!--url(a")b;fill:url(https://evil.example/q#p);c:"'/></svg>`],
  // From a second hunt: a "/*" inside a CSS string or an unquoted url is text, not a comment, so
  // comments cannot be cut out by a pattern: the CSS is read as a browser tokenizes it.
  ['an @import between two strings that look like a comment', `<svg ${NS}><style>@foo "/*"; @import url(https://evil.example/j.css); @bar "*/";</style></svg>`],
  [
    'a font src between two strings that look like a comment',
    `<svg ${NS}><style>x{font-family:"/*"} @font-face{font-family:Q;src:url(https://evil.example/k.woff)} y{font-family:"*/"}</style></svg>`,
  ],
  [
    'a url() between two unquoted urls holding /* and */',
    `<svg ${NS}><rect style="fill:url(#r/*);mask-image:url(https://evil.example/l);stroke:url(#r*/)"/></svg>`,
  ],
  ['a mask list hiding an outside url() the same way', `<svg ${NS}><rect mask="url(#r/*),url(https://evil.example/m.svg#m),url(#r*/)"/></svg>`],
  [
    'a set of cursor hiding an outside url() the same way',
    `<svg ${NS}><rect><set attributeName="cursor" to="url(#r/*),url(https://evil.example/n),url(#r*/),auto"/></rect></svg>`,
  ],
  [
    'animation values hiding an outside url() the same way',
    `<svg ${NS}><rect mask="url(#r)"><animate attributeName="mask" dur="1s" values="url(#r/*);url(https://evil.example/o.svg#m);url(#r*/)"/></rect></svg>`,
  ],
  ['deeply nested groups', `<svg ${NS}>${'<g>'.repeat(200)}${'</g>'.repeat(200)}</svg>`],
  ['groups nested one past the limit (65 with the root)', `<svg ${NS}>${'<g>'.repeat(64)}${'</g>'.repeat(64)}</svg>`],
  ['groups nested 20,000 deep within the byte limit, never closed', `<svg ${NS}>${'<g>'.repeat(20_000)}</svg>`],
  ['tab-obfuscated javascript: href', `<svg ${NS}><a href="java	script:alert(1)"><rect/></a></svg>`],
  ['set of href', `<svg ${NS}><a href="#a"><set attributeName="href" to="javascript:alert(1)"/><rect id="a"/></a></svg>`],
  ['an external use', `<svg ${NS}><use href="https://evil.example/s.svg#x"/></svg>`],
  ['a data: image', `<svg ${NS}><image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/></svg>`],
  ['onclick on a nested element', `<svg ${NS}><g><rect onclick="alert(1)"/></g></svg>`],
  ['an iframe', `<svg ${NS}><iframe src="https://evil.example"></iframe></svg>`],
  ['two root elements', `<svg ${NS}></svg><svg ${NS}></svg>`],
  ['not svg at all', '<div>hello</div>'],
  // The bypass classes DOMPurify's own tests cover: namespace confusion (mXSS), HTML integration
  // points, references spelled with character references, animations of links, DOM clobbering.
  ['mXSS: a </p> leaving svg content into a style', `<svg ${NS}></p><style><a id="</style><img src=1 onerror=alert(1)>"></style></svg>`],
  [
    'mXSS: math, mtext, table, mglyph, style, comment',
    `<svg ${NS}><math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">`,
  ],
  ['mXSS: an HTML element leaving svg content', `<svg ${NS}><p><img src=x onerror=alert(1)></p></svg>`],
  ['mXSS: a font with color leaving svg content', `<svg ${NS}><font color="red"><img src=x onerror=alert(1)></font></svg>`],
  ['markup inside <title> (an HTML integration point)', `<svg ${NS}><title><img src=x onerror=alert(1)></title></svg>`],
  ['a style sheet inside <desc> (an HTML integration point)', `<svg ${NS}><desc><style>@import "https://evil.example/x.css";</style></desc></svg>`],
  ['foreignObject holding an iframe', `<svg ${NS}><foreignObject width="10" height="10"><iframe src="https://evil.example"></iframe></foreignObject></svg>`],
  ['a use of an outside file by xlink:href', `<svg ${NS} ${XL}><use xlink:href="https://evil.example/s.svg#x"/></svg>`],
  [
    'a use of a data: URL by xlink:href',
    `<svg ${NS} ${XL}><use xlink:href="data:image/svg+xml,&lt;svg id='x' xmlns='http://www.w3.org/2000/svg'&gt;&lt;/svg&gt;#x"/></svg>`,
  ],
  ['a javascript: xlink:href written with a character reference', `<svg ${NS} ${XL}><a xlink:href="&#106;avascript:alert(1)"><rect/></a></svg>`],
  ['a javascript: href split by &Tab;', `<svg ${NS}><a href="java&Tab;script:alert(1)"><rect/></a></svg>`],
  [
    'an animate of xlink:href',
    `<svg ${NS} ${XL}><a xlink:href="#a"><animate attributeName="xlink:href" values="javascript:alert(1)"/><rect id="a"/></a></svg>`,
  ],
  ['a set of href on a link without one', `<svg ${NS}><a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>`],
  ['a style url() quoted with character references', `<svg ${NS}><rect style="fill:url(&quot;https://evil.example/a&quot;)"/></svg>`],
  ['a fill url( spelled with a character reference', `<svg ${NS}><rect fill="u&#114;l(https://evil.example/a)"/></svg>`],
  ['an event handler in upper case', `<svg ${NS}><rect ONLOAD="alert(1)"/></svg>`],
  ['an id that clobbers a document property', `<svg ${NS}><rect id="cookie"/></svg>`],
  ['a script in a nested svg', `<svg ${NS}><svg><script>alert(1)</script></svg></svg>`],
  ['an attribute leaving a comment', `<svg ${NS}><rect class="--><img src=x onerror=alert(1)>"/></svg>`],
  ['an attribute closing a title', `<svg ${NS}><rect fill="</title><script>alert(1)</script>"/></svg>`],
  ['a DOCTYPE declaring an entity that holds a script', `<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg ${NS}>&x;</svg>`],
];

export const accepted: [string, string][] = [
  ['shapes and text', SVG],
  ['a local gradient by url(#id)', `<svg ${NS}><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><rect fill="url(#g)"/></svg>`],
  ['a link to a local id', `<svg ${NS}><a href="#top"><rect id="top"/></a></svg>`],
  ['groups nested 30 deep', `<svg ${NS}>${'<g>'.repeat(30)}<rect/>${'</g>'.repeat(30)}</svg>`],
  ['groups nested exactly to the limit (64 with the root)', `<svg ${NS}>${'<g>'.repeat(63)}${'</g>'.repeat(63)}</svg>`],
  // The asset's CSP allows inline style, and chart tools write it everywhere.
  ['a style attribute', `<svg ${NS}><rect style="fill:red; stroke: none"/></svg>`],
  [
    'a style element with a local url(#id) and keyframes',
    `<svg ${NS}><defs><linearGradient id="g"/><style type="text/css">*{stroke-linejoin: round} rect{fill:url(#g); animation: p 2s infinite} @keyframes p{from{opacity:0} to{opacity:1}}</style></defs><rect/></svg>`,
  ],
  // Static in the spec's sense: an animation that fetches nothing.
  [
    'an animate of opacity',
    `<svg ${NS}><rect width="5" height="5"><animate attributeName="opacity" values="0;1" dur="2s" repeatCount="indefinite"/></rect></svg>`,
  ],
  [
    'an animateTransform with from and to',
    `<svg ${NS}><rect width="5" height="5"><animateTransform attributeName="transform" type="rotate" from="0 5 5" to="360 5 5" dur="2s"/></rect></svg>`,
  ],
  ['a set of fill', `<svg ${NS}><rect width="5" height="5"><set attributeName="fill" to="red" begin="1s"/></rect></svg>`],
  ['an aria-label that mentions an image (2024)', `<svg ${NS} aria-label="A chart image (2024)"><rect/></svg>`],
  ['a font-family list with quoted names', `<svg ${NS}><style>text{font-family:"DejaVu Sans", 'Liberation Sans', sans-serif}</style><text>x</text></svg>`],
  [
    'a local url() quoted and spaced, a transform, a CSS comment',
    `<svg ${NS}><defs><linearGradient id="g"/></defs><style>/* bars */ rect{fill:url( '#g' )}</style><rect transform="rotate(45)"/></svg>`,
  ],
  // Chart tools write RDF into <metadata>: it draws nothing and is dropped, like a comment.
  [
    'a matplotlib-style chart (RDF metadata, a style sheet, style attributes, a local use)',
    `<svg ${NS} ${XL} viewBox="0 0 460.8 345.6" version="1.1"><metadata><rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><cc:Work><dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/></cc:Work></rdf:RDF></metadata><defs><style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style></defs><g id="figure_1"><path d="M 0 345.6 L 460.8 0 z" style="fill: #ffffff"/><defs><path id="m1" d="M 0 0 L 0 3.5" style="stroke: #000000; stroke-width: 0.8"/></defs><use xlink:href="#m1" x="73" y="307" style="stroke: #000000"/></g></svg>`,
  ],
];
