// The pieces under GET /v1/search: cutting q into words, quoting them for FTS5, and the one-line
// renderings of post text shared with the inbox.
import { describe, expect, test } from 'bun:test';
import { firstLine, oneLine } from '../../src/search/excerpt.ts';
import { MAX_WORDS, matchExpression, searchWords } from '../../src/search/query.ts';

describe('searchWords: q becomes words of letters and digits', () => {
  const cases: [string, string[]][] = [
    ['relay latency', ['relay', 'latency']],
    ['"unbalanced', ['unbalanced']],
    ['NEAR(a b)', ['NEAR', 'a', 'b']],
    ['foo* -bar ^baz title:x', ['foo', 'bar', 'baz', 'title', 'x']],
    ['a OR b AND NOT c', ['a', 'OR', 'b', 'AND', 'NOT', 'c']],
    ['Relay relay RELAY', ['Relay']],
    ["don't", ['don', 't']],
    ['p99=12ms', ['p99', '12ms']],
    ['Привет, мир', ['Привет', 'мир']],
    ['数据 分析', ['数据', '分析']],
    ['cafe\u0301', ['café']],
    ['🚀 launch 🎉', ['launch']],
    ['((( ))) --- ***', []],
    ['', []],
  ];
  for (const [q, want] of cases) test(`${JSON.stringify(q)} → ${JSON.stringify(want)}`, () => expect(searchWords(q)).toEqual(want));

  test(`only the first ${MAX_WORDS} distinct words count`, () => {
    const words = Array.from({ length: MAX_WORDS + 10 }, (_, i) => `w${i}`);
    expect(searchWords(words.join(' '))).toEqual(words.slice(0, MAX_WORDS));
  });
});

describe('matchExpression: every piece of every word, as the index cuts it, is an FTS string literal', () => {
  test('words are quoted, case-folded, and joined with the implicit AND', () => expect(matchExpression(['NEAR', 'a'])).toBe('"near" "a"'));
  test('a quote is no part of a word: its sides are two pieces, never syntax', () => expect(matchExpression(['a"b'])).toBe('"a" "b"'));
  test('a word in Devanagari, its combining marks included, is one piece', () => expect(matchExpression(['नमस्ते'])).toBe('"नमस्ते"'));
  test('composed and decomposed accents are the same piece, without the accent', () => {
    expect(matchExpression(['café'])).toBe('"cafe"');
    expect(matchExpression(['cafe\u0301'])).toBe('"cafe"');
  });
  test('an enclosing mark cuts a word into pieces, each asked for on its own', () => expect(matchExpression(['x\u20ddy'])).toBe('"x" "y"'));
  test('the same piece twice is asked for once', () => expect(matchExpression(['Relay', 'x\u20ddrelay'])).toBe('"relay" "x"'));
  test(`only the first ${MAX_WORDS} distinct pieces count`, () => {
    const words = Array.from({ length: MAX_WORDS / 2 + 1 }, (_, i) => `p${i}\u20ddq${i}`);
    const pieces = matchExpression(words).split(' ');
    expect(pieces).toHaveLength(MAX_WORDS);
    expect(pieces.at(-1)).toBe(`"q${MAX_WORDS / 2 - 1}"`);
  });
  test('no words, no expression', () => expect(matchExpression([])).toBe(''));
});

describe('oneLine and firstLine', () => {
  const cases: [string, string, string][] = [
    ['collapses whitespace', oneLine('  a\n\n b\t\tc\u00a0d  '), 'a b c d'],
    ['keeps short text whole', oneLine('short'), 'short'],
    ['cuts at 240 with an ellipsis', oneLine('x'.repeat(300)), `${'x'.repeat(239)}…`],
    ['never splits an emoji', oneLine('😀'.repeat(300)), `${'😀'.repeat(239)}…`],
    ['a first line skips blank lines', firstLine('\r\n  \r\nHello  there\r\nmore'), 'Hello there'],
    ['a first line is cut at 160', firstLine('y'.repeat(200)), `${'y'.repeat(159)}…`],
    ['an empty body has an empty first line', firstLine(''), ''],
  ];
  for (const [label, got, want] of cases) test(label, () => expect(got).toBe(want));
});
