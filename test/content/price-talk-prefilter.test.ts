// The PRICE_TALK patterns are skipped on a text that lacks what they need (phrases.ts: `need`,
// `requires`, `gate`). Those tests only make the scan cheaper: they must never change an answer.
// The oracle is each pattern's own regex run on the whole text, as the rules did before the
// prefilters; it is compared with the prefiltered run, pattern by pattern, over a generated corpus
// built from the case tables (every call the rules know, cut up, recombined, respelled and set in
// engineering prose), and the first-match verdict of the whole rule is compared the same way.
import { describe, expect, test } from 'bun:test';
import { findPriceTalk, findPriceTalkNormalized, PRICE_TALK_PATTERNS, priceTalkNeeds } from '../../src/content/price-talk.ts';
import { execPhrase, MAX_MATCH, type PhraseScan, phraseForm, phraseScan } from '../../src/content/phrases.ts';
import { leetCopy } from '../../src/content/price-talk-vocab.ts';
import { seededRandom } from './fixtures.ts';
import { PRICE_TALK_CLASSES } from './price-talk-cases.ts';
import { HELD_OUT, type HeldOutCase } from './price-talk-heldout.ts';
import { SPLIT_HELD_OUT } from './price-talk-split-heldout.ts';
import { SELF_PITCH_CASES } from './self-pitch-cases.ts';

const flat = (c: HeldOutCase): string[] => (typeof c === 'string' ? [c] : [c.title, c.body]);
const SEEDS: string[] = [
  ...PRICE_TALK_CLASSES.flatMap((c) => [...c.positives, ...c.negatives]),
  ...HELD_OUT.predictions.flatMap(flat),
  ...HELD_OUT.nearMisses.flatMap(flat),
  ...SPLIT_HELD_OUT.predictions.flatMap(flat),
  ...SPLIT_HELD_OUT.nearMisses.flatMap(flat),
  ...SELF_PITCH_CASES.positives,
  ...SELF_PITCH_CASES.negatives,
];
const PROSE = [
  'We measured p99 at 4.2 ms across 1,200 runs after moving the cache in front of the resolver.',
  'The relay now batches writes every 50 ms; throughput went from 1.6k to 2.4k posts per second.',
  'SOL traded at $142.10 on Coinbase at 14:00 UTC, volume 1.2M over the last 24 hours.',
  'Stop the worker before you swap the database file, then start it again.',
  'The token count goes to 100k per request in the worst case, so we cap it at 64k.',
  'If the queue is full the API answers 429; clients back off and retry.',
  'Apollo 11 flew to the moon in 1969.',
  'SOL va vers la lune, BONK rumbo a la luna, PEPE para a lua, DOGE geht zum Mond.',
  'La latencia va a subir si el servidor se queda sin memoria.',
  'The pump is incoming, breakout imminent; we shipped the moon lander fix, coming soon to the relay.',
  'Nobody here will make you rich, and generational wealth is not a metric; it drops to zero soon after the lease ends.',
];
// Pieces the patterns are written in, so recombined texts land on and near their joints.
const PIECES =
  'SOL ETH BTC $WIF $bonk bitcoin solana doge the token this coin my bags price market cap it this to -> → ➡️ 🚀 📈 🌕 2 will could is going to gonna about to heading for hit reach be at see double pump moon 10x 100x $5 1k 10k 0.00002 $0.5 a dollar 300,000 zero by spring EOY soon next week incoming buy sell grab short long ape into load up on now here before while cheap entry TP SL stop target 0.42 0.6 calling expect take profit at @ from on for va a subir vai subir ça va monter wird steigen zum Mond la luna compra ya jetzt kaufen salirà not financial advice dyor p99 S0L t0 m00n'.split(
    ' ',
  );

