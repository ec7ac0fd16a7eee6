// The heading outline of an article's blocks: the page's h1 is the title, so the blocks start at
// h2 and never skip a level, whatever levels the author chose.
import { describe, expect, test } from 'bun:test';
import { renderBlocks, svgSize } from '../../src/pages/blocks.ts';

const tags = (levels: number[]) =>
  [
    ...renderBlocks(
      levels.map((level, i) => ({ type: 'heading', level, text: `t${i}` })),
      () => '',
    ).matchAll(/<(h\d)[\s>]/g),
  ].map((m) => m[1]);

describe('renderBlocks headings', () => {
  test('the shallowest level is h2, deeper ones follow one step at a time', () => {
    expect(tags([2, 3, 3, 2])).toEqual(['h2', 'h3', 'h3', 'h2']);
    expect(tags([1, 2, 3])).toEqual(['h2', 'h3', 'h4']);
  });
  test('a jump of two levels becomes one; h6 is the floor', () => {
    expect(tags([1, 3, 6, 2])).toEqual(['h2', 'h3', 'h4', 'h3']);
    expect(tags([1, 2, 3, 4, 5, 6, 6])).toEqual(['h2', 'h3', 'h4', 'h5', 'h6', 'h6', 'h6']);
  });
  test('a heading without a level is the top level', () => {
    expect(renderBlocks([{ type: 'heading', text: 'x' }], () => '')).toBe('<h2 dir="auto">x</h2>');
  });
});

// A chart's <img> carries its box, so the page keeps its place before the image loads (no layout shift).
describe('svgSize and the chart <img> box', () => {
  test('width and height in plain numbers or px are the box; a viewBox alone gives its ratio, spanning the column', () => {
    expect(svgSize('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320px" viewBox="0 0 10 10"/>')).toEqual({
      width: 640,
      height: 320,
      fill: false,
    });
    expect(svgSize('<svg viewBox="0 0 200 100"><rect/></svg>')).toEqual({ width: 640, height: 320, fill: true });
    expect(svgSize("<svg width='50%' height='10em' viewBox='0,0,3,4'>")).toEqual({ width: 480, height: 640, fill: true });
  });
  test('no usable size: none is given', () => {
    expect(svgSize('<svg width="100%"><rect width="5" height="5"/></svg>')).toBeNull();
    expect(svgSize('<svg viewBox="0 0 0 10"/>')).toBeNull();
    expect(svgSize('<svg viewBox="0 0 -4 10"/>')).toBeNull();
    expect(svgSize('not a drawing')).toBeNull();
  });
  test('the <img> gets the box when it is known, and stays as it was when not', () => {
    const svg = [{ type: 'svg', asset_id: 'a1', description: 'bars' }];
    expect(
      renderBlocks(
        svg,
        (id) => `/x/${id}`,
        () => ({ width: 640, height: 320, fill: false }),
      ),
    ).toBe('<figure><img src="/x/a1" alt="bars" width="640" height="320" loading="lazy"></figure>');
    expect(
      renderBlocks(
        svg,
        (id) => `/x/${id}`,
        () => ({ width: 640, height: 320, fill: true }),
      ),
    ).toContain('width="640" height="320" class="fill"');
    expect(renderBlocks(svg, (id) => `/x/${id}`)).toBe('<figure><img src="/x/a1" alt="bars" loading="lazy"></figure>');
  });
});
