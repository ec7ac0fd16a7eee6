// Weighted length with twitter-text's weights and each link as written, in this build (pinned: a
// library upgrade that changes a row fails here first), and the 230 limit on the text to publish
// through POST /v1/posts.
import { describe, expect, test } from 'bun:test';
import { weightedLength } from '../../src/show/text.ts';
import { makeShowApp, rootOf } from './harness.ts';

const PINNED: [string, string, number][] = [
  ['ascii', 'abc', 3],
  ['latin with accent', 'café', 4],
  ['combining accent (NFC first)', 'cafe\u0301', 4],
  ['emoji', '😀', 2],
  ['newer emoji', '🫠', 2],
  ['ZWJ family sequence', '👩‍👩‍👧‍👦', 2],
  ['CJK', '日本', 4],
  ['Cyrillic', 'привет', 6],
  ['a long https URL counts as written', 'https://github.com/example/a/very/long/path/that/goes/on', 56],
  ['a short https URL counts as written, not 23', 'https://gh.io', 13],
  ['CJK after a link counts 2 a character', 'https://github.com/日本語', 25],
  ['a bare domain counts as written', 'github.com', 10],
  ['a file name is no URL', 'Cargo.toml', 10],
  ['newline', 'a\nb', 3],
];

describe('twitter-text weighted length, pinned', () => {
  for (const [name, s, n] of PINNED) test(`${name}: ${n}`, () => expect(weightedLength(s)).toBe(n));
});

const HOOK = 'Weighted length test hook'; // 25
const META = 'Format: post\nAudience: people who write short posts for a living\nEvidence: none';
/** Text of the given weight: hook, newline, `tail` (weight w) and enough letters before it. */
const textOf = (weight: number, tail: string, tailWeight: number) => `${HOOK}\n${'a'.repeat(weight - 26 - tailWeight)}${tail}`;

const CASES: [string, string, number][] = [
  ['ten emoji', '😀'.repeat(10), 20],
  ['CJK', '日本語の説明', 12],
  ['a link', ' https://github.com/example/with/a/rather/long/path/indeed', 58],
  ['emoji, CJK and a link together', ' 😀🫠 日本語 https://github.com/example/with/a/rather/long/path/indeed', 70],
];

describe('230 weighted characters to publish', () => {
  for (const [name, tail, w] of CASES) {
    for (const total of [230, 231]) {
      test(`${name}: ${total} → ${total <= 230 ? 200 : 422}`, async () => {
        const text = textOf(total, tail, w);
        expect(weightedLength(text)).toBe(total);
        const t = makeShowApp();
        const a = await t.crew('alice');
        const r = await t.post(a, rootOf(text, META));
        if (total <= 230) return expect(r.status, r.text).toBe(200);
        expect(r.status).toBe(422);
        expect(r.json.error.details.problems).toEqual([expect.objectContaining({ rule: 'too_long_to_publish', weighted: 231, max: 230 })]);
      });
    }
  }

  test('the meta lines do not count', async () => {
    const t = makeShowApp();
    const a = await t.crew('alice');
    const r = await t.post(a, rootOf(textOf(230, '', 0), `${META}\nMedia: ${'a chart of the weekly numbers '.repeat(10)}`));
    expect(r.status, r.text).toBe(200);
  });
});

describe('Format: thread', () => {
  const part = (i: number, n = 100) => `Part ${'abcdefghij'[i]} ${'b'.repeat(n)}`;
  const thread = (parts: string[]) => rootOf([`${HOOK}`, parts.join('\n---\n')].join('\n'), META.replace('post', 'thread'));
  const cases: [string, string[], string[] | 'ok'][] = [
    ['8 parts, only the first counted against 230', Array.from({ length: 8 }, (_, i) => part(i, i === 0 ? 20 : 200)), 'ok'],
    ['9 parts', Array.from({ length: 9 }, (_, i) => part(i, 20)), ['thread_too_many_parts']],
    ['a part over 280', [part(0, 20), part(1, 280)], ['thread_part_too_long']],
    ['a part of 280 (near miss)', [part(0, 20), part(1, 273)], 'ok'],
  ];
  for (const [name, parts, rules] of cases) {
    test(name, async () => {
      const t = makeShowApp();
      const a = await t.crew('alice');
      const r = await t.post(a, thread(parts));
      if (rules === 'ok') return expect(r.status, r.text).toBe(200);
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.details.problems.map((p: { rule: string }) => p.rule)).toEqual(rules);
    });
  }
});
