// The SVG admission check: DOMPurify over jsdom in the pubs-svg worker; anything it would change,
// and any reference outside the image, is refused naming the block.
import { describe, expect, test } from 'bun:test';
import type { PubsJob, PubsJobResult } from '../../src/pubs/sanitize.ts';
import { setSvgPool } from '../../src/pubs/svg.ts';
import { WorkerPool, workerLocation } from '../../src/workers/pool.ts';
import { envelope, pubsApp, SVG } from './harness.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const XL = 'xmlns:xlink="http://www.w3.org/1999/xlink"';

const refused: [string, string][] = [
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
];

const accepted: [string, string][] = [
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

describe('svg blocks', () => {
  for (const [name, source] of refused) {
    test(`refuses ${name}, naming the block`, async () => {
      const { submit, t } = await pubsApp();
      const r = await submit(
        envelope({
          blocks: [
            { type: 'paragraph', text: 'p' },
            { type: 'svg', source, description: 'd', runtime: 'static' },
          ],
        }),
      );
      expect(`${r.status} ${r.json.error?.code}`).toBe('422 PUBS_SVG_REFUSED');
      expect(r.json.error.details.where).toBe('blocks[1].source');
      expect(t.db.query('SELECT count(*) AS n FROM pubs_assets').get()).toEqual({ n: 0 });
    });
  }
  for (const [name, source] of accepted) {
    test(`accepts ${name} and stores exactly the sanitized source`, async () => {
      const { submit, t } = await pubsApp();
      const r = await submit(envelope({ blocks: [{ type: 'svg', source, description: 'd', runtime: 'static' }] }));
      expect(`${r.status} ${r.json.error?.code}`).toBe('202 undefined');
      const row = t.db.query<{ body: string }, []>('SELECT body FROM pubs_assets').get()!;
      expect(row.body).toStartWith('<svg');
      expect(row.body).not.toContain('script');
    });
  }
});

describe('svg sizes', () => {
  const sized = (bytes: number) => {
    const head = `<svg ${NS}><text>`;
    const tail = '</text></svg>';
    return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
  };

  test('a 10 MB source is refused at the door (413) and stores nothing', async () => {
    const { submit, t } = await pubsApp();
    const r = await submit(envelope({ blocks: [{ type: 'svg', source: sized(10 * 1024 * 1024), description: 'd', runtime: 'static' }] }));
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(t.db.query('SELECT count(*) AS n FROM pubs_revisions').get()).toEqual({ n: 0 });
  });

  test('one byte over 64 KB is 413 PUBS_TOO_LARGE naming the block; exactly 64 KB passes', async () => {
    const { submit } = await pubsApp();
    const block = (bytes: number) => ({ type: 'svg', source: sized(bytes), description: 'd', runtime: 'static' });
    const over = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'p' }, block(64 * 1024 + 1)] }));
    expect(over.status).toBe(413);
    expect(over.json.error.details).toMatchObject({ limit: 'svg_source_bytes', max: 65_536, received: 65_537, where: 'blocks[1].source' });
    expect((await submit(envelope({ blocks: [block(64 * 1024)] }))).status).toBe(202);
  });

  test('the ninth svg block is 413 PUBS_TOO_LARGE; eight pass', async () => {
    const { submit } = await pubsApp();
    const svgs = (n: number) => Array.from({ length: n }, () => ({ type: 'svg', source: SVG, description: 'd', runtime: 'static' }));
    const nine = await submit(envelope({ blocks: svgs(9) }));
    expect(nine.json.error).toMatchObject({ code: 'PUBS_TOO_LARGE', details: { limit: 'svg_blocks', max: 8 } });
    expect((await submit(envelope({ blocks: svgs(8) }))).status).toBe(202);
  });
});

describe('the checks in the worker', () => {
  test('judged in a fixed order: a text rule before a refused svg, a refused svg before drawn text', async () => {
    const { submit } = await pubsApp();
    const bad = { type: 'svg', source: `<svg ${NS}><script>x</script></svg>`, description: 'd', runtime: 'static' };
    const drawn = { type: 'svg', source: `<svg ${NS}><text>buy $BONK now before it pumps</text></svg>`, description: 'd', runtime: 'static' };
    const pitch = { type: 'paragraph', text: 'buy $BONK now before it pumps' };
    const first = await submit(envelope({ blocks: [drawn, bad, pitch] }));
    expect(first.json.error).toMatchObject({ code: 'PRICE_TALK', details: { where: 'blocks[2].text' } });
    const second = await submit(envelope({ blocks: [drawn, bad] }));
    expect(second.json.error).toMatchObject({ code: 'PUBS_SVG_REFUSED', details: { where: 'blocks[1].source' } });
    const third = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'p' }, drawn] }));
    expect(third.json.error).toMatchObject({ code: 'PRICE_TALK', details: { where: 'blocks[1].source' } });
  });

  test('when the worker cannot answer, the text rules still run and an svg is refused, never let through', async () => {
    const { submit, t } = await pubsApp();
    const pool = new WorkerPool<PubsJob, PubsJobResult>(workerLocation('pubs-svg'), 1, 5_000);
    pool.close(); // every job now fails at once, as after a crash
    setSvgPool(t.ctx, pool);
    const priced = await submit(envelope({ blocks: [{ type: 'paragraph', text: 'buy $BONK now before it pumps' }] }));
    expect(priced.json.error).toMatchObject({ code: 'PRICE_TALK', details: { where: 'blocks[0].text' } });
    const svg = await submit(envelope({ blocks: [{ type: 'svg', source: SVG, description: 'd', runtime: 'static' }] }));
    expect(svg.json.error).toMatchObject({ code: 'PUBS_SVG_REFUSED', details: { reason: 'check_failed', where: 'blocks[0].source' } });
    expect((await submit(envelope())).status).toBe(202);
    expect(t.db.query('SELECT count(*) AS n FROM pubs_items').get()).toEqual({ n: 1 });
  });

  test('a check that overruns its budget is refused as check_timeout', async () => {
    const { submit, t } = await pubsApp();
    // A checker that never answers: over any budget, however fast the machine.
    const pool = new WorkerPool<PubsJob, PubsJobResult>(new URL('../workers/fixtures/silent-worker.ts', import.meta.url), 1, 50);
    setSvgPool(t.ctx, pool);
    try {
      const r = await submit(envelope({ blocks: [{ type: 'svg', source: SVG, description: 'd', runtime: 'static' }] }));
      expect(r.json.error).toMatchObject({ code: 'PUBS_SVG_REFUSED', details: { reason: 'check_timeout' } });
    } finally {
      pool.close();
    }
  });
});
