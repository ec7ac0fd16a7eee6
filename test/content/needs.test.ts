// The phrase rules' needs in one pass (src/content/needs.ts): reading a need regex into literals,
// the case-folding argument that makes a lower-cased literal search sound, and the automaton's
// answers against each need's own regex. A need may only ever answer "maybe" where its regex
// would answer no, never "no" where it would answer yes: a wrong "no" skips a pattern that matches.
import { describe, expect, test } from 'bun:test';
import { literalSafe, NeedIndex, needLiterals } from '../../src/content/needs.ts';
import { PRICE_TALK_PATTERNS, priceTalkNeeds } from '../../src/content/price-talk.ts';
import { findSelfPitch, SELF_PITCH_RULES } from '../../src/content/self-pitch.ts';
import { normalizeForScan } from '../../src/content/normalize.ts';
import { MAX_MATCH, tidyForPhrases } from '../../src/content/phrases.ts';
import { seededRandom } from './fixtures.ts';
import { PRICE_TALK_CLASSES } from './price-talk-cases.ts';
import { SELF_PITCH_CASES } from './self-pitch-cases.ts';

const NEEDS = [...new Set([...PRICE_TALK_PATTERNS, ...SELF_PITCH_RULES].flatMap((p) => [...(p.need ?? []), ...(p.requires ? [p.requires.need] : [])]))];

describe('reading a need into literals', () => {
  test('alternatives, escapes, \\d and small classes are read; anything else keeps its regex', () => {
    expect(needLiterals(/buy|sell|get in/i)).toEqual(['buy', 'sell', 'get in']);
    expect(needLiterals(/eo[ymwq]|all[- ]in/i)).toEqual(['eoy', 'eom', 'eow', 'eoq', 'all-in', 'all in']);
    expect(needLiterals(/\dx/i)).toEqual(['0x', '1x', '2x', '3x', '4x', '5x', '6x', '7x', '8x', '9x']);
    expect(needLiterals(/pt of \$|ENTR/i)).toEqual(['pt of $', 'entr']);
    expect(needLiterals(/vão |irá /i)).toEqual(['vão ', 'irá ']);
    // Not plain alternatives, or not case-insensitive without "u": read by their regex.
    for (const re of [/\bbuy/i, /(?:a|b)c/i, /buy?/i, /a.b/i, /^x/i, /\$/, /moon/iu, /[^a]/i, /\s/i]) expect(needLiterals(re)).toBeNull();
    // A whole emoji is a literal; a surrogate of a cased script (Deseret) or a lone half is not.
    expect(needLiterals(/🚀|📈/i)).toEqual(['🚀', '📈']);
    // A class of the two halves of an emoji, on purpose: each half alone is not a literal.
    // biome-ignore lint/suspicious/noMisleadingCharacterClass: the halves of one emoji, as a non-"u" class reads them
    for (const re of [/\uD801\uDC00/i, /\uDE80/i, /[🚀]/i]) expect(needLiterals(re)).toBeNull();
  });

  test('a literal holds only characters whose case partners lower-case alike, checked over every UTF-16 unit', () => {
    // Without "u", /c/i matches u where both upper-case to the same single unit (an ASCII result
    // reached from outside ASCII excepted). literalSafe admits c only when every such u lower-cases to c's lower case.
    const canon = (u: number): number => {
      const up = String.fromCharCode(u).toUpperCase();
      if (up.length !== 1) return u;
      const cu = up.charCodeAt(0);
      return u >= 128 && cu < 128 ? u : cu;
    };
    const byCanon = new Map<number, number[]>();
    for (let u = 0; u < 0x10000; u++) {
      const k = canon(u);
      const list = byCanon.get(k);
      if (list) list.push(u);
      else byCanon.set(k, [u]);
    }
    const lower = (u: number) => String.fromCharCode(u).toLowerCase();
    const unsafe: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      if (!literalSafe(c)) continue;
      for (const u of byCanon.get(canon(c))!) if (lower(u) !== lower(c)) unsafe.push(`U+${c.toString(16)} ~ U+${u.toString(16)}`);
    }
    expect(unsafe).toEqual([]);
    // And the rules' literals are made of such characters (needLiterals refuses any other).
    expect(NEEDS.filter((re) => needLiterals(re) !== null).length).toBeGreaterThan(40);
  });
});

