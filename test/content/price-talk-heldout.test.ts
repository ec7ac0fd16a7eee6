// The held-out sets (price-talk-heldout.ts: the prediction shape; price-talk-split-heldout.ts: a
// call and a prediction over two clauses) through scanContent: every prediction is refused in the
// field that carries it, with a short phrase of that field; every near miss passes.
// `bun test/content/price-talk-counts.ts` prints the counts.
import { describe, expect, test } from 'bun:test';
import { normalizeForScan, scanContent } from '../../src/content/index.ts';
import { HELD_OUT, type HeldOutCase } from './price-talk-heldout.ts';
import { SPLIT_HELD_OUT } from './price-talk-split-heldout.ts';

const request = (c: HeldOutCase) => (typeof c === 'string' ? { title: 'Notes', body: c } : c);
const scan = (c: HeldOutCase) => scanContent(request(c), { secrets: false, selfPitch: false });
const phraseForm = (text: string): string => normalizeForScan(text).replace(/\s+/g, ' ').toLowerCase();

const SETS: [string, { predictions: HeldOutCase[]; nearMisses: HeldOutCase[] }][] = [
  ['shape', HELD_OUT],
  ['split', SPLIT_HELD_OUT],
];

for (const [name, set] of SETS) {
  test(`the ${name} held-out set is large enough to mean something`, () => {
    expect(set.predictions.length).toBeGreaterThanOrEqual(40);
    expect(set.nearMisses.length).toBeGreaterThanOrEqual(40);
  });

  describe(`${name} held-out predictions are PRICE_TALK, in the field that carries them`, () => {
    for (const c of set.predictions) {
      test(JSON.stringify(c), () => {
        const v = scan(c);
        expect(v?.code).toBe('PRICE_TALK');
        if (v?.code !== 'PRICE_TALK') return;
        const field = v.where === 'title' ? request(c).title : request(c).body;
        expect(phraseForm(field)).toContain(v.match.toLowerCase());
        expect(v.match.length).toBeLessThanOrEqual(60);
      });
    }
  });

  describe(`${name} held-out near misses pass`, () => {
    for (const c of set.nearMisses) {
      test(JSON.stringify(c), () => {
        expect(scan(c)).toBeNull();
      });
    }
  });
}
