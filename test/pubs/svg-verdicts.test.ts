// Refusal verdicts of the SVG check, pinned: the reason and what was found, in document order
// (the reference checks, the use expansion, and the case-folding of names by the HTML parser).
import { describe, expect, test } from 'bun:test';
import { handlePubsJob, sanitizeSvg } from '../../src/pubs/sanitize.ts';
import { NS, XL } from './svg-corpus.ts';

describe('the check refuses with what it found', () => {
  const verdicts: [string, string, Record<string, unknown>][] = [
    ['a chain of uses', `<svg ${NS}><rect id="a"/><use id="b" href="#a"/><use href="#b"/></svg>`, { reason: 'use_chain', found: ['use@href=#b'] }],
    [
      'uses copying too much',
      `<svg ${NS}><g id="g">${'<rect/>'.repeat(300)}</g>${'<use href="#g"/>'.repeat(80)}</svg>`,
      { reason: 'use_expands_too_much', max_use_expansion: 20_000 },
    ],
    [
      'references in document order, each named once',
      `<svg ${NS} ${XL}><a xlink:href="#x"><rect id="x" fill="url(https://e.example/a)"/></a><image href="#x"/><style>@import "x";</style><rect fill="url(https://e.example/b)"/></svg>`,
      { reason: 'external_reference_or_link_animation', found: ['rect@fill', 'image@href', 'style'] },
    ],
    [
      'an animation of a link that DOMPurify lets through (its test is case-sensitive)',
      `<svg ${NS}><animate attributeName="HREF"/></svg>`,
      { reason: 'external_reference_or_link_animation', found: ['animate@attributeName=href'] },
    ],
    [
      'backslashes in an attribute and a style sheet',
      `<svg ${NS}><rect fill="red\\9"/><style>rect{fill:red\\9}</style></svg>`,
      { reason: 'backslash_escape', found: ['rect@fill', 'style'] },
    ],
    [
      'a style sheet holding an element',
      `<svg ${NS}><style>a<g/>b</style></svg>`,
      { reason: 'external_reference_or_link_animation', found: ['style@child-elements'] },
    ],
  ];
  for (const [name, source, verdict] of verdicts) {
    test(`refuses ${name}`, async () => {
      const v = await handlePubsJob({ kind: 'svg', where: 'blocks[0].source', source, maxDepth: 64, blockIndex: 0 });
      expect(v as unknown).toEqual({ ok: false, where: 'blocks[0].source', ...verdict });
    });
  }

  test('a verdict given again on the same source names its new place; other limits judge it again', async () => {
    const script = `<svg ${NS}><script>x</script></svg>`;
    const first = await sanitizeSvg({ where: 'blocks[1].source', source: script, maxDepth: 64 });
    expect(await sanitizeSvg({ where: 'blocks[4].source', source: script, maxDepth: 64 })).toEqual({ ...first, where: 'blocks[4].source' });
    const deep = `<svg ${NS}>${'<g>'.repeat(10)}<rect/>${'</g>'.repeat(10)}</svg>`;
    expect(await sanitizeSvg({ where: 'w', source: deep, maxDepth: 64 })).toMatchObject({ ok: true });
    expect(await sanitizeSvg({ where: 'w', source: deep, maxDepth: 5 })).toMatchObject({ ok: false, reason: 'too_deeply_nested' });
    expect(await sanitizeSvg({ where: 'w', source: deep, maxDepth: 64 })).toMatchObject({ ok: true });
  });

  test('a use whose target is missing passes; a use written USE is a use (the parser lower-cases it)', async () => {
    const missing = await sanitizeSvg({ where: 'w', source: `<svg ${NS}><use href="#nope"/></svg>`, maxDepth: 64 });
    expect(missing.ok).toBe(true);
    const upper = await sanitizeSvg({ where: 'w', source: `<svg ${NS}><rect id="a"/><USE id="b" href="#a"/><use href="#b"/></svg>`, maxDepth: 64 });
    expect(upper).toMatchObject({ ok: false, reason: 'use_chain' });
  });
});
