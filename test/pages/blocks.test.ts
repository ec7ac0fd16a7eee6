// The heading outline of an article's blocks: the page's h1 is the title, so the blocks start at
// h2 and never skip a level, whatever levels the author chose.
import { describe, expect, test } from 'bun:test';
import { renderBlocks } from '../../src/pages/blocks.ts';

const tags = (levels: number[]) =>
  [
    ...renderBlocks(
      levels.map((level, i) => ({ type: 'heading', level, text: `t${i}` })),
      () => '',
    ).matchAll(/<(h\d)>/g),
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
    expect(renderBlocks([{ type: 'heading', text: 'x' }], () => '')).toBe('<h2>x</h2>');
  });
});
