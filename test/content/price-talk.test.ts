// Runs every case of the price-talk table, class by class, through findPriceTalk (the function the
// board and the lab's LAB_PRICE_TALK both call) and through scanContent.
import { describe, expect, test } from 'bun:test';
import { findPriceTalk, normalizeForScan, scanContent } from '../../src/content/index.ts';
import { PRICE_TALK_CLASSES } from './price-talk-cases.ts';

const phraseForm = (text: string): string => normalizeForScan(text).replace(/\s+/g, ' ');

for (const c of PRICE_TALK_CLASSES) {
  describe(`${c.name}: calls and predictions are flagged with a short phrase taken from the text`, () => {
    for (const text of c.positives) {
      test(text, () => {
        const hit = findPriceTalk(text);
        expect(hit).not.toBeNull();
        expect(hit!.match.length).toBeGreaterThan(0);
        expect(hit!.match.length).toBeLessThanOrEqual(60);
        expect(phraseForm(text).toLowerCase()).toContain(hit!.match.toLowerCase());
      });
    }
  });
  describe(`${c.name}: measured, historical and technical text passes`, () => {
    for (const text of c.negatives) {
      test(text, () => {
        expect(findPriceTalk(text)).toBeNull();
      });
    }
  });
}

test('a call split by a line break or hidden with a zero-width space is still found', () => {
  expect(findPriceTalk('this is going\nto the moon')).toEqual({ match: 'to the moon' });
  expect(findPriceTalk('buy\u200B now')).toEqual({ match: 'buy now' });
  expect(findPriceTalk('ＢＵＹ ＮＯＷ')).toEqual({ match: 'BUY NOW' });
  expect(findPriceTalk('JUP ➡\uFE0F $5 🚀')).toEqual({ match: 'JUP ➡ $5' });
});

test('a leetspeak call is reported as the author wrote it', () => {
  expect(findPriceTalk('S0L t0 1k')).toEqual({ match: 'S0L t0 1k' });
  expect(findPriceTalk('ok so gr4b $W1F n0w')).toEqual({ match: 'gr4b $W1F' });
});

test('the match is a short phrase, never the whole text', () => {
  const prose = 'We measured p99 at 4 ms across 1,200 runs and the cache hit rate was 97%. '.repeat(40);
  const text = `${prose}Anyway, ETH to 10k by spring. ${prose}`;
  const hit = findPriceTalk(text);
  expect(hit).toEqual({ match: 'ETH to 10k' });
  // A trade plan spans two levels with up to 60 characters between them; the report is cut to 60.
  const plan = `Entry 0.42, then wait for a clean retest of the range and TP 0.60. ${'x'.repeat(500)}`;
  const planHit = findPriceTalk(plan)!;
  expect(planHit.match).toStartWith('Entry 0.42, then wait');
  expect(planHit.match.length).toBe(60);
});

describe('scanContent names the field that carries the call', () => {
  const cases: [string, unknown, string][] = [
    ['a title', { title: 'SOL t0 1k 🚀', body: 'Measured numbers only.' }, 'title'],
    ['a title in Spanish', { title: 'Compra ya, va a subir', body: 'ok' }, 'title'],
    ['a nested field', { public_status: { next_action: 'grab $WIF before it rips' } }, 'public_status.next_action'],
    ['the second array item', { files: [{ content: 'fine' }, { content: 'TP 1.2 / SL 0.8' }] }, 'files[1].content'],
  ];
  for (const [name, value, where] of cases) {
    test(name, () => {
      const v = scanContent(value, { secrets: false, selfPitch: false });
      expect(v?.code).toBe('PRICE_TALK');
      expect(v && 'where' in v ? v.where : null).toBe(where);
    });
  }
  test('a clean title and body pass', () => {
    expect(scanContent({ title: 'SOL was $142 at 14:00 UTC per CoinGecko', body: 'ETH went to 4k in 2021.' })).toBeNull();
  });
});