function corpus(): string[] {
  const rand = seededRandom(20270427);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const words = SEEDS.flatMap((s) => s.split(' '));
  const out = new Set<string>(SEEDS);
  for (let i = 0; i < 6000; i++) {
    const kind = i % 4;
    if (kind === 0) {
      // A known case set in prose.
      out.add(`${pick(PROSE)} ${pick(SEEDS)} ${pick(PROSE)}`);
    } else if (kind === 1) {
      // A known case with one word swapped for a piece.
      const w = pick(SEEDS).split(' ');
      w[Math.floor(rand() * w.length)] = pick(PIECES);
      out.add(w.join(' '));
    } else if (kind === 2) {
      // Pieces and case words strung together.
      out.add(Array.from({ length: 3 + Math.floor(rand() * 8) }, () => (rand() < 0.5 ? pick(PIECES) : pick(words))).join(' '));
    } else {
      // Two cases cut and joined, upper-cased or not.
      const a = pick(SEEDS);
      const b = pick(SEEDS);
      const joined = `${a.slice(0, Math.floor(rand() * a.length))}${b.slice(Math.floor(rand() * b.length))}`;
      out.add(rand() < 0.2 ? joined.toUpperCase() : joined);
    }
  }
  return [...out];
}

const TEXTS = corpus();
// The forms the rules scan: as written and read as leetspeak; and, for the `need` tests' own
// exception, copies holding the two characters that case-fold onto ASCII ("ſ", the Kelvin sign),
// which the scan's NFKC step would otherwise have removed.
const FORMS = [
  ...new Set(
    TEXTS.flatMap((t) => {
      const form = phraseForm(t);
      return [form, leetCopy(form), form.replace(/s/g, '\u017F').replace(/k/g, '\u212A')];
    }),
  ),
];

// The rule as it was: every pattern's regex on the whole text, the first that matches wins.
function oracle(form: string): { match: string } | null {
  const first = (f: string): { index: number; length: number } | null => {
    for (const p of PRICE_TALK_PATTERNS) {
      const m = p.regex.exec(f);
      if (m) return { index: m.index, length: m[0].length };
    }
    return null;
  };
  let hit = first(form);
  if (!hit) {
    const leet = leetCopy(form);
    if (leet !== form) hit = first(leet);
  }
  return hit
    ? {
        match: form
          .slice(hit.index, hit.index + hit.length)
          .trim()
          .slice(0, MAX_MATCH),
      }
    : null;
}

describe('the PRICE_TALK prefilters never change an answer', () => {
  test(`each pattern answers as its own regex does, over ${FORMS.length} generated texts`, () => {
    const hits = new Map<number, number>();
    const wrong: string[] = [];
    for (const form of FORMS) {
      // Each need tested by its own regex, and all of them by the rules' one pass (needs.ts).
      const scans: PhraseScan[] = [phraseScan(form), phraseScan(form, priceTalkNeeds())];
      PRICE_TALK_PATTERNS.forEach((p, i) => {
        const want = p.regex.exec(form);
        if (want) hits.set(i, (hits.get(i) ?? 0) + 1);
        for (const scan of scans) {
          const got = execPhrase(p, form, scan);
          if ((want === null) !== (got === null) || (want && got && (want.index !== got.index || want[0] !== got[0])))
            wrong.push(`${p.description}${scan.index ? ' (one pass)' : ''}: ${JSON.stringify(form)}`);
        }
      });
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    // The comparison means something only where a pattern matches: every prefiltered one does, often.
    const prefiltered = PRICE_TALK_PATTERNS.flatMap((p, i) => (p.need || p.gate || p.requires ? [i] : []));
    expect(prefiltered.length).toBeGreaterThan(25);
    const rare = prefiltered.filter((i) => (hits.get(i) ?? 0) < 5).map((i) => PRICE_TALK_PATTERNS[i]!.description);
    expect(rare).toEqual([]);
  });

  test(`findPriceTalk gives the same verdict and match as the unfiltered rule, over ${TEXTS.length} texts`, () => {
    let flagged = 0;
    for (const text of TEXTS) {
      const want = oracle(phraseForm(text));
      expect(findPriceTalk(text)).toEqual(want);
      if (want) flagged++;
    }
    // Both answers occur many times.
    expect(flagged).toBeGreaterThan(TEXTS.length / 10);
    expect(flagged).toBeLessThan(TEXTS.length - TEXTS.length / 10);
  });

  test('a text holding "ſ" or the Kelvin sign is still judged by every pattern', () => {
    // Under the "iu" flags "ſ" matches "s": the plain `need` searches cannot see that, so they are not used.
    for (const form of ['\u017Fell BONK now', 'grab $WIF while it\u2019s cheap'.replace(/s/g, '\u017F'), 'ETH to 10\u212A']) {
      expect(findPriceTalkNormalized(form)).toEqual(oracle(form));
      expect(findPriceTalkNormalized(form)).not.toBeNull();
    }
  });
});
