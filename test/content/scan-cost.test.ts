// The content rules run on every board write, so their cheap paths are pinned here: each must give
// the answer of the plain implementation it replaced (the oracle, written out below), and the work
// they save is counted (calls), never timed.
import { describe, expect, test } from 'bun:test';
import { NeedIndex } from '../../src/content/needs.ts';
import { findPriceTalk, PRICE_TALK_PATTERNS, priceTalkNeeds } from '../../src/content/price-talk.ts';
import { tidyForPhrases } from '../../src/content/phrases.ts';
import { leetCopy } from '../../src/content/price-talk-vocab.ts';
import { seededRandom } from './fixtures.ts';

// The leetspeak reading as it was first written: every [A-Za-z0-9]+ token visited.
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };
const NUMBER_TOKEN = /^\d+(?:k|m|b|bn|x|s|ms|h|hr|hrs|d|w|y|th|st|nd|rd|gb|mb|kb|tb|px|am|pm|min|mins)?$/i;
function leetOracle(text: string): string {
  return text.replace(/[A-Za-z0-9]+/g, (token) => {
    if (!/[0-9]/.test(token) || !/[A-Za-z]/.test(token) || NUMBER_TOKEN.test(token)) return token;
    const letters = token.replace(/[0-9]/g, '');
    const upper = letters === letters.toUpperCase();
    return token.replace(/[0-9]/g, (d) => {
      const l = LEET[d] ?? d;
      return upper ? l.toUpperCase() : l;
    });
  });
}
const tidyOracle = (s: string): string => s.replace(/[\u2018\u2019\u02BC]/g, "'").replace(/\s+/g, ' ');

/** Random texts over an alphabet that makes every token shape: letters, digits, units, separators and whitespace of each kind. */
function texts(seed: number, n: number): string[] {
  const rnd = seededRandom(seed);
  const pieces = [
    'S0L',
    't0',
    'm00n',
    'p99',
    '10k',
    '2x',
    '5min',
    '3rd',
    'ETH',
    'eth',
    'a1b2',
    '42',
    'x',
    'B0NK',
    '0.5',
    '$5',
    'h3ll0',
    '_',
    '-',
    '.',
    ',',
    '’',
    '‘',
    'ʼ',
    ' ',
    '  ',
    '\n',
    '\t',
    '\u00A0',
    '\r\n',
    'word',
    'ſ',
    'é1',
    '1é',
  ];
  return Array.from({ length: n }, () => {
    let s = '';
    const len = 1 + Math.floor(rnd() * 30);
    for (let i = 0; i < len; i++) s += pieces[Math.floor(rnd() * pieces.length)]!;
    return s;
  });
}

describe('content rules: cheap paths give the plain answer', () => {
  test('leetCopy visits only the tokens holding a digit and reads every text as the plain reading does', () => {
    for (const s of [...texts(1, 4000), 'S0L t0 1k', 'm00n soon', 'p99 at 344 ms', 'ETH2 v3 h3ll0 w0rld', '']) expect(leetCopy(s)).toBe(leetOracle(s));
  });

  test('tidyForPhrases answers the text itself when there is nothing to tidy, and the tidied text otherwise', () => {
    for (const s of [...texts(2, 4000), 'plain words only', 'two  spaces', 'a\nb', 'it’s', ' lead', 'trail ', '\u2028'])
      expect(tidyForPhrases(s)).toBe(tidyOracle(s));
  });

  test('the needs are tested in one pass per reading of a text, not once per pattern', () => {
    const all = new Set<RegExp>();
    for (const p of PRICE_TALK_PATTERNS) for (const n of p.need ?? []) all.add(n);
    const index = priceTalkNeeds();
    const read = [...all].filter((re) => index.idOf(re) !== undefined);
    const unread = [...all].filter((re) => index.idOf(re) === undefined);
    // Most needs are plain words and symbols, read into the one automaton (needs.ts).
    expect(read.length).toBeGreaterThan(25);
    const calls = new Map<RegExp, number>();
    const originals = [...all].map((re) => [re, re.test] as const);
    for (const re of all) {
      const test = re.test;
      re.test = (s: string) => {
        calls.set(re, (calls.get(re) ?? 0) + 1);
        return test.call(re, s);
      };
    }
    const marksOf = NeedIndex.prototype.marksOf;
    let passes = 0;
    NeedIndex.prototype.marksOf = function (this: NeedIndex, form: string) {
      passes++;
      return marksOf.call(this, form);
    };
    try {
      // Clean prose with the words the needs look for (a modal verb, a number, "to"): every pattern is reached.
      expect(findPriceTalk('The relay will move to 2 workers before we ship; p99 could drop this week.')).toBeNull();
    } finally {
      for (const [re, test] of originals) re.test = test;
      NeedIndex.prototype.marksOf = marksOf;
    }
    // Read twice: as written and as leetspeak ("p99" reads "pgg"): one pass each; a need the
    // automaton holds is never run as a regex, and one it could not read runs at most once a reading.
    expect(passes).toBe(2);
    for (const re of read) expect(calls.get(re) ?? 0).toBe(0);
    for (const re of unread) expect(calls.get(re) ?? 0).toBeLessThanOrEqual(2);
  });
});
