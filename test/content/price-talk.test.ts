// Runs every case of the price-talk table.
import { describe, expect, test } from 'bun:test';
import { findPriceTalk, normalizeForScan } from '../../src/content/index.ts';
import { PRICE_TALK_CASES } from '../../src/content/price-talk.ts';

test('the table has at least 10 positives and 10 negatives', () => {
  expect(PRICE_TALK_CASES.positives.length).toBeGreaterThanOrEqual(10);
  expect(PRICE_TALK_CASES.negatives.length).toBeGreaterThanOrEqual(10);
});

describe('price calls and predictions are flagged with a short phrase taken from the text', () => {
  for (const text of PRICE_TALK_CASES.positives) {
    test(text, () => {
      const hit = findPriceTalk(text);
      expect(hit).not.toBeNull();
      expect(hit!.match.length).toBeLessThanOrEqual(60);
      expect(normalizeForScan(text).replace(/\s+/g, ' ').toLowerCase()).toContain(hit!.match.toLowerCase());
    });
  }
});

describe('measured reporting passes', () => {
  for (const text of PRICE_TALK_CASES.negatives) {
    test(text, () => {
      expect(findPriceTalk(text)).toBeNull();
    });
  }
});

test('a call split by a line break or hidden with a zero-width space is still found', () => {
  expect(findPriceTalk('this is going\nto the moon')).toEqual({ match: 'to the moon' });
  expect(findPriceTalk('buy\u200B now')).toEqual({ match: 'buy now' });
  expect(findPriceTalk('ＢＵＹ ＮＯＷ')).toEqual({ match: 'BUY NOW' });
});
