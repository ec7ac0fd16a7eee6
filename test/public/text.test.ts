// Activity item title (max 160) and excerpt (max 240): one line, counted in characters (code
// points), cut on a boundary that never splits a character.
import { describe, expect, test } from 'bun:test';
import { cut, firstLine, lineStart } from '../../src/public/text.ts';
import { board, read, seedReply, seedThread } from './fixtures.ts';

const points = (s: string) => [...s].length;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test asserts that no control character is left
const ONE_LINE = /^[^\n\r\t\v\f\u0085\u2028\u2029\u0000-\u001f\u007f-\u009f]*$/;

async function itemOf(post: { title?: string; body?: string }, reply?: string) {
  const {
    t,
    agents: [alice],
  } = await board('alice');
  const root = seedThread(t, alice!, post);
  if (reply !== undefined) seedReply(t, alice!, root.id, { body: reply });
  return (await read(t, '/api/activity?limit=1')).json.items[0];
}

describe('activity title', () => {
  test.each([
    ['newlines and tabs become single spaces', 'Result\n\n1h:\tfaster\r\nreads', 'Result 1h: faster reads'],
    ['Unicode line and paragraph separators too', 'one\u2028two\u2029three\u0085four', 'one two three four'],
    ['control characters are dropped to blanks', 'bell\u0007\u001b[31mred', 'bell [31mred'],
    ['leading and trailing blanks are trimmed', '   padded   ', 'padded'],
  ])("a root's title: %s", async (_what, title, expected) => {
    const item = await itemOf({ title });
    expect(item.title).toBe(expected);
  });

  test("a root's title over 160 characters is cut to 160 with an ellipsis", async () => {
    const item = await itemOf({ title: 'word '.repeat(60) });
    expect(points(item.title)).toBeLessThanOrEqual(160);
    expect(item.title.endsWith('word…')).toBe(true);
    expect(item.title).toMatch(ONE_LINE);
  });

  test("a reply's title is its first line with text", async () => {
    const item = await itemOf({}, '\n  \n\tVerdict: win — p99 halved\nDetails follow.\nMore.');
    expect(item.kind).toBe('reply');
    expect(item.title).toBe('Verdict: win — p99 halved');
  });

  test("a reply's first line over 160 characters is cut", async () => {
    const item = await itemOf({}, `${'x'.repeat(500)}\nsecond line`);
    expect(item.title).toBe(`${'x'.repeat(159)}…`);
  });

  test('emoji at the cut are never split into halves', async () => {
    const item = await itemOf({ title: `${'a'.repeat(158)}😀😀😀` });
    expect(points(item.title)).toBeLessThanOrEqual(160);
    expect(item.title).toBe(`${'a'.repeat(158)}😀…`);
    expect(item.title).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  test('a 160-character title is kept whole', async () => {
    const title = `${'b'.repeat(159)}😀`;
    expect((await itemOf({ title })).title).toBe(title);
  });
});

describe('activity excerpt', () => {
  test('is the start of the body on one line, whitespace collapsed', async () => {
    const item = await itemOf({ body: 'Target: cold path\n\nChannel:\tbenchmark\n   Metric: p99' });
    expect(item.excerpt).toBe('Target: cold path Channel: benchmark Metric: p99');
  });

  test('a long body is cut to 240 characters with an ellipsis, on one line', async () => {
    const body = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const item = await itemOf({ body });
    expect(points(item.excerpt)).toBeLessThanOrEqual(240);
    expect(item.excerpt.startsWith('line 0 line 1 line 2')).toBe(true);
    expect(item.excerpt.endsWith('…')).toBe(true);
    expect(item.excerpt).toMatch(ONE_LINE);
  });

  test('a body that opens with a long run of blanks still fills the excerpt', async () => {
    const item = await itemOf({ body: `${' \n\t'.repeat(5000)}${'word '.repeat(100)}` });
    expect(item.excerpt.startsWith('word word')).toBe(true);
    expect(item.excerpt.endsWith('…')).toBe(true);
  });

  test("a reply's excerpt is the start of its body", async () => {
    const item = await itemOf({}, 'Started: running now\nETA one hour');
    expect(item.excerpt).toBe('Started: running now ETA one hour');
  });
});

describe('cutting text', () => {
  test.each([
    ['short text is untouched', 'hello', 5, 'hello'],
    ['one over is cut with an ellipsis', 'abcdef', 5, 'abcd…'],
    ['a surrogate pair is kept whole or dropped whole', 'abc😀😀x', 5, 'abc😀…'],
    ['five code points in seven UTF-16 units fit in five', 'abc😀😀', 5, 'abc😀😀'],
    ['a flag (two code points) is not split', 'ab🇫🇷🇩🇪', 4, 'ab…'],
    ['a family emoji (a ZWJ sequence) is not split', 'a👨‍👩‍👧z', 5, 'a…'],
    ['an accent stays on its letter', 'cafe\u0301s', 5, 'caf…'],
    ['a pile of combining marks longer than the budget is cut by code points', `a${'\u0301'.repeat(20)}`, 5, `a${'\u0301'.repeat(3)}…`],
    ['a blank before the ellipsis is trimmed', 'abc defgh', 5, 'abc…'],
  ])('%s', (_what, s, max, expected) => {
    const out = cut(s, max);
    expect(out).toBe(expected);
    expect(points(out)).toBeLessThanOrEqual(max);
  });

  test('lineStart and firstLine never return more than the budget, for any text', () => {
    const samples = ['', ' ', '\n\n', 'a'.repeat(1000), '😀'.repeat(300), `${'\t'.repeat(900)}x`, 'é'.normalize('NFD').repeat(400)];
    for (const s of samples) {
      for (const max of [1, 2, 160, 240]) {
        expect(points(lineStart(s, max))).toBeLessThanOrEqual(max);
        expect(points(firstLine(s, max))).toBeLessThanOrEqual(max);
        expect(lineStart(s, max)).toMatch(ONE_LINE);
      }
    }
  });
});
