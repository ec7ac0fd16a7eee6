// The market score (the office `score` member) and the operator's buyback records.
import { afterAll, describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { ApiError } from '../../src/http/errors.ts';
import { addBuyback, buybackSpend } from '../../src/market/admin.ts';
import { latestMarketScore, marketScoreSchema } from '../../src/market/market-score.ts';
import { takeSnapshot } from '../../src/market/snapshot.ts';
import { dexAnswer, fakeServer, marketApp, pair, supplyAnswer } from './fakes.ts';

const market = fakeServer(() => dexAnswer([pair()]));
const rpc = fakeServer(() => supplyAnswer('999000000'));
afterAll(() => {
  market.stop();
  rpc.stop();
});

const NULLS = {
  price_usd: null,
  market_cap_usd: null,
  volume_1h_usd: null,
  volume_6h_usd: null,
  volume_24h_usd: null,
  buys_1h: null,
  sells_1h: null,
  price_change_1h_pct: null,
  price_change_6h_pct: null,
  price_change_24h_pct: null,
  liquidity_usd: null,
  burned_amount: null,
  buyback_spend_usd: null,
};

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('latestMarketScore (the office score member)', () => {
  test('before any snapshot: every number null, fetched_at null, stale', () => {
    const score = latestMarketScore(marketApp().ctx);
    expect(score).toEqual({ ...NULLS, fetched_at: null, stale: true });
    expect(v.is(marketScoreSchema, score)).toBe(true);
  });

  test('the latest good snapshot with its time, the burned amount and the buyback spend', async () => {
    const t = marketApp({ market: market.url, rpc: rpc.url });
    addBuyback(t.ctx, { usd: 1500 });
    t.clock.advance(3_000);
    await takeSnapshot(t.ctx, t.clock.now() - 3_000);
    const score = latestMarketScore(t.ctx);
    expect(score).toEqual({
      price_usd: 0.0123,
      market_cap_usd: 120_000,
      volume_1h_usd: 100,
      volume_6h_usd: 600,
      volume_24h_usd: 2400,
      buys_1h: 10,
      sells_1h: 4,
      price_change_1h_pct: 1.5,
      price_change_6h_pct: -2,
      price_change_24h_pct: 10,
      liquidity_usd: 50_000,
      burned_amount: 1_000_000,
      buyback_spend_usd: 1500,
      fetched_at: '2026-11-23T12:00:03.000Z',
      stale: false,
    });
    expect(v.is(marketScoreSchema, score)).toBe(true);
  });

  test('a failed latest read is stale with null market numbers, not the older good numbers', async () => {
    market.answer(() => dexAnswer([pair()]));
    const t = marketApp({ market: market.url });
    await takeSnapshot(t.ctx, t.clock.now());
    market.answer(() => new Response('down', { status: 500 }));
    t.clock.advance(300_000);
    await takeSnapshot(t.ctx, t.clock.now());
    expect(latestMarketScore(t.ctx)).toEqual({ ...NULLS, fetched_at: '2026-11-23T12:05:00.000Z', stale: true });
  });
});

describe('addBuyback', () => {
  test('stores the entry and returns it; at defaults to now, the note is optional', () => {
    const t = marketApp();
    expect(addBuyback(t.ctx, { usd: '2500' })).toEqual({
      id: 1,
      usd: 2500,
      at: '2026-11-23T12:00:00.000Z',
      note: null,
      recorded_at: '2026-11-23T12:00:00.000Z',
    });
    expect(addBuyback(t.ctx, { usd: 99.5, at: '2026-11-20T08:30:00Z', note: '  weekly buyback  ' })).toEqual({
      id: 2,
      usd: 99.5,
      at: '2026-11-20T08:30:00.000Z',
      note: 'weekly buyback',
      recorded_at: '2026-11-23T12:00:00.000Z',
    });
  });

  test.each([
    ['zero', { usd: 0 }, 'usd'],
    ['a negative amount', { usd: -5 }, 'usd'],
    ['a negative amount as text', { usd: '-5' }, 'usd'],
    ['text that is no number', { usd: 'lots' }, 'usd'],
    ['an exponent', { usd: '1e3' }, 'usd'],
    ['NaN', { usd: Number.NaN }, 'usd'],
    ['Infinity', { usd: Number.POSITIVE_INFINITY }, 'usd'],
    ['an empty amount', { usd: '' }, 'usd'],
    ['a time that is not ISO 8601', { usd: 1, at: 'yesterday' }, 'at'],
    ['an impossible date', { usd: 1, at: '2026-13-45T00:00:00Z' }, 'at'],
    ['a time in the future', { usd: 1, at: '2026-11-24T12:00:00Z' }, 'at'],
    ['a note over 500 characters', { usd: 1, note: 'x'.repeat(501) }, 'note'],
  ])('refuses %s with INVALID_REQUEST naming the field', (_name, input, field) => {
    const t = marketApp();
    const e = refusal(() => addBuyback(t.ctx, input));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details).toMatchObject({ field });
    expect(buybackSpend(t.ctx)).toBeNull();
  });

  test('the spend is the sum of all entries, null while there are none', () => {
    const t = marketApp();
    expect(buybackSpend(t.ctx)).toBeNull();
    addBuyback(t.ctx, { usd: 0.1 });
    addBuyback(t.ctx, { usd: 0.2 });
    expect(buybackSpend(t.ctx)).toBe(0.3);
    addBuyback(t.ctx, { usd: '1000' });
    expect(latestMarketScore(t.ctx).buyback_spend_usd).toBe(1000.3);
  });
});
