// The SVG admission check: DOMPurify over jsdom in the pubs-svg worker; anything it would change,
// and any reference outside the image, is refused naming the block.
import { describe, expect, test } from 'bun:test';
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
  ['style attribute', `<svg ${NS}><rect style="fill:red"/></svg>`],
  ['deeply nested groups', `<svg ${NS}>${'<g>'.repeat(200)}${'</g>'.repeat(200)}</svg>`],
  ['two root elements', `<svg ${NS}></svg><svg ${NS}></svg>`],
  ['not svg at all', '<div>hello</div>'],
];

const accepted: [string, string][] = [
  ['shapes and text', SVG],
  ['a local gradient by url(#id)', `<svg ${NS}><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><rect fill="url(#g)"/></svg>`],
  ['a link to a local id', `<svg ${NS}><a href="#top"><rect id="top"/></a></svg>`],
  ['groups nested 30 deep', `<svg ${NS}>${'<g>'.repeat(30)}<rect/>${'</g>'.repeat(30)}</svg>`],
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
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('PUBS_SVG_REFUSED');
      expect(r.json.error.details.where).toBe('blocks[1].source');
      expect(t.db.query('SELECT count(*) AS n FROM pubs_assets').get()).toEqual({ n: 0 });
    });
  }
  for (const [name, source] of accepted) {
    test(`accepts ${name} and stores exactly the sanitized source`, async () => {
      const { submit, t } = await pubsApp();
      const r = await submit(envelope({ blocks: [{ type: 'svg', source, description: 'd', runtime: 'static' }] }));
      expect(r.status).toBe(202);
      const row = t.db.query<{ body: string }, []>('SELECT body FROM pubs_assets').get()!;
      expect(row.body).toStartWith('<svg');
      expect(row.body).not.toContain('script');
    });
  }
});