describe('the one pass answers as each need regex does, or more', () => {
  const rand = seededRandom(27);
  const pieces = [...PRICE_TALK_CLASSES.flatMap((c) => [...c.positives, ...c.negatives]), ...SELF_PITCH_CASES.positives, ...SELF_PITCH_CASES.negatives].flatMap(
    (t) => t.split(' '),
  );
  const odd = ['İ', 'ſ', 'K', 'Å', 'ẞ', 'µ', 'Σ', 'ς', 'Ã', 'É', '→', '🚀', '\u0307', 'ﬀ'];
  const texts = Array.from({ length: 4000 }, (_, i) => {
    const words = Array.from({ length: 2 + Math.floor(rand() * 12) }, () =>
      rand() < 0.08 ? odd[Math.floor(rand() * odd.length)]! : pieces[Math.floor(rand() * pieces.length)]!,
    );
    const t = words.join(rand() < 0.8 ? ' ' : '');
    return i % 5 === 0 ? t.toUpperCase() : t;
  });

  test(`over ${texts.length} texts: never "no" where the regex says yes, and the same answer on plain text`, () => {
    const index = new NeedIndex(NEEDS);
    const missed: string[] = [];
    let agree = 0;
    let read = 0;
    for (const text of texts) {
      const marks = index.marksOf(text);
      for (const re of NEEDS) {
        const id = index.idOf(re);
        if (id === undefined) continue;
        read++;
        const got = (marks[id >>> 5]! & (1 << (id & 31))) !== 0;
        const want = re.test(text);
        if (want && !got) missed.push(`${re.source}: ${JSON.stringify(text)}`);
        if (want === got) agree++;
      }
    }
    expect(missed.slice(0, 5)).toEqual([]);
    // Only the odd characters may make it say "maybe" more often.
    expect(agree / read).toBeGreaterThan(0.99);
  });

  test('the price-talk rules read almost all of their needs into the automaton', () => {
    expect(priceTalkNeeds().size).toBeGreaterThan(30);
  });
});

describe('SELF_PITCH: a pattern whose needs the whole text lacks is run on no sentence', () => {
  // The rule as it was: every sentence, every pattern's regex.
  const SENTENCE_END = /[.!?]+(?=\s|$)/g;
  function oracle(text: string): { match: string } | null {
    const normalized = normalizeForScan(text);
    const sentences: string[] = [];
    let start = 0;
    for (const m of normalized.matchAll(SENTENCE_END)) {
      sentences.push(normalized.slice(start, m.index + m[0].length));
      start = m.index + m[0].length;
    }
    sentences.push(normalized.slice(start));
    for (const s of sentences) {
      const form = tidyForPhrases(s);
      for (const p of SELF_PITCH_RULES) {
        const m = p.regex.exec(form);
        if (m) return { match: m[0].trim().slice(0, MAX_MATCH) };
      }
    }
    return null;
  }
  const rand = seededRandom(2027);
  const seeds = [...SELF_PITCH_CASES.positives, ...SELF_PITCH_CASES.negatives];
  const pick = () => seeds[Math.floor(rand() * seeds.length)]!;
  const joins = [' ', '. ', '.\n', '\n', '!  ', '\u2028', ' \t', '? ', '’'];
  const texts = [
    ...seeds,
    ...Array.from({ length: 3000 }, () => {
      const a = pick();
      const b = pick();
      const cut = (s: string) => s.slice(Math.floor(rand() * s.length));
      const t = `${rand() < 0.5 ? cut(a) : a}${joins[Math.floor(rand() * joins.length)]}${rand() < 0.5 ? cut(b) : b}`;
      return rand() < 0.15 ? t.toUpperCase() : t;
    }),
  ];

  test(`the same verdict and match as every pattern on every sentence, over ${texts.length} texts`, () => {
    let flagged = 0;
    const wrong: string[] = [];
    for (const t of texts) {
      const want = oracle(t);
      if (JSON.stringify(findSelfPitch(t)) !== JSON.stringify(want)) wrong.push(JSON.stringify(t));
      if (want) flagged++;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(flagged).toBeGreaterThan(texts.length / 5);
    expect(flagged).toBeLessThan(texts.length - texts.length / 5);
  });
});
