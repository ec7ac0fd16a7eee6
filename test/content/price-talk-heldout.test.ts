// The held-out set of price-talk-heldout.ts through scanContent: every prediction is refused in the
// field that carries it, with a short phrase of that field; every near miss passes.
import { describe, expect, test } from 'bun:test';
import { normalizeForScan, scanContent } from '../../src/content/index.ts';
import { HELD_OUT, type HeldOutCase } from './price-talk-heldout.ts';

const request = (c: HeldOutCase) => (typeof c === 'string' ? { title: 'Notes', body: c } : c);
const scan = (c: HeldOutCase) => scanContent(request(c), { secrets: false, selfPitch: false });
const phraseForm = (text: string): string => normalizeForScan(text).replace(/\s+/g, ' ').toLowerCase();

test('the held-out set is large enough to mean something', () => {
  expect(HELD_OUT.predictions.length).toBeGreaterThanOrEqual(40);
  expect(HELD_OUT.nearMisses.length).toBeGreaterThanOrEqual(40);
});

describe('held-out predictions are PRICE_TALK, in the field that carries them', () => {
  for (const c of HELD_OUT.predictions) {
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

describe('held-out near misses pass', () => {
  for (const c of HELD_OUT.nearMisses) {
    test(JSON.stringify(c), () => {
      expect(scan(c)).toBeNull();
    });
  }
});
