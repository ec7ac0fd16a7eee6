// The scan form undoes invisible characters, lookalikes and line wrapping without mangling prose.
import { describe, expect, test } from 'bun:test';
import { normalizeForScan } from '../../src/content/index.ts';
import { joinedForms, scanForms } from '../../src/content/normalize.ts';

describe('invisible characters are removed', () => {
  const cases: [string, string][] = [
    ['zero-width space', '\u200B'],
    ['zero-width non-joiner', '\u200C'],
    ['zero-width joiner', '\u200D'],
    ['word joiner', '\u2060'],
    ['byte-order mark', '\uFEFF'],
    ['soft hyphen', '\u00AD'],
    ['left-to-right mark', '\u200E'],
    ['right-to-left mark', '\u200F'],
    ['right-to-left override', '\u202E'],
    ['pop directional formatting', '\u202C'],
    ['first strong isolate', '\u2068'],
    ['variation selector 16', '\uFE0F'],
    ['tag latin small letter a', '\u{E0061}'],
    ['cancel tag', '\u{E007F}'],
  ];
  for (const [name, ch] of cases) {
    test(name, () => {
      expect(normalizeForScan(`ab${ch}cd`)).toBe('abcd');
    });
  }
});

test('NFKC turns full-width and compatibility lookalikes into plain ASCII', () => {
  expect(normalizeForScan('ＡＫＩＡ１２３')).toBe('AKIA123');
  expect(normalizeForScan('ﬁle')).toBe('file');
});

test('every kind of line break becomes \\n', () => {
  expect(normalizeForScan('a\r\nb\rc\u2028d\u2029e\u0085f')).toBe('a\nb\nc\nd\ne\nf');
});

test('a key wrapped over lines is joined, in one piece and per break', () => {
  const forms = scanForms('AKIAIOSF\nODNN7EXAMPLE\nthanks');
  expect(forms[0]).toBe('AKIAIOSF\nODNN7EXAMPLE\nthanks');
  expect(forms).toContain('AKIAIOSFODNN7EXAMPLEthanks');
  expect(forms).toContain('AKIAIOSFODNN7EXAMPLE');
});

test('a hyphen at a line end is kept in one form and dropped in another', () => {
  const forms = joinedForms('sk-ant-\napi03-abc');
  expect(forms).toContain('sk-ant-api03-abc');
  expect(joinedForms('AKIAIOSF-\nODNN7EXAMPLE')).toContain('AKIAIOSFODNN7EXAMPLE');
});

test('prose lines that end in a space or punctuation are not joined', () => {
  expect(joinedForms('First line, \nsecond line')).toEqual([]);
  expect(joinedForms('one line only')).toEqual([]);
});
